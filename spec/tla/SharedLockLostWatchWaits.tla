----------------------- MODULE SharedLockLostWatchWaits -----------------------
(***************************************************************************)
(* MUTANT (must fail StarvationFree): a getData on the node a reader or a  *)
(* writer of the read/write lock waits for, whose reply is lost, is taken  *)
(* as a watch set, and the client waits.  The server dropped whatever      *)
(* watch it had armed with the connection, and go-zookeeper registers a    *)
(* watch only with its reply, so no event ever comes: the client waits     *)
(* forever though the node it waits for is gone.  impl/zklock lists again  *)
(* instead (SharedLockConnLoss's WatchPredecessorLost); the code mutant    *)
(* lost-watch-waits does this, and TestRWWatchReplyLost kills it too.      *)
(***************************************************************************)
EXTENDS SharedLockConnLoss

(* WatchPredecessorLost taken as armed: wait, with nothing armed. *)
WatchPredecessorLostWaits(c) == Loss!Lose /\ Loss!Moves(c, "watch", "wait")

LWNext ==
    \/ LBase
    \/ \E c \in Clients :
          \/ CreateRequestLost(c)
          \/ WatchPredecessorLostWaits(c)
          \/ HandOffLost(c)

LWFairSpec == LInit /\ [][LWNext]_lVars /\ Fairness

=============================================================================
