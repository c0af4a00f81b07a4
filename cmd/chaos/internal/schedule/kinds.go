package schedule

import (
	"fmt"
	"sort"
	"strings"
)

// Kind names one kind of fault a campaign can inject. The names are what
// --faults takes and what the report counts.
type Kind string

// The kinds of fault, in the order All lists them.
const (
	Sever           Kind = "sever"
	BlackholeHolder Kind = "blackhole-holder"
	BlackholeWaiter Kind = "blackhole-waiter"
	CutCreate       Kind = "cut-create"
	KillLeader      Kind = "kill-leader"
	KillFollower    Kind = "kill-follower"
	PauseServer     Kind = "pause-server"
	FreezeClient    Kind = "freeze-client"
	Latency         Kind = "latency"
	IsolateLeader   Kind = "isolate-leader"
	SplitMinority   Kind = "split-minority"
	IsolateHolder   Kind = "isolate-holder"
	Bridge          Kind = "bridge"
	Flap            Kind = "flap"
	Intruder        Kind = "intruder"
)

// Roles a fault's target is chosen by, at the moment of injection.
const (
	RoleAny      = "client"   // any client
	RoleHolder   = "holder"   // a client holding a lease (one with waiters behind it if any)
	RoleWaiter   = "waiter"   // a client blocked in Lock
	RoleLeader   = "leader"   // the ensemble's leader
	RoleFollower = "follower" // a follower
	RoleServers  = "servers"  // servers picked at random (a partition's sides)
)

// Info describes a kind for --help, the schedule and the injector.
type Info struct {
	Kind   Kind
	Server bool // hits a server process: needs the local ensemble or --kill-cmd
	Links  bool // cuts links between servers: needs the local ensemble
	Help   string
}

// All lists every kind in the order --help and the report show them.
var All = []Info{
	{Sever, false, false, "close every connection of one client's session (it reconnects and keeps its session)"},
	{BlackholeHolder, false, false, "blackhole a lease holder's connections past the session timeout (its session expires)"},
	{BlackholeWaiter, false, false, "blackhole a client blocked in Lock past the session timeout"},
	{CutCreate, false, false, "let a client's next create reach the server, then cut the connection before the reply"},
	{KillLeader, true, false, "kill -9 the leader, then restart it and wait for a healthy ensemble"},
	{KillFollower, true, false, "kill -9 a follower, then restart it and wait for a healthy ensemble"},
	{PauseServer, true, false, "SIGSTOP the leader or a follower past syncLimit, then SIGCONT"},
	{FreezeClient, false, false, "freeze a lease holder's process past its session timeout (a GC pause), then let it go on"},
	{Latency, false, false, "add latency to every frame of one client's connections for a few seconds"},
	{IsolateLeader, false, true, "cut the leader off from every other server past the session timeout, then heal"},
	{SplitMinority, false, true, "cut a random minority of the servers off from the rest past the session timeout, then heal"},
	{IsolateHolder, false, true, "cut the server a lease holder is connected to off from the rest past the session timeout, then heal"},
	{Bridge, false, true, "split the servers into two halves that share one server (Jepsen's bridge), then heal"},
	{Flap, false, true, "cut and heal the link between the leader and a follower every few hundred ms for a few seconds"},
	{Intruder, false, false, "a foreign session (no or wrong credentials) tries to overwrite, queue ahead of, delete a holder's node and delete its lock path"},
	operatorKinds[0], operatorKinds[1],
}

// Lookup returns the description of kind k, and false for an unknown kind.
func Lookup(k Kind) (Info, bool) {
	for _, f := range append(All[:len(All):len(All)], OptIn...) {
		if f.Kind == k {
			return f, true
		}
	}
	return Info{}, false
}

// ParseKinds turns the --faults list into kinds in canonical order: "all",
// "none", or a comma list of names.
func ParseKinds(s string) ([]Kind, error) {
	s = strings.TrimSpace(s)
	switch s {
	case "all":
		out := make([]Kind, len(All))
		for i, f := range All {
			out[i] = f.Kind
		}
		return out, nil
	case "none":
		return nil, nil
	case "":
		return nil, fmt.Errorf("--faults is empty (use \"none\" for a run without faults)")
	}
	seen := map[Kind]bool{}
	for _, name := range strings.Split(s, ",") {
		k := Kind(strings.TrimSpace(name))
		if _, ok := Lookup(k); !ok {
			return nil, fmt.Errorf("unknown fault %q in --faults (known: %s,%s)", name, names(), optInNames())
		}
		seen[k] = true
	}
	var out []Kind
	for _, f := range append(All[:len(All):len(All)], OptIn...) {
		if seen[f.Kind] {
			out = append(out, f.Kind)
		}
	}
	return out, nil
}

func names() string {
	names := make([]string, len(All))
	for i, f := range All {
		names[i] = string(f.Kind)
	}
	return strings.Join(names, ",")
}

// ServerKinds returns the kinds in ks that hit server processes.
func ServerKinds(ks []Kind) []Kind { return kindsWhere(ks, func(f Info) bool { return f.Server }) }

// LinkKinds returns the kinds in ks that cut links between servers.
func LinkKinds(ks []Kind) []Kind { return kindsWhere(ks, func(f Info) bool { return f.Links }) }

// kindsWhere returns the kinds in ks whose fault has the property has.
func kindsWhere(ks []Kind, has func(Info) bool) []Kind {
	var out []Kind
	for _, k := range ks {
		if f, _ := Lookup(k); has(f) {
			out = append(out, k)
		}
	}
	return out
}

// JoinKinds lists ks sorted by name, separated by commas.
func JoinKinds(ks []Kind) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = string(k)
	}
	sort.Strings(s)
	return strings.Join(s, ",")
}

// KindsArg is ks as --faults takes it: "none", "all", or the sorted names.
func KindsArg(ks []Kind) string {
	if len(ks) == 0 {
		return "none"
	}
	if len(ks) == len(All) {
		return "all"
	}
	return JoinKinds(ks)
}
