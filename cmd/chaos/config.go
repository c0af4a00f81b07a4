package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/zklock/zklock/cmd/chaos/internal/campaign"
	"github.com/zklock/zklock/cmd/chaos/internal/schedule"
	"github.com/zklock/zklock/cmd/chaos/internal/workload"
)

const usageHead = `usage: chaos [flags]

Runs a chaos campaign against a ZooKeeper ensemble: --clients sessions, each
through its own fault-injecting proxies, contend for --locks lock paths and
write to fenced registers in their critical sections while faults are
injected on a schedule drawn from --seed. The history is checked for
linearizability and by direct checks (package checker).

With --lock=election the --locks paths are elections: candidates campaign
with values of their own, lead (fenced writes, as holders), proclaim new
values, then resign or crash; every third client observes each election.
Leaderships are checked as lock tenures, observers' reports by the
observed-order and observed-value checks.

With --lock=semaphore the --locks paths are counting semaphores of --max
leases: clients acquire (sometimes TryAcquire), write through Lease.Guard,
then Unlock or crash. The semaphore-overlap check and the semaphore model
judge the leases: never more than --max believed held at once.

Exit status: 0 the history is linearizable and no direct check failed;
1 a violation was found; 2 bad usage, or the campaign could not be set up
or could not finish; 3 the check could not decide in --check-timeout.

Output in --out: history.jsonl (the history, streamed), report.json,
check.txt (the checker's report) and, on a violation, porcupine's HTML
visualisation of each failing partition.

Faults (--faults takes "all", "none" or a comma list):
`

const usageTail = `
Controls (the checker must flag them, exit 1):
  --lock=zk     go-zookeeper's zk.Lock, which never tells a holder that its
                session expired: blackhole-holder makes two holders overlap.
  --no-fence    critical sections write without tokens: a frozen holder's
                late write lands after the next holder's (freeze-client).
  --no-acl      lock nodes open to the world, clients without credentials:
                the intruder deletes a holder's node and writes its data
                (intruder). With ACLs (the default) it is refused.

Load (--load): no faults; busy sessions holding several leases send Guard
writes and reads flat out while thousands of waiters queue on one path and
drain. A lease or session lost, an acquisition slower than --acquire-bound,
or a waiter never granted fails the campaign (exit 1). The --load-*,
--waiters, --waiter-sessions, --acquire-bound and --sample-every flags are
its own; the fault flags are refused.

Flags:
`

