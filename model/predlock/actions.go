package predlock

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/zk"
)

// Every action is a method named like the spec action. It evaluates the
// action's guard in s and, if every conjunct holds, writes the successor
// into t and returns model.Enabled; otherwise it returns the first false
// conjunct and leaves t alone. The successor shares unchanged slices with
// s. The actions SharedLock writes alike are recipe.Spec's (RequestLock,
// CreateOk, CreateReplyLost, FindOwnNode, WatchPredecessor, PredecessorGone, IgnoreNotification,
// Release, Cancel, LearnExpiry, ExpireSession, DeleteLands, ResumeClient);
// the action table runs them on this package's State (keep, idled).

// shared is an action of recipe.Spec, on the variables both lock specs have.
type shared = func(recipe.Spec[zk.NoKind], *recipe.State[zk.NoKind], int, *recipe.State[zk.NoKind]) model.Guard

// keep completes a step an action of recipe.Spec took: PredecessorLock's
// own variables are unchanged.
func keep(s, t *State, g model.Guard) model.Guard {
	if g == model.Enabled {
		t.Tenure, t.Grants, t.LastToken, t.ResHigh, t.ResTenure = s.Tenure, s.Grants, s.LastToken, s.ResHigh, s.ResTenure
	}
	return g
}

// kept runs the shared action f on PredecessorLock's state.
func kept(f shared) clientAction {
	return func(sp *Spec, s *State, c int, t *State) model.Guard {
		return keep(s, t, f(sp.r, &s.State, c, &t.State))
	}
}

// idled runs the shared action f, which ends in Idle(c), on
// PredecessorLock's state: Idle(c) resets the tenure too.
func idled(f shared) clientAction {
	return func(sp *Spec, s *State, c int, t *State) model.Guard {
		g := keep(s, t, f(sp.r, &s.State, c, &t.State))
		if g == model.Enabled {
			t.Tenure = cow.With(t.Tenure, c, 0)
		}
		return g
	}
}

// RequestLock: Mutex.Lock is called (recipe.Spec.RequestLock). Spec:
// PredecessorLock!RequestLock.
func (sp *Spec) RequestLock(s *State, c int, t *State) model.Guard {
	return keep(s, t, sp.r.RequestLock(&s.State, c, &t.State))
}

// CreateOk: recipe.Spec.CreateOk, and the token becomes known
// (KnownToken(c, zxid + 1)). Spec: PredecessorLock!CreateOk.
func (sp *Spec) CreateOk(s *State, c int, t *State) model.Guard {
	g := keep(s, t, sp.r.CreateOk(&s.State, c, zk.NoKind{}, &t.State))
	if g == model.Enabled {
		t.Token = sp.knownToken(s, c, s.Zxid+1)
	}
	return g
}

// FindOwnNode: recipe.Spec.FindOwnNode, and once found the token becomes
// known (KnownToken(c, n.czxid)). Spec: PredecessorLock!FindOwnNode.
func (sp *Spec) FindOwnNode(s *State, c int, t *State) model.Guard {
	g := keep(s, t, sp.r.FindOwnNode(&s.State, c, &t.State))
	if g == model.Enabled && t.PC[c] == recipe.PCList {
		n, _ := s.NodeAt(t.Node[c])
		t.Token = sp.knownToken(s, c, n.Czxid)
	}
	return g
}

// ListChildren: getChildren(<lock>) without a watch, sorted by suffix. No
// node before ours: the lock is ours (go on to Grant). Otherwise choose the
// node immediately before ours, and with two or more before ours also the
// one before that (second), watched first (WatchSecond). Spec:
// PredecessorLock!ListChildren (ZooKeeper recipes, "Locks" steps 2-4: no
// watch on the listing, so no herd effect).
func (sp *Spec) ListChildren(s *State, c int, t *State) model.Guard {
	if g := s.Ready(c, recipe.PCList); g != model.Enabled {
		return g
	}
	before, second, count := NoNode, NoNode, 0
	for _, n := range s.Nodes { // sorted by seq
		if n.Seq < s.Node[c] {
			count++
			second, before = before, n.Seq
		}
	}
	s.Listed(c, &t.State, name(before), count, second)
	return keep(s, t, model.Enabled)
}

// WatchSecond: getData(<second>, watch=true), sent pipelined just before
// the predecessor's getData, so applied first, in a step of its own. The
// node exists: the watch is armed (a watch set is a set: watching it again
// for the same request adds nothing). NoNode: nothing is watched there.
// Either way the client goes on to its predecessor. Spec:
// PredecessorLock!WatchSecond.
func (sp *Spec) WatchSecond(s *State, c int, t *State) model.Guard {
	if g := s.Ready(c, recipe.PCSecond); g != model.Enabled {
		return g
	}
	*t = *s
	if x := name(s.Second[c]); s.NodeExists(x) {
		s.SetWatch(&t.Server, x, s.UuidOf(c))
	}
	t.PC = cow.With(s.PC, c, recipe.PCWatch)
	return keep(s, t, model.Enabled)
}

