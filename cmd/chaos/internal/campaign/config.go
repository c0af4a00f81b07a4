package campaign

import (
	"encoding/json"
	"time"

	"github.com/zklock/zklock/cmd/chaos/internal/load"
	"github.com/zklock/zklock/cmd/chaos/internal/schedule"
	"github.com/zklock/zklock/cmd/chaos/internal/workload"
)

// Config is a campaign's validated command line, as report.json shows it.
type Config struct {
	Duration       time.Duration   `json:"duration"`
	Clients        int             `json:"clients"`
	Locks          int             `json:"locks"`
	RWRatio        float64         `json:"rw_ratio"`
	RWLocks        int             `json:"rw_locks"` // how many of the lock paths are read/write locks
	Seed           int64           `json:"seed"`
	Faults         []schedule.Kind `json:"faults"`
	FaultInterval  time.Duration   `json:"fault_interval"`
	Lock           string          `json:"lock"`
	NoFence        bool            `json:"no_fence"`
	Max            int             `json:"max,omitempty"`       // --lock=semaphore: leases of each semaphore held at once
	JudgeMax       int             `json:"judge_max,omitempty"` // a control: the max the history records and the checker judges
	NoACL          bool            `json:"no_acl,omitempty"`    // lock nodes open to the world (a control): no credentials, no ACLs
	Control        string          `json:"control,omitempty"`
	Pin            bool            `json:"pin,omitempty"`
	PinFollowers   bool            `json:"pin_followers,omitempty"` // with Pin: only to the servers that follow when the campaign starts
	TickTime       time.Duration   `json:"-"`
	SyncLimit      int             `json:"sync_limit,omitempty"`
	IdleHold       time.Duration   `json:"-"`
	RewindGrace    time.Duration   `json:"-"` // the checker's RewindGrace (0: its default)
	Out            string          `json:"out"`
	Servers        []string        `json:"servers,omitempty"` // empty: start a local ensemble
	KillCmd        string          `json:"kill_cmd,omitempty"`
	SessionTimeout time.Duration   `json:"session_timeout"`
	CheckTimeout   time.Duration   `json:"check_timeout"`
	TraceBudget    int             `json:"trace_budget"` // search states per lock when the trace is replayed in the model
	Quiet          bool            `json:"quiet"`
	TLS            bool            `json:"tls,omitempty"` // clients speak TLS to a TLS-only local ensemble
	Load           *load.Config    `json:"-"`             // --load: a load campaign instead (its own report.json)
}

// configJSON is Config in report.json, with durations as Go duration
// strings, for people to read.
type configJSON struct {
	*plainConfig
	Duration       string `json:"duration"`
	FaultInterval  string `json:"fault_interval"`
	SessionTimeout string `json:"session_timeout"`
	CheckTimeout   string `json:"check_timeout"`
	IdleHold       string `json:"idle_hold,omitempty"`
	TickTime       string `json:"tick_time"`
}

type plainConfig Config // config without its JSON methods

// MarshalJSON writes the config as configJSON.
func (c *Config) MarshalJSON() ([]byte, error) {
	idle := ""
	if c.IdleHold > 0 {
		idle = c.IdleHold.String()
	}
	return json.Marshal(configJSON{(*plainConfig)(c), c.Duration.String(), c.FaultInterval.String(),
		c.SessionTimeout.String(), c.CheckTimeout.String(), idle, c.TickTime.String()})
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (c *Config) UnmarshalJSON(b []byte) error {
	v := configJSON{plainConfig: (*plainConfig)(c)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	for _, d := range []struct {
		s   string
		dst *time.Duration
	}{{v.Duration, &c.Duration}, {v.FaultInterval, &c.FaultInterval}, {v.SessionTimeout, &c.SessionTimeout}, {v.CheckTimeout, &c.CheckTimeout}, {v.IdleHold, &c.IdleHold}, {v.TickTime, &c.TickTime}} {
		if d.s == "" && d.dst == &c.IdleHold {
			continue // omitted when zero
		}
		var err error
		if *d.dst, err = time.ParseDuration(d.s); err != nil {
			return err
		}
	}
	return nil
}

// workload is what the clients take from the config; auth is the
// campaign's credentials (nil without ACLs).
func (c *Config) workload(auth []byte) workload.Config {
	return workload.Config{Seed: c.Seed, RWRatio: c.RWRatio, Pin: c.Pin, IdleHold: c.IdleHold,
		SessionTimeout: c.SessionTimeout, NoFence: c.NoFence, Max: c.Max, JudgeMax: c.JudgeMax, Auth: auth, Lock: c.Lock}
}
