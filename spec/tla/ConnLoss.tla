------------------------------ MODULE ConnLoss ------------------------------
(***************************************************************************)
(* Connection loss on the calls of an acquisition, written once for every  *)
(* recipe (INSTANCEd as Loss by PredecessorLockConnLoss and                *)
(* SharedLockConnLoss).  A recipe's own module loses only a create's reply *)
(* (CreateReplyLost); with this module any call's request or reply may be  *)
(* lost while the session lives on.  What go-zookeeper v1.0.4 and the      *)
(* server do then: every call in flight on the connection fails with       *)
(* ErrConnectionClosed (the request may or may not have been applied); the *)
(* server drops every watch of the closed connection; on reconnect the     *)
(* client sends SetWatches for the watches whose reply it received (a      *)
(* watch is registered in the client only when its reply arrives), with    *)
(* its last zxid, and the server fires at once those whose node went       *)
(* meanwhile.  So a watch whose reply came is kept, a watch whose reply    *)
(* was lost is gone whether or not the server had armed it, and only the   *)
(* order of events across the reconnect is lost.                           *)
(*                                                                         *)
(* How impl/zklock recovers (contender.go, call.go), for every recipe:     *)
(*   create          request lost or not applied: the client looks for its *)
(*                   node by uuid, Moves(c, "create", "find") (reply lost  *)
(*                   after it was applied: the recipe's CreateReplyLost)   *)
(*   find-own-node,  getChildren and exists, retried until they answer:    *)
(*   listing, grant  reads with no effect, the retry is the step (stutter) *)
(*   predecessor     getData+watch, NOT retried: list again after a        *)
(*   watch           backoff, nothing armed (WatchPredecessorLostStep,     *)
(*                   the recipe's: it knows what a waiter forgets)         *)
(*   own-node watch  lost, or any reconnect while waiting (ownIntact): no  *)
(*                   hand-off this time (HandOffGivenUp)                   *)
(*   release, cancel deletes resent until they land: pending, DeleteLands  *)
(*   a wait          no call: watches whose replies came are re-registered,*)
(*                   events of nodes gone meanwhile come at reconnect, a   *)
(*                   late delivery of the inbox: stutter                   *)
(* Each lost call spends one unit of MaxLost (apart from MaxFaults: a lost *)
(* call never ends a request, so StarvationFree can be asked); the lost    *)
(* calls are faults, with no fairness.  A recipe writes each as Lose /\    *)
(* one step below, under its trace name, and LBase, LNext, LSpec itself:   *)
(* SANY takes only a constant for a CONSTANT of a module with variables,   *)
(* so no action of the recipe can be passed in, and TLC names an action    *)
(* reached through Loss! as Loss!...                                       *)
(***************************************************************************)
EXTENDS Naturals

CONSTANT MaxLost    \* budget of lost calls
ASSUME MaxLost \in Nat

VARIABLES
    pc,         \* the recipe's control state per client
    soleBlocker,\* the recipe's: the node waited for was the only blocker
    sess,       \* the recipe's: k of the client's session <<c, k>>
    live,       \* ZooKeeper's live sessions
    paused,     \* the recipe's: the client's process is paused
    lost,       \* lost calls so far
    others      \* every other variable of the recipe, as a tuple

\* A ZooKeeper call by c can succeed: its session is live.
Live(c) == <<c, sess[c]>> \in live

\* The budget is a natural number no larger than MaxLost.
LostTypeOK == lost \in 0..MaxLost

\* A lost call spends one unit of the budget.
Lose == lost < MaxLost /\ lost' = lost + 1

(* A call c makes in control state from fails with a lost connection and   *)
(* the client, knowing nothing more, goes on to control state to: nothing  *)
(* else changes, on the server or in the client.                           *)
Moves(c, from, to) ==
    /\ ~paused[c]
    /\ pc[c] = from
    /\ Live(c)
    /\ pc' = [pc EXCEPT ![c] = to]
    /\ UNCHANGED <<soleBlocker, sess, live, paused, others>>

(* The hand-off (GrantOnHeadGone) needs a watch on the client's own node   *)
(* armed on the connection the blocker's event comes on (watchOwn): events *)
(* come in zxid order on one connection only.  That watch lost, and the    *)
(* client lists again after the notification instead.  The recipes do not  *)
(* model the own node's watch (only its owner and the server delete it),   *)
(* so what is lost is the hand-off.                                        *)
HandOffGivenUp(c) ==
    /\ ~paused[c]
    /\ pc[c] \in {"watch", "wait"}
    /\ soleBlocker[c]
    /\ soleBlocker' = [soleBlocker EXCEPT ![c] = FALSE]
    /\ UNCHANGED <<pc, sess, live, paused, others>>

=============================================================================
