// Package lossclock is the Go mirror of spec/tla/LossClock.tla: the
// client's bounded memory of acknowledgements and what a sync proves from
// it, as pure functions on a value. impl/zklock's lossClock runs the same
// rule on time.Time; this package runs it on the spec's ticks, for the
// model of SessionTimingLoad.
package lossclock

import (
	"encoding/binary"
	"fmt"

	"github.com/zklock/zklock/model/tla"
)

// Merge is what a full memory does (the constant Merge).
type Merge string

// The two ways to make room.
const (
	// Oldest merges the two oldest entries into one with the older send
	// time and the newer arrival: the code before the fix.
	Oldest Merge = "oldest"
	// Thin keeps genuine acknowledgements on a grid of arrival times whose
	// grain doubles when the memory is full: the code.
	Thin Merge = "thin"
	// Newer is a mutant: the two oldest become one with the newer send
	// time and the older arrival, which proves too much (ProvesNoMore's
	// control).
	Newer Merge = "newer"
)

// Config holds LossClock's constants.
type Config struct {
	Lag, MaxAcks int
	Merge        Merge
}

// Check is the module's ASSUME.
func (c Config) Check() error {
	if c.Lag < 0 || c.MaxAcks < 2 || (c.Merge != Oldest && c.Merge != Thin && c.Merge != Newer) {
		return fmt.Errorf("lossclock: Lag = %d, MaxAcks = %d, Merge = %q: want Lag >= 0, MaxAcks >= 2, Merge %q, %q or %q",
			c.Lag, c.MaxAcks, c.Merge, Oldest, Thin, Newer)
	}
	return nil
}

// Entry is one acknowledgement kept: its request's send time and its
// arrival.
type Entry struct{ Sent, At int }

// Clock is the record [mem, proven, grain]. Mem is shared between
// clocks: never written in place.
type Clock struct {
	Mem    []Entry
	Proven int
	Grain  int
}

// Acked is the clock after the acknowledgement of a request sent at s
// arrived at a (the operator Acked).
func (c Config) Acked(k Clock, s, a int, sync bool) Clock {
	if sync {
		k = c.prove(k, s)
	}
	return c.keep(k, s, a)
}

// prove is the operator Prove: a sync sent at s proves what arrived at or
// before s - Lag.
func (c Config) prove(k Clock, s int) Clock {
	out := Clock{Grain: k.Grain}
	out.Proven, out.Mem = Proves(k.Mem, k.Proven, s-c.Lag)
	if len(out.Mem)*4 < c.MaxAcks {
		out.Grain = k.Grain / 2
	}
	return out
}

// Proves is what a sync proves from the acknowledgements m, by its send
// time less the lag: the newest send time of those that arrived at or
// before by (proven if none is newer), and the others, in order. Prove
// takes it, and SessionTimingLoad's unbounded ShadowAcked.
func Proves(m []Entry, proven, by int) (int, []Entry) {
	var rest []Entry
	for _, e := range m {
		if e.At <= by {
			proven = max(proven, e.Sent)
		} else {
			rest = append(rest, e)
		}
	}
	return proven, rest
}

// keep is the operator Keep.
func (c Config) keep(k Clock, s, a int) Clock {
	m, n := k.Mem, len(k.Mem)
	if s <= k.Proven || (n > 0 && a-m[n-1].At < k.Grain) {
		return k
	}
	next := Entry{Sent: s, At: a}
	switch {
	case n < c.MaxAcks:
		k.Mem = append(append(make([]Entry, 0, n+1), m...), next)
	case c.Merge == Oldest:
		mem := append(make([]Entry, 0, n), Entry{Sent: m[0].Sent, At: m[1].At})
		k.Mem = append(append(mem, m[2:]...), next)
	case c.Merge == Newer:
		mem := append(make([]Entry, 0, n), Entry{Sent: m[1].Sent, At: m[0].At})
		k.Mem = append(append(mem, m[2:]...), next)
	default:
		kept, g := c.thin(m, max(2*k.Grain, 2*(m[n-1].At-m[0].At)/c.MaxAcks, 1))
		k.Mem, k.Grain = append(kept, next), g
	}
	return k
}

// thin is the operator Thin: the entries kept on a grid of grain g, the
// grain doubled while the memory stays full.
func (c Config) thin(m []Entry, g int) ([]Entry, int) {
	for {
		kept := []Entry{m[0]}
		for _, e := range m[1:] {
			if e.At-kept[len(kept)-1].At >= g {
				kept = append(kept, e)
			}
		}
		if len(kept) < c.MaxAcks {
			return kept, g
		}
		m, g = kept, 2*g
	}
}

// AppendEncoding appends a canonical encoding of k to b.
func (k *Clock) AppendEncoding(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(k.Mem)))
	for _, e := range k.Mem {
		b = binary.AppendVarint(binary.AppendVarint(b, int64(e.Sent)), int64(e.At))
	}
	return binary.AppendVarint(binary.AppendVarint(b, int64(k.Proven)), int64(k.Grain))
}

// TLA is the clock as the record TLC prints.
func (k *Clock) TLA() tla.Value {
	mem := tla.Tuple{}
	for _, e := range k.Mem {
		mem = append(mem, tla.Record{{Name: "sent", Value: tla.Int(e.Sent)}, {Name: "at", Value: tla.Int(e.At)}})
	}
	return tla.Record{{Name: "mem", Value: mem}, {Name: "proven", Value: tla.Int(k.Proven)},
		{Name: "grain", Value: tla.Int(k.Grain)}}
}