// parseConfig parses and validates the command line. A nil config with a nil
// error means --help was asked for and printed to stdout.
func parseConfig(args []string, stdout io.Writer) (*campaign.Config, error) {
	fs := flag.NewFlagSet("chaos", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported in one line by the caller
	c := &campaign.Config{}
	fs.DurationVar(&c.Duration, "duration", 3*time.Minute, "how long the workload runs (faults are planned inside it)")
	fs.IntVar(&c.Clients, "clients", 5, "client sessions, each through its own proxies")
	fs.IntVar(&c.Locks, "locks", 3, "lock paths contended for")
	fs.Float64Var(&c.RWRatio, "rw-ratio", 0.3, "share of operations on read/write locks (the rest on exclusive locks); must be 0 with --lock=zk, election or semaphore")
	fs.Int64Var(&c.Seed, "seed", 0, "seed of the fault schedule and of the workload's choices (default: random, printed)")
	faults := fs.String("faults", "all", "faults to inject: all, none, or a comma list of the names above")
	fs.DurationVar(&c.FaultInterval, "fault-interval", 6*time.Second, "mean time between fault starts (faults never overlap)")
	fs.StringVar(&c.Lock, "lock", workload.LockZklock, "lock under test: zklock, election (zklock's leader election: candidates campaign, lead, proclaim, resign or crash; every third client observes), semaphore (zklock's counting semaphore of --max leases), or zk (go-zookeeper's zk.Lock, a control)")
	fs.IntVar(&c.Max, "max", 2, "with --lock=semaphore: leases of each semaphore held at once")
	fs.IntVar(&c.JudgeMax, "judge-max", 0, "with --lock=semaphore, a control: record and judge the leases against this max instead of --max (below --max, the checker must flag the run)")
	fs.BoolVar(&c.NoFence, "no-fence", false, "write without fencing tokens (a control)")
	fs.BoolVar(&c.NoACL, "no-acl", false, "lock nodes without ACLs and clients without credentials: the intruder fault takes the lock (a control)")
	fs.StringVar(&c.Control, "control", "", "this campaign is a control that must be flagged: what it controls, for the report")
	fs.BoolVar(&c.Pin, "pin", false, "each client talks to one server only (client i to server i mod N), as behind a fixed address: on a partition it stays on its side")
	fs.BoolVar(&c.PinFollowers, "pin-followers", false, "with --pin: pin clients only to the servers that are followers when the campaign starts (client i to follower i mod their number); isolate-holder then always cuts off a holder's follower, which goes on answering its pings while the leader expires it")
	fs.DurationVar(&c.IdleHold, "idle-hold", 0, "end every critical section with an idle hold of up to this long, only watching for the lease's loss (an idle holder sends nothing but pings)")
	fs.StringVar(&c.Out, "out", "", "output folder, created; must be empty if it exists (default ./out/chaos-<timestamp>)")
	servers := fs.String("servers", "", "comma list host:port of an existing ensemble (default: start a local 3-node ensemble)")
	fs.StringVar(&c.KillCmd, "kill-cmd", "", "with --servers: shell command run to kill a server; {addr}, {host}, {port} and {signal} (KILL, or STOP/CONT for pause-server) are substituted; it must bring a killed server back")
	fs.DurationVar(&c.SessionTimeout, "session-timeout", 5*time.Second, "ZooKeeper session timeout asked for; the server must grant exactly this, and it must exceed a fifth of itself plus (syncLimit+1) x tickTime (zklock's loss rule)")
	fs.DurationVar(&c.TickTime, "tick-time", 2*time.Second, "with --servers: the servers' tickTime (zoo.cfg), which zklock's loss rule needs")
	fs.IntVar(&c.SyncLimit, "sync-limit", 5, "the servers' syncLimit: with --servers as their zoo.cfg says; for the local ensemble, the value it is started with")
	fs.DurationVar(&c.CheckTimeout, "check-timeout", 5*time.Minute, "bound on the linearizability search")
	fs.DurationVar(&c.RewindGrace, "rewind-grace", 0, "how long after a wipe ends a holder may go on believing (0: the checker's default, 2s)")
	fs.IntVar(&c.TraceBudget, "trace-budget", 5_000_000, "bound on the search states per lock when zklock's trace is replayed in the model")
	fs.BoolVar(&c.Quiet, "quiet", false, "no schedule and no progress line on stderr")
	fs.BoolVar(&c.TLS, "tls", false, "clients speak TLS to a local ensemble that serves TLS only; cut-create cannot see inside TLS and is left out of \"all\"")
	lc := loadFlags(fs)
	fs.Usage = func() {}

	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(stdout, fs)
			return nil, nil
		}
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q (flags only)", fs.Arg(0))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["seed"] {
		c.Seed = rand.Int64()
	}
	if (c.Lock == workload.LockZk || c.Lock == workload.LockElection || c.Lock == workload.LockSemaphore) && !set["rw-ratio"] {
		c.RWRatio = 0 // zk.Lock has no read/write lock, an election or a semaphore no readers
	}
	var err error
	if c.Faults, err = schedule.ParseKinds(*faults); err != nil {
		return nil, err
	}
	if c.TLS && *faults == "all" {
		c.Faults = withoutOpaqueKinds(c.Faults)
	}
	if *servers != "" {
		for _, s := range strings.Split(*servers, ",") {
			s = strings.TrimSpace(s)
			if s == "" || !strings.Contains(s, ":") {
				return nil, fmt.Errorf("--servers: %q is not host:port", s)
			}
			c.Servers = append(c.Servers, s)
		}
	}
	if c.Out == "" {
		c.Out = "out/chaos-" + time.Now().Format("20060102-150405")
	}
	if lc.on {
		return c, lc.finish(c, set)
	}
	return c, validateConfig(c)
}

