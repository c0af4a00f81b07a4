----------------------- MODULE PredecessorLockStaleEvent -----------------------
(***************************************************************************)
(* MUTANT (must fail MutualExclusion): the hand-off in one notification    *)
(* taken on ANY event of the current request while the last listing showed *)
(* a single node before ours, without checking that the event is for that  *)
(* node (PredecessorLock!GrantOnHeadGone without its conjunct              *)
(* NextEvent(c).node = target[c]).  A waiter that watches two nodes (its   *)
(* predecessor P and the node two ahead Q) can get P's event after a       *)
(* re-listing chose a new target: listing [R, Q, P, me]; Q goes, and P     *)
(* goes too; Q's event makes it list again: [R, me], R alone before ours;  *)
(* then P's event arrives and is taken as the grant while R holds.         *)
(* cmd/mutants has the same mistake in impl/zklock ("shortcut-any-watch"). *)
(***************************************************************************)
EXTENDS PredecessorLock

(* GrantOnHeadGone without the check of which node the event is for. *)
GrantOnAnyEvent(c) ==
    /\ ~paused[c]
    /\ ZK!HasEvent(c)
    /\ ZK!NextEvent(c).req = Uuid(c)
    /\ pc[c] = "wait"
    /\ soleBlocker[c]
    /\ ZK!TakeEvent(c)
    /\ pc' = [pc EXCEPT ![c] = "grant"]
    /\ target' = [target EXCEPT ![c] = NoNode]
    /\ second' = [second EXCEPT ![c] = NoNode]
    /\ soleBlocker' = [soleBlocker EXCEPT ![c] = FALSE]
    /\ UNCHANGED <<sess, reqNo, node, token, tenure, paused, histVars>>

StaleClientNext(c) ==
    \/ RequestLock(c)
    \/ CreateOk(c)
    \/ CreateReplyLost(c)
    \/ FindOwnNode(c)
    \/ ListChildren(c)
    \/ WatchSecond(c)
    \/ WatchPredecessor(c)
    \/ PredecessorGone(c)
    \/ GrantOnAnyEvent(c)
    \/ IgnoreNotification(c)
    \/ Grant(c)
    \/ Write(c)
    \/ Release(c)
    \/ Cancel(c)
    \/ LearnExpiry(c)

StaleSpec == Init /\ [][(\E c \in Clients : StaleClientNext(c)) \/ EnvNext]_vars

=============================================================================
