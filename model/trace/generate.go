package trace

import (
	"fmt"
	"math/rand"
	"slices"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/walk"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/sharedlock"
	"github.com/zklock/zklock/traceevent"
)

// GenerateOptions say what kind of run Generate simulates.
type GenerateOptions struct {
	// Clients and Requests are the model's clients and requests per client.
	Clients, Requests int
	// Steps bounds the random walk.
	Steps int
	// Shared simulates RWMutex (SharedLock) instead of Mutex.
	Shared bool
	// Faults enables expiry, lost replies, cancellation and pauses, with
	// this budget of fault steps (0: none).
	Faults int
	// Jitter is how far (ns) an event's start and end may lie from the
	// instant its step took effect; steps are 1,000 ns apart, so a jitter
	// of several thousand makes events of different clients overlap.
	Jitter int64
	// Pending is the probability that a Release's end is unknown.
	Pending float64
}

// Generate takes a random walk of the model and projects it to the events
// the implementation would trace: one client per (model client, session)
// pair, named "<client>#<session>"; request uuids "u<client>-<request>";
// node names with the model's sequence number times 3 plus 7 (so that
// real and model numbers differ); tokens the model's czxid plus 1000. The
// unobservable steps (ExpireSession, IgnoreNotification, PauseClient,
// ResumeClient, Write) leave no event. The k-th step takes effect at
// 1000(k+1) ns; each event's start and end enclose that instant, and each
// client's events stay in order. Validate must accept every such trace.
func Generate(opt GenerateOptions, rng *rand.Rand) ([]Event, error) {
	if opt.Clients < 1 || opt.Requests < 1 || opt.Steps < 0 {
		return nil, fmt.Errorf("trace: generate: need clients and requests")
	}
	names := make([]string, opt.Clients)
	for c := range names {
		names[c] = fmt.Sprintf("c%d", c+1)
	}
	var steps []genStep
	var err error
	if opt.Shared {
		steps, err = walkShared(opt, names, rng)
	} else {
		steps, err = walkPred(opt, names, rng)
	}
	if err != nil {
		return nil, err
	}
	return timeEvents(steps, opt, rng), nil
}

// genStep is one projected event and the instant its step took effect.
type genStep struct {
	at    int64
	ev    Event
	zxid  int64 // ZooKeeper's zxid after the step: where it sits in the order of writes
	pzxid int64 // the zxid of the last change to the nodes
	wrote bool  // the step changed the nodes: zxid is its own
}

// zxClock numbers a walk's writes as ZooKeeper does: every change to the
// nodes or to the live sessions takes the next zxid (the model's own zxid
// counts creates only: it stands for czxids).
type zxClock struct{ zxid, pzxid int64 }

func (z *zxClock) tick(nodes, sessions bool) {
	if nodes || sessions {
		z.zxid++
	}
	if nodes {
		z.pzxid = z.zxid
	}
}

// weightsFor gives one walk random action weights (swarm testing).
func weightsFor(n int, rng *rand.Rand) []int { return walk.SwarmWeights(n, rng.Uint64()) }

func chooser[S any](weights []int, rng *rand.Rand) func([]walk.Successor[S]) int {
	return walk.Weighted[S](weights, func(n int) int { return rng.Intn(n) })
}

func genUuid(c, r int) string { return fmt.Sprintf("u%d-%d", c+1, r) }
func realSeqOf(seq int) int64 { return int64(seq)*3 + 7 }