// validateConfig rejects values out of range and combinations that cannot work, and
// sets c.RWLocks.
func validateConfig(c *campaign.Config) error {
	switch {
	case c.Duration < 5*time.Second:
		return fmt.Errorf("--duration %v: at least 5s", c.Duration)
	case c.Clients < 2 || c.Clients > 64:
		return fmt.Errorf("--clients %d: between 2 and 64 (locks need contention)", c.Clients)
	case c.Locks < 1 || c.Locks > 64:
		return fmt.Errorf("--locks %d: between 1 and 64", c.Locks)
	case math.IsNaN(c.RWRatio) || c.RWRatio < 0 || c.RWRatio > 1:
		return fmt.Errorf("--rw-ratio %v: between 0 and 1", c.RWRatio)
	case c.FaultInterval < 500*time.Millisecond:
		return fmt.Errorf("--fault-interval %v: at least 500ms", c.FaultInterval)
	case timingErr(c.SessionTimeout, c.SyncLimit, c.TickTime) != nil:
		return timingErr(c.SessionTimeout, c.SyncLimit, c.TickTime)
	case c.IdleHold < 0:
		return fmt.Errorf("--idle-hold %v: must not be negative", c.IdleHold)
	case c.PinFollowers && !c.Pin:
		return fmt.Errorf("--pin-followers needs --pin")
	case c.RewindGrace < 0:
		return fmt.Errorf("--rewind-grace %v: must not be negative", c.RewindGrace)
	case c.CheckTimeout <= 0:
		return fmt.Errorf("--check-timeout %v: must be positive", c.CheckTimeout)
	case c.TraceBudget <= 0:
		return fmt.Errorf("--trace-budget %d: must be positive", c.TraceBudget)
	case c.Lock != workload.LockZklock && c.Lock != workload.LockZk && c.Lock != workload.LockElection &&
		c.Lock != workload.LockSemaphore:
		return fmt.Errorf("--lock %q: zklock, election, semaphore or zk", c.Lock)
	case c.Lock == workload.LockZk && c.RWRatio > 0:
		return fmt.Errorf("--lock=zk with --rw-ratio %v: go-zookeeper has no read/write lock", c.RWRatio)
	case c.Lock == workload.LockElection && c.RWRatio > 0:
		return fmt.Errorf("--lock=election with --rw-ratio %v: an election has no readers", c.RWRatio)
	case c.Lock == workload.LockElection && c.Clients < 3:
		return fmt.Errorf("--lock=election with --clients %d: at least 3 (two candidates and an observer)", c.Clients)
	case c.RWRatio > 0 && c.RWRatio < 1 && c.Locks < 2:
		return fmt.Errorf("--rw-ratio %v needs --locks >= 2 (a path is either exclusive or read/write)", c.RWRatio)
	case c.KillCmd != "" && len(c.Servers) == 0:
		return fmt.Errorf("--kill-cmd needs --servers (the local ensemble is killed directly)")
	}
	if err := validateSemaphore(c); err != nil {
		return err
	}
	if err := validateTLS(c); err != nil {
		return err
	}
	if len(c.Servers) > 0 {
		sf := schedule.ServerKinds(c.Faults)
		if len(sf) > 0 && c.KillCmd == "" {
			return fmt.Errorf("--servers without --kill-cmd cannot inject %s (exclude them with --faults)", schedule.JoinKinds(sf))
		}
		for _, k := range sf {
			if k == schedule.PauseServer && !strings.Contains(c.KillCmd, "{signal}") {
				return fmt.Errorf("pause-server with --servers needs {signal} in --kill-cmd (STOP, then CONT)")
			}
		}
		if len(sf) > 0 && !strings.Contains(c.KillCmd, "{addr}") && !strings.Contains(c.KillCmd, "{host}") && !strings.Contains(c.KillCmd, "{port}") {
			return fmt.Errorf("--kill-cmd names no server: use {addr}, {host} or {port}")
		}
		if lf := schedule.LinkKinds(c.Faults); len(lf) > 0 {
			return fmt.Errorf("--servers cannot inject %s: cutting links between servers needs the local ensemble's proxies (exclude them with --faults)", schedule.JoinKinds(lf))
		}
	}
	c.RWLocks = rwLocks(c.Locks, c.RWRatio)
	return nil
}

// rwLocks is how many of the lock paths are read/write locks: the paths are
// split so that about rwRatio of the operations, spread evenly over paths,
// land on read/write paths, with at least one path of each kind in use.
func rwLocks(locks int, ratio float64) int {
	switch {
	case ratio <= 0:
		return 0
	case ratio >= 1:
		return locks
	}
	n := int(math.Round(float64(locks) * ratio))
	return min(max(n, 1), locks-1)
}

func printUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, usageHead)
	for _, f := range schedule.All {
		where := ""
		switch {
		case f.Server:
			where = " [server]"
		case f.Links:
			where = " [local ensemble]"
		}
		fmt.Fprintf(w, "  %-17s %s%s\n", f.Kind, f.Help, where)
	}
	fmt.Fprint(w, "By name only (not in \"all\": its zxids go back, and the trace orders every step by them):\n")
	for _, f := range schedule.OptIn {
		where := ""
		if f.Server {
			where = " [server]"
		}
		fmt.Fprintf(w, "  %-17s %s%s\n", f.Kind, f.Help, where)
	}
	fmt.Fprint(w, usageTail)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// timingErr checks the session's timing flags, which the fault campaign and
// the load campaign share.
func timingErr(timeout time.Duration, syncLimit int, tick time.Duration) error {
	switch {
	case timeout < time.Second || timeout > time.Minute:
		return fmt.Errorf("--session-timeout %v: between 1s and 1m", timeout)
	case syncLimit < 1 || tick <= 0:
		return fmt.Errorf("--sync-limit %d, --tick-time %v: must be positive", syncLimit, tick)
	}
	return nil
}

// validateSemaphore checks --max and --judge-max, which only a semaphore
// campaign takes; other campaigns record no max.
func validateSemaphore(c *campaign.Config) error {
	if c.Lock != workload.LockSemaphore {
		c.Max, c.JudgeMax = 0, 0
		return nil
	}
	switch {
	case c.RWRatio > 0:
		return fmt.Errorf("--lock=semaphore with --rw-ratio %v: a semaphore has no readers", c.RWRatio)
	case c.Max < 1:
		return fmt.Errorf("--max %d: at least 1", c.Max)
	case c.JudgeMax < 0:
		return fmt.Errorf("--judge-max %d: must not be negative", c.JudgeMax)
	case c.Clients <= c.Max:
		return fmt.Errorf("--lock=semaphore with --clients %d: more than --max %d, or nobody ever waits", c.Clients, c.Max)
	}
	return nil
}
