--------------------- MODULE SharedLockWriterShortcut ---------------------
(***************************************************************************)
(* MUTANT (must fail WriterExclusion): SharedLock!GrantOnHeadGone without  *)
(* its kind conjunct: a writer whose only blocker was a WRITE node takes   *)
(* that node's deletion as its grant, as the Mutex may.  Downgrade deletes *)
(* the write node and creates a read node at the same sequence number in   *)
(* one transaction: the writer's watch fires, the writer holds, and the    *)
(* downgraded holder still reads.                                          *)
(***************************************************************************)
EXTENDS SharedLock

(* GrantOnHeadGone with soleBlocker only, for readers and writers alike.   *)
(* Replaces GrantOnHeadGone.                                               *)
GrantOnAnyHeadGone(c) ==
    /\ ~paused[c]
    /\ ZK!HasEvent(c)
    /\ ZK!NextEvent(c).req = Uuid(c)
    /\ pc[c] = "wait"
    /\ soleBlocker[c]
    /\ ZK!TakeEvent(c)
    /\ pc' = [pc EXCEPT ![c] = "grant"]
    /\ target' = [target EXCEPT ![c] = NoTarget]
    /\ soleBlocker' = [soleBlocker EXCEPT ![c] = FALSE]
    /\ UNCHANGED <<kind, sess, reqNo, node, token, paused, faults>>

WSClientNext(c) ==
    \/ \E k \in Kinds : RequestLock(c, k)
    \/ CreateOk(c)
    \/ CreateReplyLost(c)
    \/ FindOwnNode(c)
    \/ ListChildren(c)
    \/ WatchPredecessor(c)
    \/ PredecessorGone(c)
    \/ GrantOnAnyHeadGone(c)
    \/ IgnoreNotification(c)
    \/ Grant(c)
    \/ Downgrade(c)
    \/ Release(c)
    \/ Cancel(c)
    \/ LearnExpiry(c)

WSSpec == Init /\ [][(\E c \in Clients : WSClientNext(c)) \/ EnvNext]_vars

=============================================================================
