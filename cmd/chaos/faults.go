package main

import (
	"fmt"
	"sort"
	"strings"
)

// faultKind names one kind of fault a campaign can inject. The names are what
// --faults takes and what the report counts.
type faultKind string

const (
	faultSever           faultKind = "sever"
	faultBlackholeHolder faultKind = "blackhole-holder"
	faultBlackholeWaiter faultKind = "blackhole-waiter"
	faultCutCreate       faultKind = "cut-create"
	faultKillLeader      faultKind = "kill-leader"
	faultKillFollower    faultKind = "kill-follower"
	faultPauseServer     faultKind = "pause-server"
	faultFreezeClient    faultKind = "freeze-client"
	faultLatency         faultKind = "latency"
	faultIsolateLeader   faultKind = "isolate-leader"
	faultSplitMinority   faultKind = "split-minority"
	faultBridge          faultKind = "bridge"
	faultFlap            faultKind = "flap"
)

// Roles a fault's target is chosen by, at the moment of injection.
const (
	roleAny      = "client"   // any client
	roleHolder   = "holder"   // a client holding a lease (one with waiters behind it if any)
	roleWaiter   = "waiter"   // a client blocked in Lock
	roleLeader   = "leader"   // the ensemble's leader
	roleFollower = "follower" // a follower
	roleServers  = "servers"  // servers picked at random (a partition's sides)
)

// faultInfo describes a kind for --help, the schedule and the injector.
type faultInfo struct {
	kind   faultKind
	server bool // hits a server process: needs the local ensemble or --kill-cmd
	links  bool // cuts links between servers: needs the local ensemble
	help   string
}

// allFaults lists every kind in the order --help and the report show them.
var allFaults = []faultInfo{
	{faultSever, false, false, "close every connection of one client's session (it reconnects and keeps its session)"},
	{faultBlackholeHolder, false, false, "blackhole a lease holder's connections past the session timeout (its session expires)"},
	{faultBlackholeWaiter, false, false, "blackhole a client blocked in Lock past the session timeout"},
	{faultCutCreate, false, false, "let a client's next create reach the server, then cut the connection before the reply"},
	{faultKillLeader, true, false, "kill -9 the leader, then restart it and wait for a healthy ensemble"},
	{faultKillFollower, true, false, "kill -9 a follower, then restart it and wait for a healthy ensemble"},
	{faultPauseServer, true, false, "SIGSTOP the leader or a follower past syncLimit, then SIGCONT"},
	{faultFreezeClient, false, false, "freeze a lease holder's process past its session timeout (a GC pause), then let it go on"},
	{faultLatency, false, false, "add latency to every frame of one client's connections for a few seconds"},
	{faultIsolateLeader, false, true, "cut the leader off from every other server past the session timeout, then heal"},
	{faultSplitMinority, false, true, "cut a random minority of the servers off from the rest past the session timeout, then heal"},
	{faultBridge, false, true, "split the servers into two halves that share one server (Jepsen's bridge), then heal"},
	{faultFlap, false, true, "cut and heal the link between the leader and a follower every few hundred ms for a few seconds"},
}

func lookupFault(k faultKind) (faultInfo, bool) {
	for _, f := range allFaults {
		if f.kind == k {
			return f, true
		}
	}
	return faultInfo{}, false
}

// parseFaults turns the --faults list into kinds in canonical order: "all",
// "none", or a comma list of names.
func parseFaults(s string) ([]faultKind, error) {
	s = strings.TrimSpace(s)
	switch s {
	case "all":
		out := make([]faultKind, len(allFaults))
		for i, f := range allFaults {
			out[i] = f.kind
		}
		return out, nil
	case "none":
		return nil, nil
	case "":
		return nil, fmt.Errorf("--faults is empty (use \"none\" for a run without faults)")
	}
	seen := map[faultKind]bool{}
	for _, name := range strings.Split(s, ",") {
		k := faultKind(strings.TrimSpace(name))
		if _, ok := lookupFault(k); !ok {
			return nil, fmt.Errorf("unknown fault %q in --faults (known: %s)", name, faultNames())
		}
		seen[k] = true
	}
	var out []faultKind
	for _, f := range allFaults {
		if seen[f.kind] {
			out = append(out, f.kind)
		}
	}
	return out, nil
}

func faultNames() string {
	names := make([]string, len(allFaults))
	for i, f := range allFaults {
		names[i] = string(f.kind)
	}
	return strings.Join(names, ",")
}

// serverFaults returns the kinds in ks that hit server processes.
func serverFaults(ks []faultKind) []faultKind {
	var out []faultKind
	for _, k := range ks {
		if f, _ := lookupFault(k); f.server {
			out = append(out, k)
		}
	}
	return out
}

// linkFaults returns the kinds in ks that cut links between servers.
func linkFaults(ks []faultKind) []faultKind {
	var out []faultKind
	for _, k := range ks {
		if f, _ := lookupFault(k); f.links {
			out = append(out, k)
		}
	}
	return out
}

func joinKinds(ks []faultKind) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = string(k)
	}
	sort.Strings(s)
	return strings.Join(s, ",")
}
