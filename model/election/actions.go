package election

import (
	"slices"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/zk"
)

// Proclaim: the leader writes a new value to its own node, setData in one
// multi with check(own node) on its session (ZooKeeper.multi, Op.check:
// all or nothing). The check fails when the node is gone and nothing is
// written: no step. One transaction, one zxid; every data watch on the
// node fires: the observers' (Fired) and the candidates', which leave the
// watches for DataEvents. Spec: Election!Proclaim.
func (sp *Spec) Proclaim(s *State, c int, t *State) model.Guard {
	if g := s.Ready(c, recipe.PCHold); g != model.Enabled {
		return g
	}
	if !s.OwnNodeExists(c) {
		return `OwnNodeExists(c)`
	}
	seq := s.Node[c]
	v := s.Value[seq]
	if v >= sp.MaxProclaims {
		return `ValueOf(node[c]) < MaxProclaims`
	}
	*t = *s
	on := func(w Event) bool { return w.Node.Seq == seq }
	for _, w := range s.Watches {
		if on(w) {
			t.DataEvents = cow.Insert(t.DataEvents, w, eventLess)
		}
	}
	if len(t.DataEvents) != len(s.DataEvents) {
		t.Watches = cow.Filter(s.Watches, func(w Event) bool { return !on(w) })
	}
	t.Value = cow.With(s.Value, seq, v+1)
	t.Zxid = s.Zxid + 1
	t.Proclaimed = cow.Insert(s.Proclaimed, Report{Epoch: s.Token[c], Version: v + 1}, reportLess)
	return model.Enabled
}

// nextDataEvent is NextDataEvent(c): the index in DataEvents of the event
// of c's current request with the smallest node, -1 if none.
func (s *State) nextDataEvent(c int) int {
	u := s.UuidOf(c)
	for i, e := range s.DataEvents { // sorted by node first
		if e.Req == u {
			return i
		}
	}
	return -1
}

// woken is Woken(c): candidate c, waiting, takes its next NodeDataChanged
// event and forgets its target and second; the caller sets its pc. It
// returns the event's index.
func (s *State) woken(c int, t *State) (int, model.Guard) {
	if s.Paused[c] {
		return 0, recipe.GNotPaused
	}
	if s.PC[c] != recipe.PCWait {
		return 0, `pc[c] = "wait"`
	}
	i := s.nextDataEvent(c)
	if i < 0 {
		return 0, `DataEventFor(c) # {}`
	}
	*t = *s
	t.DataEvents = cow.Filter(s.DataEvents, func(e Event) bool { return e != s.DataEvents[i] })
	t.Target = cow.With(s.Target, c, recipe.NoTarget[zk.NoKind]())
	t.SetSecond(c, zk.NoNode)
	t.SetSoleBlocker(c, false)
	return i, model.Enabled
}

// DataChanged: a NodeDataChanged event of c's current request while it
// waits wakes it to list again (impl/zklock's PredecessorGone). Spec:
// Election!DataChanged.
func (sp *Spec) DataChanged(s *State, c int, t *State) model.Guard {
	_, g := s.woken(c, t)
	if g == model.Enabled {
		t.PC = cow.With(s.PC, c, recipe.PCList)
	}
	return g
}

// HandOffOnDataChange (mutant, HandOffSpec): DataChanged that takes an
// event of the sole blocker it waits for as that node's deletion: the
// grant. Spec: Election!HandOffOnDataChange.
func (sp *Spec) HandOffOnDataChange(s *State, c int, t *State) model.Guard {
	i, g := s.woken(c, t)
	if g == model.Enabled {
		pc := recipe.PCList
		if s.DataEvents[i].Node == s.Target[c] && s.SoleBlocker[c] {
			pc = recipe.PCGrant
		}
		t.PC = cow.With(s.PC, c, pc)
	}
	return g
}

// stale reports whether e is one of StaleDataEvents(c): an event of c
// for a request it no longer waits on.
func (s *State) stale(c int, e Event) bool {
	return e.Req.C == c && !(e.Req == s.UuidOf(c) && s.PC[c] == recipe.PCWait)
}

