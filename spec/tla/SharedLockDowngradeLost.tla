----------------------- MODULE SharedLockDowngradeLost -----------------------
(***************************************************************************)
(* MUTANT (must fail WriterExclusion): the rule impl/zklock followed until *)
(* it was fixed, when Downgrade's outcome is unknown.  The reply is lost and the *)
(* context ends before the client learns whether it was applied; the lease *)
(* stays a write lease.  When the multi was applied, the write node is     *)
(* gone and a read node holds its place: a reader queued behind it wakes,  *)
(* lists and holds, while the client still believes it writes.            *)
(***************************************************************************)
EXTENDS SharedLock

(* DowngradeReplyLost with the client's kind left as it was.  Replaces     *)
(* DowngradeReplyLost.                                                      *)
DowngradeReplyLostKeepsWrite(c) ==
    /\ WithDowngrade
    /\ WithReplyLoss
    /\ ~paused[c]
    /\ Holding(c, "write")
    /\ Live(c)
    /\ Fault
    /\ LET own == ZK!NodeAt(node[c])
       IN  ZK!Multi({own}, LAMBDA z : {[own EXCEPT !.kind = "read", !.czxid = z]})
    /\ UNCHANGED <<pc, kind, sess, reqNo, node, target, soleBlocker, token, paused>>

DLClientNext(c) ==
    \/ \E k \in Kinds : RequestLock(c, k)
    \/ CreateOk(c)
    \/ CreateReplyLost(c)
    \/ FindOwnNode(c)
    \/ ListChildren(c)
    \/ WatchPredecessor(c)
    \/ PredecessorGone(c)
    \/ GrantOnHeadGone(c)
    \/ IgnoreNotification(c)
    \/ Grant(c)
    \/ Downgrade(c)
    \/ DowngradeReplyLostKeepsWrite(c)
    \/ Release(c)
    \/ Cancel(c)
    \/ LearnExpiry(c)

DLSpec == Init /\ [][(\E c \in Clients : DLClientNext(c)) \/ EnvNext]_vars

=============================================================================