func walkPred(opt GenerateOptions, names []string, rng *rand.Rand) ([]genStep, error) {
	f := opt.Faults > 0
	sp, err := predlock.New(predlock.Constants{Constants: recipe.Constants{Clients: names, MaxRequests: opt.Requests,
		MaxSeq: predlock.Unbounded, MaxFaults: opt.Faults, WithExpiry: f, WithReplyLoss: f, WithPause: f, WithCancel: f},
		Fencing: true}, predlock.Base)
	if err != nil {
		return nil, err
	}
	node := func(s *predlock.State, seq int) string {
		n, _ := s.NodeAt(seq)
		return NodeName(genUuid(n.Uuid.C, n.Uuid.R), "exclusive", realSeqOf(seq))
	}
	children := func(s *predlock.State) []string {
		var out []string
		for _, n := range s.Nodes {
			out = append(out, node(s, n.Seq))
		}
		return out
	}
	var steps []genStep
	var zx zxClock
	k := int64(0)
	// The name of every node created so far, by seq: an event names the
	// node whose watch fired, which is gone by then.
	nodeNames := map[int]string{}
	walk.Walk(sp.Next, sp.Init(), opt.Steps, chooser[predlock.State](weightsFor(len(predlock.ActionNames), rng), rng),
		func(from *predlock.State, l model.Label, to *predlock.State) bool {
			k++
			for _, n := range to.Nodes {
				if _, ok := nodeNames[n.Seq]; !ok {
					nodeNames[n.Seq] = node(to, n.Seq)
				}
			}
			wrote := !slices.Equal(from.Nodes, to.Nodes)
			zx.tick(wrote, !slices.Equal(from.Live, to.Live))
			c := int(l.Client)
			ev := Event{Client: fmt.Sprintf("%s#%d", names[c], from.Sess[c]), Lock: "/gen", Kind: "exclusive",
				Action: predlock.ActionNames[l.Action], Request: genUuid(c, from.ReqNo[c])}
			switch l.Action {
			case recipe.ActRequestLock:
				ev.Request = genUuid(c, to.ReqNo[c])
			case recipe.ActCreateOk:
				ev.Node = node(to, to.Node[c])
			case recipe.ActCreateReplyLost, recipe.ActCancel:
			case recipe.ActPredecessorGone, recipe.ActGrantOnHeadGone:
				ev.Target = nodeNames[from.NextEvent(c).Node.Seq]
			case recipe.ActFindOwnNode:
				if to.PC[c] == recipe.PCList {
					ev.Result, ev.Target, ev.Node = traceevent.ResultFound, node(to, to.Node[c]), node(to, to.Node[c])
				} else {
					ev.Result = traceevent.ResultAbsent
				}
			case recipe.ActListChildren:
				ev.Node, ev.Children = node(from, from.Node[c]), children(from)
				if to.PC[c] == recipe.PCGrant {
					ev.Result = traceevent.ResultGrant
				} else {
					ev.Result, ev.Target = traceevent.ResultWait, node(from, to.Target[c].Seq)
				}
			case predlock.ActWatchSecond:
				ev.Node, ev.Target = node(from, from.Node[c]), nodeNames[from.Second[c]]
				ev.Result = traceevent.ResultGone
				if _, ok := from.NodeAt(from.Second[c]); ok {
					ev.Result = traceevent.ResultExists
				}
			case recipe.ActWatchPredecessor:
				ev.Node = node(from, from.Node[c])
				ev.Target = lastWaitTarget(steps, ev.Client)
				ev.Result = traceevent.ResultExists
				if to.PC[c] == recipe.PCList {
					ev.Result = traceevent.ResultGone
				}
			case recipe.ActGrant:
				ev.Node, ev.Token = node(from, from.Node[c]), int64(to.Token[c])+1000
			case recipe.ActRelease:
				ev.Node = node(from, from.Node[c])
			case recipe.ActLearnExpiry:
				ev.Request, ev.Kind, ev.Result = "", "", traceevent.ResultExpired
				if from.LiveC(c) {
					ev.Result = traceevent.ResultTimer
				}
			default: // ExpireSession, IgnoreNotification, PauseClient, ResumeClient, Write
				return true
			}
			steps = append(steps, genStep{at: 1000 * k, ev: ev, zxid: zx.zxid, pzxid: zx.pzxid, wrote: wrote})
			return true
		})
	return steps, nil
}

// lastWaitTarget returns the target of a client's last ListChildren
// "wait": the node it watches.
func lastWaitTarget(steps []genStep, client string) string {
	for i := len(steps) - 1; i >= 0; i-- {
		if e := steps[i].ev; e.Client == client && e.Action == traceevent.ListChildren && e.Result == traceevent.ResultWait {
			return e.Target
		}
	}
	return ""
}