// IgnoreDataChange: c drops every NodeDataChanged event of a request it
// no longer waits on. Spec: Election!IgnoreDataChange.
func (sp *Spec) IgnoreDataChange(s *State, c int, t *State) model.Guard {
	if s.Paused[c] {
		return recipe.GNotPaused
	}
	if !slices.ContainsFunc(s.DataEvents, func(e Event) bool { return s.stale(c, e) }) {
		return `StaleDataEvents(c) # {}`
	}
	*t = *s
	t.DataEvents = cow.Filter(s.DataEvents, func(e Event) bool { return !s.stale(c, e) })
	return model.Enabled
}

// ResignKeepNode (mutant, KeepSpec): Resign that leaves its node: the
// leader goes idle and sends no delete. Spec: Election!ResignKeepNode.
func (sp *Spec) ResignKeepNode(s *State, c int, t *State) model.Guard {
	if g := s.Ready(c, recipe.PCHold); g != model.Enabled {
		return g
	}
	*t = *s
	t.State.State.Idle(c)
	t.Tenure = cow.With(s.Tenure, c, 0)
	return model.Enabled
}

// reading is Reading(n): the head's epoch (czxid) and its value's
// version, 0 before its first Proclaim.
func (s *State) reading(n zk.Node[zk.NoKind]) Report {
	return Report{Epoch: n.Czxid, Version: s.Value[n.Seq]}
}

// Truth is who leads, as a read of the leader's server now would report
// it (spec: Truth).
func (sp *Spec) Truth(s *State) Report {
	if len(s.Nodes) == 0 {
		return Vacancy
	}
	return s.reading(s.Nodes[0])
}

// ObserveList: getChildren(<election>) without a watch. Candidates queued:
// the head is read next (with HeadBySeq false, the mutant, the listed node
// of seq h, the label's Arg). None: report the vacancy and arm a child
// watch (with WatchVacancy; the mutant arms none). Spec:
// Election!ObserveList.
func (sp *Spec) ObserveList(s *State, o, h int, t *State) model.Guard {
	if s.OPC[o] != OList {
		return `opc[o] = "list"`
	}
	*t = *s
	if len(s.Nodes) == 0 {
		mark := NoWatch
		if sp.WatchVacancy {
			mark = s.NextSeq
		}
		t.OPC = cow.With(s.OPC, o, OVacant)
		t.OMark = cow.With(s.OMark, o, mark)
		t.Report = cow.With(s.Report, o, Vacancy)
		return model.Enabled
	}
	head := s.Nodes[0].Seq // nodes are sorted by seq
	if !sp.HeadBySeq {
		if _, ok := s.NodeAt(h); !ok {
			return `h \in {n.seq : n \in nodes}`
		}
		head = h
	}
	t.OPC = cow.With(s.OPC, o, OWatch)
	t.OHead = cow.With(s.OHead, o, head)
	t.ONext = cow.With(s.ONext, o, s.seqsAfter(head))
	return model.Enabled
}

// seqsAfter are the seqs of the nodes after seq h, ascending (nodes are
// sorted by seq): an observer's successors (spec: {n.seq : n \in {m \in
// nodes : m.seq > h}}).
func (s *State) seqsAfter(h int) []int {
	var after []int
	for _, n := range s.Nodes {
		if n.Seq > h {
			after = append(after, n.Seq)
		}
	}
	return after
}

// ObserveWatch: getData(<head>, watch=true), read and watch in one server
// step. The node exists: the data watch is armed and the observer reports
// what it read if newer than the last head it reported (with ReportFilter;
// the mutant reports every read; a report equal to the last changes
// nothing). NoNode: list again. Spec: Election!ObserveWatch.
func (sp *Spec) ObserveWatch(s *State, o int, t *State) model.Guard {
	if s.OPC[o] != OWatch {
		return `opc[o] = "watch"`
	}
	*t = *s
	n, ok := s.NodeAt(s.OHead[o])
	if !ok {
		t.OPC = cow.With(s.OPC, o, OList)
		t.OHead = cow.With(s.OHead, o, zk.NoNode)
		t.ONext = cow.With(s.ONext, o, nil)
		t.ORefresh = cow.With(s.ORefresh, o, false)
		return model.Enabled
	}
	r := s.reading(n)
	t.OPC = cow.With(s.OPC, o, OWatching)
	t.OMark = cow.With(s.OMark, o, s.Value[n.Seq])
	if !sp.ReportFilter || newer(r, s.Known[o]) {
		t.Report = cow.With(s.Report, o, r)
		t.Known = cow.With(s.Known, o, r)
	}
	return model.Enabled
}

