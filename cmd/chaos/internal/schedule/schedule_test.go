package schedule

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

func params(seed int64, kinds []Kind) Params {
	return Params{Seed: seed, Kinds: kinds, Duration: 3 * time.Minute, Interval: 6 * time.Second,
		SessionTimeout: 5 * time.Second}
}

func TestScheduleIsDeterministic(t *testing.T) {
	all, _ := ParseKinds("all")
	a := Make(params(42, all))
	b := Make(params(42, all))
	if len(a) == 0 {
		t.Fatal("empty schedule")
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("the same seed gave two schedules")
	}
	c := Make(params(43, all))
	if reflect.DeepEqual(a, c) {
		t.Error("seeds 42 and 43 gave the same schedule")
	}
}

func TestScheduleCoversEveryKindAndRespectsTheSet(t *testing.T) {
	all, _ := ParseKinds("all")
	for seed := int64(0); seed < 50; seed++ {
		s := Make(params(seed, all))
		seen := map[Kind]int{}
		for _, f := range s {
			seen[f.Kind]++
			if f.At < 0 || f.At >= 3*time.Minute {
				t.Fatalf("seed %d: fault at %v outside the campaign", seed, f.At)
			}
		}
		for _, k := range all {
			if seen[k] == 0 {
				t.Errorf("seed %d: no %s in a 3-minute schedule", seed, k)
			}
		}
		if first := s[0].Kind; first != FreezeClient && first != BlackholeHolder {
			t.Errorf("seed %d: first fault %s does not target a holder", seed, first)
		}
	}
	only := []Kind{Sever, Latency}
	for _, f := range Make(params(7, only)) {
		if f.Kind != Sever && f.Kind != Latency {
			t.Errorf("--faults sever,latency scheduled %s", f.Kind)
		}
	}
	if s := Make(params(7, nil)); len(s) != 0 {
		t.Errorf("--faults none scheduled %d faults", len(s))
	}
}

// Faults meant to expire sessions must outlast the session timeout, and a
// freeze must leave the next holder time to be granted and to write.
func TestScheduleDurations(t *testing.T) {
	all, _ := ParseKinds("all")
	const T = 3 * time.Second
	for seed := int64(0); seed < 50; seed++ {
		prev := time.Duration(-1)
		for _, f := range Make(params(seed, all)) {
			if f.At <= prev {
				t.Fatalf("seed %d: faults out of order", seed)
			}
			prev = f.At
			switch f.Kind {
			case BlackholeHolder, BlackholeWaiter:
				if f.Duration <= T {
					t.Errorf("seed %d: %s for %v, not past the session timeout", seed, f.Kind, f.Duration)
				}
			case FreezeClient:
				if f.Duration < T*3/2+time.Second {
					t.Errorf("seed %d: freeze for %v only", seed, f.Duration)
				}
			case PauseServer:
				if f.Duration < ServerPauseMin || (f.Role != RoleLeader && f.Role != RoleFollower) {
					t.Errorf("seed %d: pause-server %+v", seed, f)
				}
			case Latency:
				if f.Delay <= 0 || f.Duration <= 0 {
					t.Errorf("seed %d: latency %+v", seed, f)
				}
			case IsolateLeader, SplitMinority, IsolateHolder:
				// Past the session timeout, so that sessions of the cut-off
				// side expire while the partition lasts.
				if f.Duration < T*3/2+time.Second {
					t.Errorf("seed %d: %s for %v only", seed, f.Kind, f.Duration)
				}
			case Intruder:
				if f.Role != RoleHolder || f.Duration != 0 {
					t.Errorf("seed %d: intruder %+v is not an instant attack on a holder", seed, f)
				}
			case Flap:
				if f.Delay < 100*time.Millisecond || f.Delay > 500*time.Millisecond || f.Duration < 4*f.Delay {
					t.Errorf("seed %d: flap %+v does not flap every few hundred ms", seed, f)
				}
			}
		}
	}
}

// A short control must meet its decisive fault in its first seconds.
func TestShortScheduleStartsWithAHolderFault(t *testing.T) {
	for seed := int64(0); seed < 100; seed++ {
		p := params(seed, []Kind{Sever, BlackholeHolder, Latency})
		p.Duration = 20 * time.Second
		s := Make(p)
		if len(s) == 0 || s[0].Kind != BlackholeHolder || s[0].At > 2*time.Second {
			t.Fatalf("seed %d: schedule starts with %+v", seed, s[0])
		}
	}
}

func TestScheduleJSONRoundTrip(t *testing.T) {
	all, _ := ParseKinds("all")
	s := Make(params(9, all))
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back []Fault
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s, back) {
		t.Errorf("schedule changed through JSON:\n%v\n%v", s, back)
	}
}

// Intruders come with no credentials and with wrong ones, both.
func TestIntruderCredentialsVary(t *testing.T) {
	seen := map[bool]int{}
	for seed := int64(0); seed < 20; seed++ {
		for _, f := range Make(params(seed, []Kind{Intruder})) {
			seen[f.WrongCredentials()]++
		}
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Errorf("wrong credentials in %d intruder faults, none in %d: want both", seen[true], seen[false])
	}
}
