------------------------ MODULE PredecessorLockConnLoss ------------------------
(***************************************************************************)
(* PredecessorLock with connection loss on every call of an acquisition,  *)
(* each recovered as impl/zklock recovers it.  PredecessorLock loses only  *)
(* a create's reply (CreateReplyLost); here any call's request or reply    *)
(* may be lost while the session lives on.  What go-zookeeper v1.0.4 and   *)
(* the server do then: every call in flight on the connection fails with   *)
(* ErrConnectionClosed (the request may or may not have been applied); the *)
(* server drops every watch of the closed connection; on reconnect the     *)
(* client sends SetWatches for the watches whose reply it received (a     *)
(* watch is registered in the client only when its reply arrives), with   *)
(* its last zxid, and the server fires at once those whose node went       *)
(* meanwhile.  So a watch whose reply came is kept, a watch whose reply    *)
(* was lost is gone whether or not the server had armed it, and only the   *)
(* order of events across the reconnect is lost.                           *)
(*                                                                         *)
(* Call by call (impl/zklock/contender.go, call.go):                       *)
(*   create          reply lost after the create was applied:              *)
(*                   CreateReplyLost (PredecessorLock); request lost or    *)
(*                   not applied: CreateRequestLost below                  *)
(*   find-own-node   getChildren and exists, retried (retry): reads with   *)
(*                   no effect, the retry is the step (stutter)            *)
(*   listing         getChildren, retried (lockCore.children): stutter     *)
(*   second watch    getData+watch, NOT retried (a retry would read after  *)
(*                   the predecessor's getData): wait with no watch on the *)
(*                   node two ahead: WatchSecondLost below                 *)
(*   predecessor     getData+watch, NOT retried: list again after a        *)
(*   watch           backoff, the node possibly still there and no watch   *)
(*                   armed: WatchPredecessorLost below                     *)
(*   own-node watch  getData+watch beside the predecessor's, when the      *)
(*                   hand-off may be taken; lost, or any reconnect while   *)
(*                   waiting (ownIntact compares the session's attach      *)
(*                   count): no hand-off this time: HandOffLost below      *)
(*   grant           the token's exists, retried: stutter                  *)
(*   release, cancel deletes resent until they land or the session ends    *)
(*                   (deleteNode; a resend that finds NoNode after a lost  *)
(*                   reply is success): with AsyncDelete, pending and      *)
(*                   DeleteLands; without, the step that lands it          *)
(*   a wait          no call: the watches whose replies came are           *)
(*                   re-registered, events of nodes gone meanwhile come at *)
(*                   reconnect, as a late delivery of the inbox: stutter   *)
(*                                                                         *)
(* Each lost call spends one unit of MaxLost (apart from MaxFaults, so the *)
(* liveness configs keep StarvationFree: a lost reply never ends a         *)
(* request).  The lost steps are faults: no fairness.  WatchPredecessorLost *)
(* without the budget is WatchPredecessorLostStep, with which              *)
(* PredecessorLockTrace matches the trace event WatchPredecessor "lost".   *)
(***************************************************************************)
EXTENDS PredecessorLock

CONSTANT MaxLost    \* budget of lost calls
ASSUME MaxLost \in Nat

VARIABLE lost       \* lost calls so far

lVars == <<vars, lost>>

LInit == Init /\ lost = 0

LTypeOK == TypeOK /\ lost \in 0..MaxLost

\* A lost call spends one unit of the budget.
Lose == lost < MaxLost /\ lost' = lost + 1

(* create's request lost, or the create not applied (ErrConnectionClosed   *)
(* before the server took it): contender.create sees a transient error and *)
(* looks for its node by uuid (findOwnNode), finding none: FindOwnNode's   *)
(* second branch, back to "create".                                        *)
CreateRequestLost(c) ==
    /\ ~paused[c]
    /\ pc[c] = "create"
    /\ Live(c)
    /\ Lose
    /\ pc' = [pc EXCEPT ![c] = "find"]
    /\ UNCHANGED <<zkVars, pending, sess, reqNo, node, target, second, soleBlocker, token,
                   tenure, paused, histVars>>

(* getData(<second>, watch=true) fails with a lost connection: whatever    *)
(* watch the server armed went with the connection, and watchBoth does not *)
(* retry it (the retry would read after the predecessor's getData), so the *)
(* client goes on to its predecessor with no watch on the node two ahead   *)
(* (trace: WatchSecond "lost").  WatchSecondLostStep is that step without  *)
(* the budget, which PredecessorLockTrace matches.                         *)
WatchSecondLostStep(c) ==
    /\ ~paused[c]
    /\ pc[c] = "second"
    /\ Live(c)
    /\ pc' = [pc EXCEPT ![c] = "watch"]
    /\ UNCHANGED <<zkVars, pending, sess, reqNo, node, target, second, soleBlocker, token,
                   tenure, paused, histVars>>

WatchSecondLost(c) == Lose /\ WatchSecondLostStep(c)

(* getData(<target>, watch=true) fails with a lost connection: the server  *)
(* may have armed the watch, but it dropped it with the connection, and    *)
(* go-zookeeper, which registers a watch only with its reply, does not set *)
(* it again.  watchBoth returns no channel after a backoff and run lists   *)
(* again (trace: WatchPredecessor "lost"), whether the node exists or not. *)
(* A watch the request armed before (its second) stays armed.              *)
WatchPredecessorLostStep(c) ==
    /\ ~paused[c]
    /\ pc[c] = "watch"
    /\ Live(c)
    /\ pc' = [pc EXCEPT ![c] = "list"]
    /\ target' = [target EXCEPT ![c] = NoNode]
    /\ second' = [second EXCEPT ![c] = NoNode]
    /\ soleBlocker' = [soleBlocker EXCEPT ![c] = FALSE]
    /\ UNCHANGED <<zkVars, pending, sess, reqNo, node, token, tenure, paused, histVars>>

WatchPredecessorLost(c) == Lose /\ WatchPredecessorLostStep(c)

(* The hand-off (GrantOnHeadGone) needs a watch on our own node armed on   *)
(* the connection the predecessor's event comes on (contender.watchOwn,    *)
(* ownIntact): events come in zxid order on one connection only.  Its      *)
(* getData's reply lost, or a reconnect at any time before the event is    *)
(* taken, and the client lists again after the notification instead.  The  *)
(* spec does not model the own node's watch (no one deletes a node but its *)
(* owner and the server), so what is lost is the hand-off.                 *)
HandOffLost(c) ==
    /\ ~paused[c]
    /\ pc[c] \in {"watch", "wait"}
    /\ soleBlocker[c]
    /\ Lose
    /\ soleBlocker' = [soleBlocker EXCEPT ![c] = FALSE]
    /\ UNCHANGED <<zkVars, pending, pc, sess, reqNo, node, target, second, token, tenure,
                   paused, histVars>>

\* Every step of PredecessorLock, no call lost (TLC names them LBase).
LBase == Next /\ UNCHANGED lost

LostNext(c) ==
    \/ CreateRequestLost(c)
    \/ WatchSecondLost(c)
    \/ WatchPredecessorLost(c)
    \/ HandOffLost(c)

LNext == LBase \/ \E c \in Clients : LostNext(c)

LSpec == LInit /\ [][LNext]_lVars

LFairSpec == LSpec /\ Fairness

=============================================================================
