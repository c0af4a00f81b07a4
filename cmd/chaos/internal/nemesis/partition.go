package nemesis

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/zklock/zklock/cmd/chaos/internal/schedule"
	"github.com/zklock/zklock/cmd/chaos/internal/workload"
)

// linkPlan is what a link fault will do: the groups of servers that stay
// joined (every link between servers no group holds together is cut), or,
// for flap, the one link that is cut and healed over and over.
type linkPlan struct {
	groups [][]int
	link   [2]int // flap only
	target string // for the report: "zk1|zk2,zk3", "zk1-zk2"
	holder string // isolate-holder only: the holder whose server is cut off
}

// planLinks picks a link fault's servers. The leader is looked up now (it
// may have changed since the schedule was drawn); everything else random
// comes from the schedule's Pick.
func (in *Injector) planLinks(ctx context.Context, f schedule.Fault) (linkPlan, error) {
	n := len(in.clu.Addrs())
	if n < 3 {
		return linkPlan{}, fmt.Errorf("%s needs at least 3 servers, have %d", f.Kind, n)
	}
	leader, followers, err := in.roles(ctx)
	if err != nil {
		return linkPlan{}, fmt.Errorf("no leader found: %v", err)
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	var p linkPlan
	switch f.Kind {
	case schedule.IsolateLeader:
		p.groups = [][]int{{leader}, without(all, leader)}
	case schedule.IsolateHolder:
		s, who, err := in.holderServer(ctx, f)
		if err != nil {
			return linkPlan{}, err
		}
		p.groups = [][]int{{s}, without(all, s)}
		p.holder = who
	case schedule.SplitMinority:
		// A minority of 1 to (n-1)/2 servers, consecutive from a random
		// start: the leader is in it or not, as it happens.
		m := 1 + int(f.Pick%uint32((n-1)/2))
		start := int(f.Pick/7) % n
		var minority []int
		for k := 0; k < m; k++ {
			minority = append(minority, (start+k)%n)
		}
		slices.Sort(minority)
		rest := slices.DeleteFunc(slices.Clone(all), func(i int) bool { return slices.Contains(minority, i) })
		p.groups = [][]int{minority, rest}
	case schedule.Bridge:
		// The bridge belongs to both halves: each half plus the bridge is a
		// majority, and no two servers of different halves can talk.
		b := int(f.Pick % uint32(n))
		rest := without(all, b)
		half := len(rest) / 2
		a, c := append(slices.Clone(rest[:half]), b), append(slices.Clone(rest[half:]), b)
		slices.Sort(a)
		slices.Sort(c)
		p.groups = [][]int{a, c}
	case schedule.Flap:
		p.link = [2]int{leader, followers[int(f.Pick%uint32(len(followers)))]}
		p.target = serverName(p.link[0]) + "-" + serverName(p.link[1])
		return p, nil
	}
	var sides []string
	for _, g := range p.groups {
		names := make([]string, len(g))
		for i, s := range g {
			names[i] = serverName(s)
		}
		sides = append(sides, strings.Join(names, ","))
	}
	p.target = strings.Join(sides, "|")
	if p.holder != "" {
		p.target += " (" + p.holder + "'s server)"
	}
	return p, nil
}

// holderServer picks a holder (one with a waiter behind it if any) and
// finds the server its session is connected to: the one proxy of its set
// with an open connection. It prefers a holder on a follower: cut off from
// the leader, a follower goes on answering the holder's pings for up to
// syncLimit ticks while the leader expires the session and grants the lock
// to the next waiter (the case zklock's loss rule exists for). A cut-off
// leader is replaced, and the new leader gives every session a fresh
// timeout, so its holders rarely meet that case; one is taken only when no
// holder on a follower shows up within candidateWait.
func (in *Injector) holderServer(ctx context.Context, f schedule.Fault) (int, string, error) {
	leader, _, err := in.roles(ctx)
	if err != nil {
		return -1, "", fmt.Errorf("no leader found: %v", err)
	}
	deadline := time.Now().Add(candidateWait)
	for {
		type held struct {
			c      *workload.Client
			server int
		}
		var onFollower, onLeader []held
		for _, c := range in.candidates(f) {
			var on []int
			for i := 0; i < c.Set().Len(); i++ {
				if c.Set().Proxy(i).Conns() > 0 {
					on = append(on, i)
				}
			}
			switch {
			case len(on) != 1: // between two connections: look again later
			case on[0] == leader:
				onLeader = append(onLeader, held{c, on[0]})
			default:
				onFollower = append(onFollower, held{c, on[0]})
			}
		}
		late := time.Now().After(deadline)
		pick := onFollower
		if len(pick) == 0 && late {
			pick = onLeader
		}
		if len(pick) > 0 {
			h := pick[int(f.Pick%uint32(len(pick)))]
			return h.server, h.c.Name(), nil
		}
		if late || !Sleep(ctx, 20*time.Millisecond) {
			return -1, "", fmt.Errorf("no %s with a known server within %v", f.Role, candidateWait)
		}
	}
}

func without(s []int, x int) []int {
	return slices.DeleteFunc(slices.Clone(s), func(i int) bool { return i == x })
}

// linkFault carries out a planned link fault for f.Duration, heals every
// link and waits for a healthy ensemble. Clients are left where they are:
// a client of a cut-off server sees what a real one would.
func (in *Injector) linkFault(ctx context.Context, f schedule.Fault, p linkPlan) (string, error) {
	detail := ""
	var err error
	if f.Kind == schedule.Flap {
		detail, err = in.flap(ctx, f, p.link)
	} else if err = in.clu.Partition(p.groups...); err == nil {
		Sleep(ctx, f.Duration)
	}
	if herr := in.clu.HealLinks(ctx); err == nil {
		err = herr
	}
	return detail, err
}

// flap cuts and heals one link, f.Delay each, until f.Duration has passed.
func (in *Injector) flap(ctx context.Context, f schedule.Fault, l [2]int) (string, error) {
	end := time.Now().Add(f.Duration)
	cuts := 0
	for time.Now().Before(end) && ctx.Err() == nil {
		if err := in.clu.CutLink(l[0], l[1]); err != nil {
			return "", err
		}
		cuts++
		Sleep(ctx, f.Delay)
		if err := in.clu.HealLink(l[0], l[1]); err != nil {
			return "", err
		}
		Sleep(ctx, min(f.Delay, time.Until(end)))
	}
	return fmt.Sprintf("%d cuts of %v", cuts, f.Delay), nil
}
