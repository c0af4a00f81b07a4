------------------- MODULE SharedLockDowngradeReleaseAcquire -------------------
(***************************************************************************)
(* MUTANT (must fail WriterExclusion): a downgrade done as release of the  *)
(* write node plus acquisition of a NEW sequential read node, while the    *)
(* client goes on believing it holds (as a reader).  The new read node     *)
(* lands at the END of the queue, behind a writer that was waiting on the  *)
(* write node; that writer wakes, finds itself first and holds while the   *)
(* downgraded reader still reads.  Apache Curator's CURATOR-621.           *)
(***************************************************************************)
EXTENDS SharedLock

(* delete(<write node>) then create(`_c_<uuid>-__READ__`,                  *)
(* EPHEMERAL_SEQUENTIAL) (collapsed into one step: the interleaving        *)
(* between them is not needed to break exclusion); the lease is kept.      *)
(* Two transactions in one step, so no one ZK write step fits: the node   *)
(* change and its watches are ZK!Txn, the counter and the zxid (two        *)
(* transactions) are advanced here.  Replaces Downgrade.                   *)
DowngradeByReleaseAcquire(c) ==
    /\ WithDowngrade
    /\ ~paused[c]
    /\ Holding(c, "write")
    /\ Live(c)
    /\ nextSeq < MaxSeq
    /\ LET own == ZK!NodeAt(node[c])
       IN  ZK!Txn({own}, {[own EXCEPT !.seq = nextSeq, !.kind = "read",
                                      !.czxid = zxid + 2]}, watches)
    /\ nextSeq' = nextSeq + 1
    /\ zxid' = zxid + 2
    /\ kind' = [kind EXCEPT ![c] = "read"]
    /\ node' = [node EXCEPT ![c] = nextSeq]
    /\ UNCHANGED <<live, pc, sess, reqNo, target, soleBlocker, token, paused, faults, pending>>

RAClientNext(c) ==
    \/ \E k \in Kinds : RequestLock(c, k)
    \/ CreateOk(c)
    \/ CreateReplyLost(c)
    \/ FindOwnNode(c)
    \/ ListChildren(c)
    \/ WatchPredecessor(c)
    \/ PredecessorGone(c)
    \/ IgnoreNotification(c)
    \/ Grant(c)
    \/ DowngradeByReleaseAcquire(c)
    \/ Release(c)
    \/ Cancel(c)
    \/ LearnExpiry(c)

RASpec == Init /\ [][(\E c \in Clients : RAClientNext(c)) \/ EnvNext]_vars

=============================================================================
