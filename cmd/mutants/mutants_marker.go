package main

// The mutants of the marker hand-off (impl/zklock/marker.go and
// leasemark.go; spec/tla/PredecessorLockMarked.tla, docs/QUEUES.md rules
// 1-5).
func init() {
	mutants = append(mutants,
		mutant{
			Name:    "marker-no-mark",
			Why:     "the holder never marks its node: every hand-off is an unmarked deletion, and its successor lists the whole queue again (today's cost, the marker's gain lost)",
			File:    "impl/zklock/grant.go",
			Find:    `		lease.sendMark()`,
			Replace: `		_ = lease.sendMark`,
			Killers: []string{"TestMarkerHandOffListsNothing"},
		},
		mutant{
			Name: "marker-change-is-grant",
			Why:  "the predecessor's NodeDataChanged (its mark: it holds) taken as the grant: the waiter holds beside it (PredecessorLockMarked.MarkIsGrant)",
			File: "impl/zklock/marker.go",
			Find: `			c.trace(TraceEvent{Action: traceevent.MarkSeen, Target: target})
			var gone bool`,
			Replace: `			c.trace(TraceEvent{Action: traceevent.GrantOnMarkedGone, Target: target})
			return c.grantMarked(ctx)
			var gone bool`,
			Killers: []string{"TestMarkerChangeIsNotGrant"},
		},
		mutant{
			Name: "marker-no-rearm",
			Why:  "after the predecessor's NodeDataChanged the waiter waits on the spent one-shot watch: the release wakes nobody (PredecessorLockMarked.NoRearm)",
			File: "impl/zklock/marker.go",
			Find: `			if r, gone, err = c.readPred(ctx, traceevent.Rearm, target, true); err != nil {`,
			Replace: `			r.ch, r.marked = make(chan zk.Event), true
			if err != nil || gone {`,
			Killers: []string{"TestMarkerHandOff"},
		},
		mutant{
			Name:    "marker-unmarked-delete-grant",
			Why:     "the deletion of a predecessor never seen marked (a cancelled middle waiter) taken as the grant: the waiter behind it holds beside the holder (PredecessorLockMarked.DeleteIsGrantUnmarked)",
			File:    "impl/zklock/marker.go",
			Find:    `		case ev.Type == zk.EventNodeDeleted && r.marked:`,
			Replace: `		case ev.Type == zk.EventNodeDeleted:`,
			Killers: []string{"TestMarkerMiddleCancel"},
		},
		mutant{
			Name: "marker-own-write-is-loss",
			Why:  "the holder's own-node watch takes the NodeDataChanged of its own mark as someone else's write and ends the lease: every marked lease is lost at its grant",
			File: "impl/zklock/ownwatch.go",
			Find: `	case zk.EventNodeDeleted:
		return l.ownNodeGone(life, w.node, ErrNodeDeleted)
	}`,
			Replace: `	case zk.EventNodeDeleted:
		return l.ownNodeGone(life, w.node, ErrNodeDeleted)
	case zk.EventNodeDataChanged:
		return l.ownNodeGone(life, w.node, ErrNodeReplaced)
	}`,
			Killers: []string{"TestMarkerHolderKeepsLease"},
		},
	)
}
