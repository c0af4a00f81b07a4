------------------------ MODULE PredecessorLockConnLoss ------------------------
(***************************************************************************)
(* PredecessorLock with connection loss on every call of an acquisition,   *)
(* each recovered as impl/zklock recovers it: ConnLoss (what go-zookeeper  *)
(* and the server do on a lost connection, the budget, the steps every     *)
(* recipe shares) on PredecessorLock's variables.  What is Mutex's own:    *)
(*   second watch    getData+watch, NOT retried (a retry would read after  *)
(*                   the predecessor's getData): wait with no watch on the *)
(*                   node two ahead: WatchSecondLost below                 *)
(*   predecessor     listing again forgets the second too                  *)
(*   watch           (WatchPredecessorLostStep)                            *)
(*   release, cancel without AsyncDelete, the step that lands the delete   *)
(* WatchPredecessorLost and WatchSecondLost without the budget are         *)
(* WatchPredecessorLostStep and WatchSecondLostStep, with which            *)
(* PredecessorLockTrace matches the trace events WatchPredecessor and      *)
(* WatchSecond "lost".                                                     *)
(***************************************************************************)
EXTENDS PredecessorLock

CONSTANT MaxLost    \* budget of lost calls
ASSUME MaxLost \in Nat

VARIABLE lost       \* lost calls so far

Loss == INSTANCE ConnLoss
    WITH others <- <<nodes, nextSeq, zxid, watches, inbox, pending, reqNo, node, target, second,
                     token, tenure, histVars>>

lVars == <<vars, lost>>

LInit == Init /\ lost = 0

LTypeOK == TypeOK /\ Loss!LostTypeOK

(* create's request lost, or the create not applied (ErrConnectionClosed   *)
(* before the server took it): contender.create sees a transient error and *)
(* looks for its node by uuid (findOwnNode), finding none: FindOwnNode's   *)
(* second branch, back to "create".                                        *)
CreateRequestLost(c) == Loss!Lose /\ Loss!Moves(c, "create", "find")

(* getData(<second>, watch=true) fails with a lost connection: whatever    *)
(* watch the server armed went with the connection, and watchBoth does not *)
(* retry it (the retry would read after the predecessor's getData), so the *)
(* client goes on to its predecessor with no watch on the node two ahead   *)
(* (trace: WatchSecond "lost").  WatchSecondLostStep is that step without  *)
(* the budget, which PredecessorLockTrace matches.                         *)
WatchSecondLostStep(c) == Loss!Moves(c, "second", "watch")

WatchSecondLost(c) == Loss!Lose /\ WatchSecondLostStep(c)

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

WatchPredecessorLost(c) == Loss!Lose /\ WatchPredecessorLostStep(c)

(* The own node's watch lost, or a reconnect before the predecessor's      *)
(* event is taken: no hand-off this time (Mutex always arms the watch).    *)
HandOffLost(c) == Loss!Lose /\ Loss!HandOffGivenUp(c)

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