// Fired is Fired(o): the observer's armed watch has fired: its data watch's
// node is gone or its version moved, or its vacancy's child watch saw the
// sequence counter move.
func (s *State) Fired(o int) bool {
	switch s.OPC[o] {
	case OWatching:
		_, ok := s.NodeAt(s.OHead[o])
		return !ok || s.Value[s.OHead[o]] != s.OMark[o]
	case OVacant:
		return s.OMark[o] != NoWatch && s.NextSeq != s.OMark[o]
	}
	return false
}

// ObserveNotified: the observer takes its watch's event (NodeDeleted,
// NodeDataChanged, NodeChildrenChanged) and lists again. Spec:
// Election!ObserveNotified.
func (sp *Spec) ObserveNotified(s *State, o int, t *State) model.Guard {
	if !s.Fired(o) {
		return `Fired(o)`
	}
	*t = *s
	t.OPC = cow.With(s.OPC, o, OList)
	t.OHead = cow.With(s.OHead, o, zk.NoNode)
	t.ONext = cow.With(s.ONext, o, nil)
	t.ORefresh = cow.With(s.ORefresh, o, false)
	t.OMark = cow.With(s.OMark, o, NoWatch)
	return model.Enabled
}

// ObserveNext: the head's node is gone (its watch's NodeDeleted) and the
// last listing showed nodes after it: the first of them is read next,
// without listing again; if it stands it is the head (every node listed
// before it is gone, and no later node sorts before it). With NextOnDelete
// false, the mutant, on any event of the watch. Spec: Election!ObserveNext.
func (sp *Spec) ObserveNext(s *State, o int, t *State) model.Guard {
	if !s.Fired(o) {
		return `Fired(o)`
	}
	if s.OPC[o] != OWatching {
		return `opc[o] = "watching"`
	}
	if len(s.ONext[o]) == 0 {
		return `onext[o] # {}`
	}
	if _, ok := s.NodeAt(s.OHead[o]); ok && sp.NextOnDelete {
		return `NextOnDelete => ~NodeExists(ohead[o])`
	}
	next := s.ONext[o][0] // Min(onext[o])
	*t = *s
	t.OPC = cow.With(s.OPC, o, OWatch)
	t.OHead = cow.With(s.OHead, o, next)
	t.ONext = cow.With(s.ONext, o, s.ONext[o][1:])
	t.ORefresh = cow.With(s.ORefresh, o, true)
	t.OMark = cow.With(s.OMark, o, NoWatch)
	return model.Enabled
}

// ObserveRefresh: getChildren(<election>) without a watch, once, while the
// observer watches a head it read without a listing (after ObserveNext and
// its report): the nodes listed after that head are its successors. Spec:
// Election!ObserveRefresh.
func (sp *Spec) ObserveRefresh(s *State, o int, t *State) model.Guard {
	if s.OPC[o] != OWatching {
		return `opc[o] = "watching"`
	}
	if !s.ORefresh[o] {
		return `orefresh[o]`
	}
	*t = *s
	t.ONext = cow.With(s.ONext, o, s.seqsAfter(s.OHead[o]))
	t.ORefresh = cow.With(s.ORefresh, o, false)
	return model.Enabled
}

// ObserverSessionLost: the observer's session is lost (WithObserverLoss,
// a fault): it stops for good, its head and watch dropped, its last report
// kept. Spec: Election!ObserverSessionLost.
func (sp *Spec) ObserverSessionLost(s *State, o int, t *State) model.Guard {
	if !sp.WithObserverLoss {
		return "WithObserverLoss"
	}
	if s.OPC[o] == OLost {
		return `opc[o] # "lost"`
	}
	*t = *s
	t.OPC = cow.With(s.OPC, o, OLost)
	t.OHead = cow.With(s.OHead, o, zk.NoNode)
	t.ONext = cow.With(s.ONext, o, nil)
	t.ORefresh = cow.With(s.ORefresh, o, false)
	t.OMark = cow.With(s.OMark, o, NoWatch)
	return model.Enabled
}
