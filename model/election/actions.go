package election

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/zk"
)

// Proclaim: the leader writes a new value to its own node, setData in one
// multi with check(own node) on its session (ZooKeeper.multi, Op.check:
// all or nothing). The check fails when the node is gone and nothing is
// written: no step. One transaction, one zxid; the observers' data
// watches on the node fire (Fired). Spec: Election!Proclaim.
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
	t.Value = cow.With(s.Value, seq, v+1)
	t.Zxid = s.Zxid + 1
	t.Proclaimed = cow.Insert(s.Proclaimed, Report{Epoch: s.Token[c], Version: v + 1}, reportLess)
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

// reading is Reading(n): the leader <<czxid, version>> once n's owner
// proclaimed, else Vacancy (with ReportHead, the mutant: the head as it is).
func (s *State) reading(n zk.Node[zk.NoKind], reportHead bool) Report {
	if s.Value[n.Seq] == 0 && !reportHead {
		return Vacancy
	}
	return Report{Epoch: n.Czxid, Version: s.Value[n.Seq]}
}

// Truth is who leads, as a read of the leader's server now would report
// it (spec: Truth).
func (sp *Spec) Truth(s *State) Report {
	if len(s.Nodes) == 0 {
		return Vacancy
	}
	return s.reading(s.Nodes[0], sp.ReportHead)
}

// ObserveList: getChildren(<election>) without a watch. Candidates queued:
// the head is read next. None: report the vacancy and arm a child watch
// (with WatchVacancy; the mutant arms none). Spec: Election!ObserveList.
func (sp *Spec) ObserveList(s *State, o int, t *State) model.Guard {
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
	t.OPC = cow.With(s.OPC, o, OWatch)
	t.OHead = cow.With(s.OHead, o, s.Nodes[0].Seq) // nodes are sorted by seq
	return model.Enabled
}

// ObserveWatch: getData(<head>, watch=true), read and watch in one server
// step. The node exists: the data watch is armed and the observer reports
// what it read (a report equal to the last changes nothing). NoNode: list
// again. Spec: Election!ObserveWatch.
func (sp *Spec) ObserveWatch(s *State, o int, t *State) model.Guard {
	if s.OPC[o] != OWatch {
		return `opc[o] = "watch"`
	}
	*t = *s
	n, ok := s.NodeAt(s.OHead[o])
	if !ok {
		t.OPC = cow.With(s.OPC, o, OList)
		t.OHead = cow.With(s.OHead, o, zk.NoNode)
		return model.Enabled
	}
	r := s.reading(n, sp.ReportHead)
	t.OPC = cow.With(s.OPC, o, OWatching)
	t.OMark = cow.With(s.OMark, o, s.Value[n.Seq])
	t.Report = cow.With(s.Report, o, r)
	if r != Vacancy {
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
	t.OMark = cow.With(s.OMark, o, NoWatch)
	return model.Enabled
}