// WatchPredecessorLost: recipe.Spec.WatchPredecessorLost, the lost
// getData on the predecessor without a budget. Not an action of
// PredecessorLock (no variant takes it): model/connloss spends a
// lost call around it, and model/trace matches WatchPredecessor "lost"
// with it. Spec: PredecessorLockConnLoss!WatchPredecessorLostStep.
func (sp *Spec) WatchPredecessorLost(s *State, c int, t *State) model.Guard {
	return keep(s, t, sp.r.WatchPredecessorLost(&s.State, c, &t.State))
}

// WatchSecondLost: recipe.Spec.WatchSecondLost, on PredecessorLock's
// state (the second watch is PredecessorLock's alone). Spec:
// PredecessorLockConnLoss!WatchSecondLostStep.
func (sp *Spec) WatchSecondLost(s *State, c int, t *State) model.Guard {
	return keep(s, t, sp.r.WatchSecondLost(&s.State, c, &t.State))
}

// CreateReplyLost: recipe.Spec.CreateReplyLost, of a node without kind.
// Spec: PredecessorLock!CreateReplyLost.
func (sp *Spec) CreateReplyLost(s *State, c int, t *State) model.Guard {
	return keep(s, t, sp.r.CreateReplyLost(&s.State, c, zk.NoKind{}, &t.State))
}

// GrantOnHeadGone: the hand-off in one notification. The client consumes
// the NodeDeleted event of its current request's watch on its target (not
// an older watch of the request: its second, or an earlier target), a
// node that was the only one before ours at the listing that chose it
// (soleBlocker), and
// goes straight to Grant without listing again: sequence numbers only grow,
// so nothing created since sorts before ours, and the node that was alone
// before ours is gone. Grant then takes the token known since the node
// became known and checks what the GrantRule checks (impl/zklock: the
// loss deadline). Spec: PredecessorLock!GrantOnHeadGone.
func (sp *Spec) GrantOnHeadGone(s *State, c int, t *State) model.Guard {
	return keep(s, t, s.ConsumeIf(c, &t.State, s.HeadGone(c), recipe.PCGrant))
}

// Grant: the client holds; the czxid of its node is the fencing token.
// By GrantRule: "reread" is getData(<own node>) on a live session, taking
// the czxid read then; "local" is no ZooKeeper call, the token known since
// the node became known, nothing checked; "checked" is "local" refused once
// the loss deadline has passed (~Overdue(c); impl/zklock's grant calls
// Session.checkDeadline). Spec: PredecessorLock!Grant (ZooKeeper
// recipes, "Locks" step 3).
func (sp *Spec) Grant(s *State, c int, t *State) model.Guard {
	token := s.Token[c]
	if sp.GrantRule == GrantReread {
		if g := s.Reread(c, nil); g != model.Enabled {
			return g
		}
		own, _ := s.NodeAt(s.Node[c])
		token = own.Czxid
	} else if g := s.Ready(c, recipe.PCGrant); g != model.Enabled && g != recipe.GLive {
		return g // a local grant makes no call: Live(c) is not a conjunct
	}
	if sp.GrantRule == GrantChecked && s.Overdue(c) {
		return `~Overdue(c)`
	}
	granted(s, c, t, token)
	return model.Enabled
}

// granted is the effect of Grant: c holds with token, the grant's number
// is its tenure.
func granted(s *State, c int, t *State, token int) {
	*t = *s
	if token != s.Token[c] {
		t.Token = cow.With(s.Token, c, token)
	}
	t.LastToken = token
	t.Grants = s.Grants + 1
	t.Tenure = cow.With(s.Tenure, c, s.Grants+1)
	t.PC = cow.With(s.PC, c, recipe.PCHold)
}

// Write: the critical section writes to an outside resource with the
// lease's token (not a ZooKeeper call: no live session needed). With
// Fencing the resource accepts only a token >= the highest it has seen; a
// rejected write changes nothing (a stuttering step). Spec:
// PredecessorLock!Write (docs/DESIGN.md "Unrecoverable errors: sessions,
// loss and fencing").
func (sp *Spec) Write(s *State, c int, t *State) model.Guard {
	switch {
	case s.Paused[c]:
		return recipe.GNotPaused
	case s.PC[c] != recipe.PCHold:
		return `pc[c] = "hold"`
	}
	*t = *s
	if sp.Fencing && s.Token[c] < s.ResHigh {
		return model.Enabled
	}
	if s.Token[c] > s.ResHigh {
		t.ResHigh = s.Token[c]
	}
	t.ResTenure = s.Tenure[c]
	return model.Enabled
}

// PauseClient: a process pause (GC, VM stall, SIGSTOP); a fault. With
// GrantReread only a holder pauses (a slow non-holder is modeled by
// interleaving); with a local grant a client pauses in any state but
// "idle", as impl/zklock's process can. Spec: PredecessorLock!PauseClient
// (docs/DESIGN.md "Unrecoverable errors: sessions, loss and fencing").
func (sp *Spec) PauseClient(s *State, c int, t *State) model.Guard {
	where := model.Enabled
	switch {
	case sp.GrantRule == GrantReread && s.PC[c] != recipe.PCHold:
		where = `GrantRule = "reread" => pc[c] = "hold"`
	case sp.GrantRule != GrantReread && s.PC[c] == recipe.PCIdle:
		where = `GrantRule # "reread" => pc[c] # "idle"`
	}
	return keep(s, t, sp.r.PauseClient(&s.State, c, where, &t.State))
}
