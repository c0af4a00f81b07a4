--------------------------- MODULE SharedLockConnLoss ---------------------------
(***************************************************************************)
(* SharedLock with connection loss on the calls of an acquisition, each    *)
(* recovered as impl/zklock's RWMutex recovers it: the read/write          *)
(* counterpart of PredecessorLockConnLoss (whose comments say what         *)
(* go-zookeeper v1.0.4 and the server do on a lost connection: calls in    *)
(* flight fail, their effect unknown; a watch whose reply was lost is      *)
(* gone, one whose reply came is re-registered).  RWMutex waits through    *)
(* the code Mutex waits through (impl/zklock/contender.go), with two       *)
(* differences that matter here: it never watches a second node (twoAhead *)
(* is "" for a read/write lock), so there is no WatchSecondLost; and it    *)
(* arms the watch on its own node, which the hand-off needs, only when     *)
(* the hand-off may be taken (kind.go handOff: one blocker, and the waiter *)
(* a reader or the blocker a read node), so HandOffLost is enabled only    *)
(* then.  Call by call:                                                    *)
(*   create          reply lost after the create was applied:              *)
(*                   CreateReplyLost (SharedLock); request lost or not     *)
(*                   applied: CreateRequestLost below                      *)
(*   find-own-node,  getChildren, exists, retried until they answer:       *)
(*   listing, grant  stutter                                               *)
(*   predecessor     getData+watch on the chosen node (a writer's          *)
(*   watch           predecessor, a reader's last write node before it),   *)
(*                   NOT retried: list again after a backoff, nothing      *)
(*                   armed: WatchPredecessorLost below                     *)
(*   own-node watch  lost, or any reconnect before the event is taken: no  *)
(*                   hand-off this time: HandOffLost below                 *)
(*   release, cancel deletes resent until they land: pending, DeleteLands  *)
(*   downgrade       the multi retried until its outcome is known; an     *)
(*                   outcome left unknown is DowngradeReplyLost            *)
(*                   (SharedLock)                                          *)
(*   a wait          no call: the watches whose replies came are           *)
(*                   re-registered, events of nodes gone meanwhile (a      *)
(*                   downgraded write node included: its name is gone)     *)
(*                   come at reconnect, a late delivery of inbox: stutter  *)
(*                                                                         *)
(* Each lost call spends one unit of MaxLost (apart from MaxFaults, so the *)
(* liveness configs keep StarvationFree).  The lost steps are faults: no   *)
(* fairness.  WatchPredecessorLostStep, without the budget, is the step    *)
(* SharedLockTrace matches the trace event WatchPredecessor "lost" with.   *)
(***************************************************************************)
EXTENDS SharedLock

CONSTANT MaxLost    \* budget of lost calls
ASSUME MaxLost \in Nat

VARIABLE lost       \* lost calls so far

lVars == <<vars, lost>>

LInit == Init /\ lost = 0

LTypeOK == TypeOK /\ lost \in 0..MaxLost

\* A lost call spends one unit of the budget.
Lose == lost < MaxLost /\ lost' = lost + 1

(* create's request lost, or the create not applied: contender.create sees *)
(* a transient error and looks for its node by uuid (findOwnNode), finding *)
(* none: FindOwnNode's second branch, back to "create".                    *)
CreateRequestLost(c) ==
    /\ ~paused[c]
    /\ pc[c] = "create"
    /\ Live(c)
    /\ Lose
    /\ pc' = [pc EXCEPT ![c] = "find"]
    /\ UNCHANGED <<zkVars, pending, kind, sess, reqNo, node, target, soleBlocker, token,
                   paused, faults>>

(* getData(<target>, watch=true) fails with a lost connection: whatever    *)
(* the server armed went with the connection, and go-zookeeper registers a *)
(* watch only with its reply.  watchBoth backs off and run lists again     *)
(* (trace: WatchPredecessor "lost"), whether the node exists or not.       *)
WatchPredecessorLostStep(c) ==
    /\ ~paused[c]
    /\ pc[c] = "watch"
    /\ Live(c)
    /\ pc' = [pc EXCEPT ![c] = "list"]
    /\ target' = [target EXCEPT ![c] = NoTarget]
    /\ soleBlocker' = [soleBlocker EXCEPT ![c] = FALSE]
    /\ UNCHANGED <<zkVars, pending, kind, sess, reqNo, node, token, paused, faults>>

WatchPredecessorLost(c) == Lose /\ WatchPredecessorLostStep(c)

(* The hand-off (GrantOnHeadGone) needs a watch on our own node armed on   *)
(* the connection the blocker's event comes on (contender.watchOwn,        *)
(* ownIntact).  RWMutex arms it only when the hand-off may be taken (the   *)
(* guard's second conjunct, GrantOnHeadGone's kind rule).  Its getData's   *)
(* reply lost, or a reconnect before the event is taken: the client lists  *)
(* again after the notification instead.                                   *)
HandOffLost(c) ==
    /\ ~paused[c]
    /\ pc[c] \in {"watch", "wait"}
    /\ soleBlocker[c]
    /\ kind[c] = "read" \/ target[c][2] = "read"
    /\ Lose
    /\ soleBlocker' = [soleBlocker EXCEPT ![c] = FALSE]
    /\ UNCHANGED <<zkVars, pending, pc, kind, sess, reqNo, node, target, token, paused,
                   faults>>

\* Every step of SharedLock, no call lost (TLC names them LBase).
LBase == Next /\ UNCHANGED lost

LostNext(c) ==
    \/ CreateRequestLost(c)
    \/ WatchPredecessorLost(c)
    \/ HandOffLost(c)

LNext == LBase \/ \E c \in Clients : LostNext(c)

LSpec == LInit /\ [][LNext]_lVars

LFairSpec == LSpec /\ Fairness

=============================================================================
