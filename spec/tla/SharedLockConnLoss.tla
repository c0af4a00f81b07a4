--------------------------- MODULE SharedLockConnLoss ---------------------------
(***************************************************************************)
(* SharedLock with connection loss on the calls of an acquisition, each    *)
(* recovered as impl/zklock's RWMutex recovers it: ConnLoss (what          *)
(* go-zookeeper and the server do on a lost connection, the budget, the    *)
(* steps every recipe shares) on SharedLock's variables.  RWMutex waits    *)
(* through the code Mutex waits through (impl/zklock/contender.go), with   *)
(* two differences that matter here: it never watches a second node        *)
(* (twoAhead is "" for a read/write lock), so there is no WatchSecondLost; *)
(* and it arms the watch on its own node, which the hand-off needs, only   *)
(* when the hand-off may be taken (kind.go handOff: one blocker, and the   *)
(* waiter a reader or the blocker a read node), so HandOffLost is enabled  *)
(* only then.  A downgrade's multi is retried until its outcome is known;  *)
(* an outcome left unknown is SharedLock's DowngradeReplyLost.  A          *)
(* downgraded write node's name is gone: its event comes at reconnect.     *)
(* WatchPredecessorLostStep, without the budget, is the step               *)
(* SharedLockTrace matches the trace event WatchPredecessor "lost" with.   *)
(***************************************************************************)
EXTENDS SharedLock

CONSTANT MaxLost    \* budget of lost calls
ASSUME MaxLost \in Nat

VARIABLE lost       \* lost calls so far

Loss == INSTANCE ConnLoss
    WITH others <- <<nodes, nextSeq, zxid, watches, inbox, pending, kind, reqNo, node, target,
                     token, faults>>

lVars == <<vars, lost>>

LInit == Init /\ lost = 0

LTypeOK == TypeOK /\ Loss!LostTypeOK

(* create's request lost, or the create not applied: contender.create sees *)
(* a transient error and looks for its node by uuid (findOwnNode), finding *)
(* none: FindOwnNode's second branch, back to "create".                    *)
CreateRequestLost(c) == Loss!Lose /\ Loss!Moves(c, "create", "find")

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

WatchPredecessorLost(c) == Loss!Lose /\ WatchPredecessorLostStep(c)

(* The own node's watch lost, or a reconnect before the blocker's event is *)
(* taken, while RWMutex has it armed: only when the hand-off may be taken  *)
(* (GrantOnHeadGone's kind rule).                                          *)
HandOffLost(c) ==
    /\ Loss!Lose
    /\ Loss!HandOffGivenUp(c)
    /\ kind[c] = "read" \/ target[c][2] = "read"

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
