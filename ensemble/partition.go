package ensemble

import (
	"fmt"
	"sort"
	"time"
)

// Partitions. A cut link behaves like a network that drops every packet
// between two servers, in both directions and on both peer ports:
// connections already open stop carrying bytes (what is sent meanwhile is
// held, not lost, and arrives after the heal, unless the connection was
// closed); a side that closes its end is closed only on its side until the
// heal, when the other side sees the close; new connections across the cut
// are accepted by this process's proxy but go nowhere until the heal.
// Clients are not affected: their connections to a server's client port do
// not go through these proxies.
//
// Links exist only in an ensemble of two or more servers started without
// Detached: the proxies live in the process that started the ensemble and
// cannot outlive it, so a detached ensemble lists its peers at their real
// ports and its partition methods return ErrNoLinks.

// CutLink cuts the link between servers i and j (both directions). Cutting
// a cut link does nothing.
func (e *Ensemble) CutLink(i, j int) error { return e.setLink(i, j, true) }

// HealLink heals the link between servers i and j. Healing a link that is
// not cut does nothing.
func (e *Ensemble) HealLink(i, j int) error { return e.setLink(i, j, false) }

func (e *Ensemble) setLink(i, j int, cut bool) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.checkLinkLocked(i, j); err != nil {
		return err
	}
	e.links.gate(i, j).set(cut)
	return nil
}

func (e *Ensemble) checkLinkLocked(i, j int) error {
	if e.stopped {
		return ErrStopped
	}
	if e.links == nil {
		return ErrNoLinks
	}
	n := len(e.servers)
	for _, k := range []int{i, j} {
		if k < 0 || k >= n {
			return fmt.Errorf("%w: %d not in [0, %d)", ErrBadIndex, k, n)
		}
	}
	if i == j {
		return fmt.Errorf("%w: a link joins two different servers, not %d and itself", ErrBadIndex, i)
	}
	return nil
}

// Partition sets every link at once: the link between two servers stays up
// if some group holds both of them, and is cut otherwise. Groups may
// overlap (Partition([]int{0, 1}, []int{1, 2}) is Jepsen's bridge: 0 and 2
// are cut from each other, 1 talks to both); a server in no group is cut
// off from every other. Links cut before are healed if a group now joins
// their ends.
func (e *Ensemble) Partition(groups ...[]int) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.checkLinkLocked(0, 1); err != nil {
		return err
	}
	n := len(e.servers)
	joined := map[[2]int]bool{}
	for _, g := range groups {
		for _, i := range g {
			if i < 0 || i >= n {
				return fmt.Errorf("%w: %d not in [0, %d) in partition %v", ErrBadIndex, i, n, groups)
			}
			for _, j := range g {
				joined[[2]int{i, j}] = true
			}
		}
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			e.links.gate(i, j).set(!joined[[2]int{i, j}])
		}
	}
	return nil
}

// Isolate cuts server i off from every other server and heals every other
// link.
func (e *Ensemble) Isolate(i int) error {
	var rest []int
	for k := 0; k < len(e.servers); k++ {
		if k != i {
			rest = append(rest, k)
		}
	}
	if i < 0 || i >= len(e.servers) {
		return fmt.Errorf("%w: %d not in [0, %d)", ErrBadIndex, i, len(e.servers))
	}
	return e.Partition([]int{i}, rest)
}

// HealAll heals every link.
func (e *Ensemble) HealAll() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.stopped {
		return ErrStopped
	}
	if e.links == nil {
		return ErrNoLinks
	}
	e.healLinksLocked()
	return nil
}

func (e *Ensemble) healLinksLocked() {
	if e.links == nil {
		return
	}
	for _, g := range e.links.gates {
		g.set(false)
	}
}

// Link is a pair of server indices, the lower first.
type Link [2]int

// CutLinks returns the links that are cut now, sorted; nil if none is (or
// the ensemble has no links).
func (e *Ensemble) CutLinks() []Link {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.links == nil {
		return nil
	}
	var out []Link
	for k, g := range e.links.gates {
		if g.isCut() {
			out = append(out, Link{k[0], k[1]})
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a][0] != out[b][0] {
			return out[a][0] < out[b][0]
		}
		return out[a][1] < out[b][1]
	})
	return out
}

// HasLinks reports whether the ensemble's server-to-server links can be cut
// (see Partition for when they cannot).
func (e *Ensemble) HasLinks() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.links != nil && !e.stopped
}

// TickTime returns the servers' tickTime.
func (e *Ensemble) TickTime() time.Duration { return e.cfg.TickTime }

// SyncLimit returns the servers' syncLimit, in ticks: how long a follower
// may fall behind the leader (and the leader go unheard by a follower)
// before one drops the other. A follower cut off from the leader keeps
// serving clients for up to SyncLimit x TickTime.
func (e *Ensemble) SyncLimit() int { return e.cfg.SyncLimit }