func walkShared(opt GenerateOptions, names []string, rng *rand.Rand) ([]genStep, error) {
	f := opt.Faults > 0
	sp, err := sharedlock.New(sharedlock.Constants{Constants: recipe.Constants{Clients: names, MaxRequests: opt.Requests,
		MaxSeq: sharedlock.Unbounded, MaxFaults: opt.Faults, WithExpiry: f, WithReplyLoss: f, WithPause: f, WithCancel: f},
		WithDowngrade: true}, sharedlock.Base)
	if err != nil {
		return nil, err
	}
	node := func(s *sharedlock.State, seq int) string {
		n, _ := s.NodeAt(seq)
		return NodeName(genUuid(n.Uuid.C, n.Uuid.R), n.Kind.String(), realSeqOf(seq))
	}
	children := func(s *sharedlock.State) []string {
		var out []string
		for _, n := range s.Nodes {
			out = append(out, node(s, n.Seq))
		}
		return out
	}
	var steps []genStep
	var zx zxClock
	k := int64(0)
	// DowngradeReplyLost is left out of the walks: impl/zklock traces no
	// event when a Downgrade's outcome stays unknown (its test,
	// TestDowngradeOutcomeUnknown, skips the trace check), so a trace
	// holding one cannot say how the write node became a read node.
	next := func(s *sharedlock.State, emit func(model.Label, *sharedlock.State)) {
		sp.Next(s, func(l model.Label, t *sharedlock.State) {
			if l.Action != sharedlock.ActDowngradeReplyLost {
				emit(l, t)
			}
		})
	}
	walk.Walk(next, sp.Init(), opt.Steps, chooser[sharedlock.State](weightsFor(len(sharedlock.ActionNames), rng), rng),
		func(from *sharedlock.State, l model.Label, to *sharedlock.State) bool {
			k++
			wrote := !slices.Equal(from.Nodes, to.Nodes)
			zx.tick(wrote, !slices.Equal(from.Live, to.Live))
			c := int(l.Client)
			ev := Event{Client: fmt.Sprintf("%s#%d", names[c], from.Sess[c]), Lock: "/gen", Kind: from.Kind[c].String(),
				Action: sharedlock.ActionNames[l.Action], Request: genUuid(c, from.ReqNo[c])}
			switch l.Action {
			case recipe.ActRequestLock:
				ev.Request, ev.Kind = genUuid(c, to.ReqNo[c]), to.Kind[c].String()
			case recipe.ActCreateOk:
				ev.Node = node(to, to.Node[c])
			case recipe.ActCreateReplyLost, recipe.ActPredecessorGone, recipe.ActGrantOnHeadGone, recipe.ActCancel:
			case recipe.ActFindOwnNode:
				if to.PC[c] == recipe.PCList {
					ev.Result, ev.Target, ev.Node = traceevent.ResultFound, node(to, to.Node[c]), node(to, to.Node[c])
				} else {
					ev.Result = traceevent.ResultAbsent
				}
			case recipe.ActListChildren:
				ev.Node, ev.Children = node(from, from.Node[c]), children(from)
				if to.PC[c] == recipe.PCGrant {
					ev.Result = traceevent.ResultGrant
				} else {
					ev.Result, ev.Target = traceevent.ResultWait, node(from, to.Target[c].Seq)
				}
			case recipe.ActWatchPredecessor:
				ev.Node = node(from, from.Node[c])
				ev.Target = lastWaitTarget(steps, ev.Client)
				ev.Result = traceevent.ResultExists
				if to.PC[c] == recipe.PCList {
					ev.Result = traceevent.ResultGone
				}
			case recipe.ActGrant:
				ev.Node, ev.Token = node(from, from.Node[c]), int64(to.Token[c])+1000
			case sharedlock.ActDowngrade:
				ev.Node, ev.Kind = node(to, to.Node[c]), "read"
			case recipe.ActRelease:
				ev.Node = node(from, from.Node[c])
			case recipe.ActLearnExpiry:
				ev.Request, ev.Kind, ev.Result = "", "", traceevent.ResultExpired
				if from.LiveC(c) {
					ev.Result = traceevent.ResultTimer
				}
			default:
				return true
			}
			steps = append(steps, genStep{at: 1000 * k, ev: ev, zxid: zx.zxid, pzxid: zx.pzxid, wrote: wrote})
			return true
		})
	return steps, nil
}

// zxidBounded are the steps that are ZooKeeper calls, whose replies carry
// a zxid (a lost reply carries none).
var zxidBounded = map[traceevent.Action]bool{
	traceevent.CreateOk: true, traceevent.FindOwnNode: true, traceevent.ListChildren: true, traceevent.WatchPredecessor: true,
	traceevent.WatchSecond: true, traceevent.Release: true, traceevent.Cancel: true, traceevent.Downgrade: true,
}

// timeEvents gives every event a start and an end around the instant its
// step took effect, keeping each client's events in order and apart.
func timeEvents(steps []genStep, opt GenerateOptions, rng *rand.Rand) []Event {
	jitter := func(room int64) int64 {
		if room > opt.Jitter {
			room = opt.Jitter
		}
		if room <= 0 {
			return 0
		}
		return rng.Int63n(room + 1)
	}
	prevEnd := map[string]int64{}
	seen := map[string]int64{} // the highest zxid each client has seen
	out := make([]Event, len(steps))
	for i, st := range steps {
		ev := st.ev
		if zxidBounded[ev.Action] {
			// As a session would (offset so that none is 0, "unknown"): a
			// write's own zxid or a listing's pzxid, mostly; else the
			// highest zxid seen before the request, and the one after.
			switch exact := rng.Float64() < 0.8; {
			case exact && st.wrote && orderedByTime[ev.Action]:
				ev.Zxid = st.zxid + 1000
			case exact && ev.Action == traceevent.ListChildren:
				ev.Zxid = st.pzxid + 1000
			default:
				ev.ZxidLow, ev.ZxidHigh = seen[ev.Client]+1000, st.zxid+1000
			}
			seen[ev.Client] = st.zxid
		}
		next := int64(-1) // when the client's next step takes effect
		for j := i + 1; j < len(steps); j++ {
			if steps[j].ev.Client == ev.Client {
				next = steps[j].at
				break
			}
		}
		low, seen := prevEnd[ev.Client]
		if !seen {
			low = 0
		}
		ev.Start = st.at - jitter(st.at-low-1)
		var end int64
		if next >= 0 {
			end = st.at + jitter((next-st.at)/2)
		} else {
			end = st.at + jitter(opt.Jitter)
		}
		prevEnd[ev.Client] = end
		if ev.Action == traceevent.Release && rng.Float64() < opt.Pending {
			ev.End, ev.Zxid, ev.ZxidHigh = nil, 0, 0
		} else {
			e := end
			ev.End = &e
		}
		out[i] = ev
	}
	return out
}
