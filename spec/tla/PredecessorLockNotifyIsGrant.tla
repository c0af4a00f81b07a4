--------------------- MODULE PredecessorLockNotifyIsGrant ---------------------
(***************************************************************************)
(* MUTANT (must fail MutualExclusion): a client that takes the deletion of *)
(* its predecessor as the grant, without listing the children again (the   *)
(* shortcut of a lock that counts a latch down on NodeDeleted and returns  *)
(* from lock(); ZooKeeper recipes, "Locks", step 5 goes back to step 2     *)
(* instead).  When a waiter in the middle of the queue cancels, the waiter *)
(* behind it wakes while the holder in front still holds.                  *)
(* It is also PredecessorLock!GrantOnHeadGone without its soleBlocker      *)
(* conjunct: the one-notification hand-off taken whenever the watched node *)
(* goes, whether or not it was the only node before ours (cmd/mutants has  *)
(* the same mistake in impl/zklock, "shortcut-any-node").                  *)
(***************************************************************************)
EXTENDS PredecessorLock

(* The watch notification is consumed as "the lock is ours": straight to   *)
(* Grant.  Replaces PredecessorGone.  Skips Locks step 5's "go to step 2". *)
PredecessorGoneIsGrant(c) ==
    /\ ~paused[c]
    /\ ZK!HasEvent(c)
    /\ ZK!NextEvent(c).req = Uuid(c)
    /\ pc[c] = "wait"
    /\ ZK!TakeEvent(c)
    /\ pc' = [pc EXCEPT ![c] = "grant"]
    /\ target' = [target EXCEPT ![c] = NoNode]
    /\ second' = [second EXCEPT ![c] = NoNode]
    /\ soleBlocker' = [soleBlocker EXCEPT ![c] = FALSE]
    /\ UNCHANGED <<sess, reqNo, node, token, tenure, paused, histVars>>

NotifyClientNext(c) ==
    \/ RequestLock(c)
    \/ CreateOk(c)
    \/ CreateReplyLost(c)
    \/ FindOwnNode(c)
    \/ ListChildren(c)
    \/ WatchSecond(c)
    \/ WatchPredecessor(c)
    \/ PredecessorGoneIsGrant(c)
    \/ IgnoreNotification(c)
    \/ Grant(c)
    \/ Write(c)
    \/ Release(c)
    \/ Cancel(c)
    \/ LearnExpiry(c)

NotifySpec == Init /\ [][(\E c \in Clients : NotifyClientNext(c)) \/ EnvNext]_vars

=============================================================================
