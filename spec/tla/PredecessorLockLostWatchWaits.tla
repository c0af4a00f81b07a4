--------------------- MODULE PredecessorLockLostWatchWaits ---------------------
(***************************************************************************)
(* MUTANT (must fail StarvationFree): a getData on the predecessor whose   *)
(* reply is lost is taken as a watch set, and the client waits.  The       *)
(* server dropped whatever watch it had armed with the connection, and     *)
(* go-zookeeper registers a watch only with its reply, so no event ever    *)
(* comes: the client waits forever, though its predecessor is released.   *)
(* impl/zklock lists again instead (PredecessorLockConnLoss's              *)
(* WatchPredecessorLost); the code mutant lost-watch-waits does this, and *)
(* TestWatchReplyLost kills it.                                            *)
(***************************************************************************)
EXTENDS PredecessorLockConnLoss

(* WatchPredecessorLost taken as armed: wait, with nothing armed. *)
WatchPredecessorLostWaits(c) == Loss!Lose /\ Loss!Moves(c, "watch", "wait")

LWNext ==
    \/ LBase
    \/ \E c \in Clients :
          \/ CreateRequestLost(c)
          \/ WatchSecondLost(c)
          \/ WatchPredecessorLostWaits(c)
          \/ HandOffLost(c)

LWFairSpec == LInit /\ [][LWNext]_lVars /\ Fairness

=============================================================================
