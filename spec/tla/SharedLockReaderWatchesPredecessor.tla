------------------ MODULE SharedLockReaderWatchesPredecessor ------------------
(***************************************************************************)
(* MUTANT (safe, but costly): a reader watches its immediate predecessor,  *)
(* like a writer, instead of the last write node before it.  Safety holds: *)
(* a reader still holds only when no write node precedes it, and every     *)
(* wake-up re-lists.  The cost: a reader queued behind another reader      *)
(* waits for that reader's node to go, although no writer is ahead any     *)
(* more.  Behind a writer, readers W R1 R2 R3 are released one at a time:  *)
(* when W leaves only R1 wakes, R2 wakes only when R1 releases, and so on; *)
(* read concurrency is lost and the last reader waits for the sum of the   *)
(* read sections before it.  ReadersNotBlockedByReaders fails to show it.  *)
(***************************************************************************)
EXTENDS SharedLock

(* getChildren; a reader that must wait chooses its immediate predecessor. *)
(* Replaces ListChildren.                                                   *)
ListChildrenPredecessor(c) ==
    /\ ~paused[c]
    /\ pc[c] = "list"
    /\ Live(c)
    /\ IF Blockers(c) = {}
       THEN /\ pc' = [pc EXCEPT ![c] = "grant"]
            /\ UNCHANGED target
       ELSE /\ pc' = [pc EXCEPT ![c] = "watch"]
            /\ target' = [target EXCEPT ![c] =
                   Name(ZK!NodeAt(Max({n.seq : n \in {m \in nodes : m.seq < node[c]}})))]
    /\ UNCHANGED <<zkVars, kind, sess, reqNo, node, soleBlocker, token, paused, faults, pending>>

RWPClientNext(c) ==
    \/ \E k \in Kinds : RequestLock(c, k)
    \/ CreateOk(c)
    \/ CreateReplyLost(c)
    \/ FindOwnNode(c)
    \/ ListChildrenPredecessor(c)
    \/ WatchPredecessor(c)
    \/ PredecessorGone(c)
    \/ IgnoreNotification(c)
    \/ Grant(c)
    \/ Downgrade(c)
    \/ Release(c)
    \/ Cancel(c)
    \/ LearnExpiry(c)

RWPSpec == Init /\ [][(\E c \in Clients : RWPClientNext(c)) \/ EnvNext]_vars

=============================================================================
