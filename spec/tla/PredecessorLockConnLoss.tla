------------------------ MODULE PredecessorLockConnLoss ------------------------
(***************************************************************************)
(* PredecessorLock with connection loss on every call of an acquisition,   *)
(* each recovered as impl/zklock recovers it: ConnLoss (what go-zookeeper  *)
(* and the server do on a lost connection, the budget, the steps every     *)
(* recipe shares) on PredecessorLock's variables.  What is Mutex's own:    *)
(*   second watch    getData+watch, retried after the predecessor's (the   *)
(*                   two are in flight together): WatchSecondLost below    *)
(*                   when the retry finds the node gone; a retry that arms *)
(*                   it is WatchSecond taken earlier (the node existed     *)
(*                   then: nodes before ours are never created)            *)
(*   predecessor     listing again forgets the second too                  *)
(*   watch           (WatchPredecessorLostStep)                            *)
(*   release, cancel without AsyncDelete, the step that lands the delete   *)
(* WatchPredecessorLost without the budget is WatchPredecessorLostStep,    *)
(* with which PredecessorLockTrace matches the trace event                 *)
(* WatchPredecessor "lost".                                                *)
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

(* getData(<second>, watch=true) fails with a lost connection; watchBoth   *)
(* retries it once the predecessor's getData has answered, and the retry   *)
(* finds the node gone (it went after the predecessor's watch was set):    *)
(* the client waits with no watch on the node two ahead.  (A retry that    *)
(* arms the watch is WatchSecond's step: the node existed since the        *)
(* listing.)                                                               *)
WatchSecondLost(c) == Loss!Lose /\ Loss!Moves(c, "second", "watch")

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
