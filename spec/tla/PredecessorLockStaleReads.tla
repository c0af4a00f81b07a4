----------------------- MODULE PredecessorLockStaleReads -----------------------
(***************************************************************************)
(* PredecessorLock with reads answered by a server that lags behind the    *)
(* leader: the stale-read variant (StaleReads, SR below, which says what   *)
(* it models and abstracts) applied to PredecessorLock.  What is           *)
(* PredecessorLock's own: its reads are ListChildren, FindOwnNode,         *)
(* WatchSecond and WatchPredecessor; its writes with a reply are CreateOk, *)
(* Release and Cancel; DeleteNodes and ExpireSession delete several nodes  *)
(* in one step, advancing zxid once per node, logged once.                 *)
(*                                                                         *)
(* Duplicates.  After one lost reply the duplicate is AHEAD of the node we *)
(* use (the second create's sequence number is the larger), so the        *)
(* listing chose it, or a node after it, to wait on: impl/zklock's run()   *)
(* waits on it as on any node ahead, and its deletion (LDuplicateLands)    *)
(* fires our watch as any deletion ahead does; Cancel deletes both.        *)
(*                                                                         *)
(* Pauses and the background deletes of AsyncDelete are left out (ASSUME  *)
(* below): the base spec checks them with one server, and no config here   *)
(* explored them.                                                          *)
(***************************************************************************)
EXTENDS PredecessorLock, TLC

CONSTANTS
    SessionOrder,       \* a read is answered from a snapshot >= seen[c]
    DeleteDuplicates    \* a listing's duplicates of our node are deleted (dupes)
ASSUME SessionOrder \in BOOLEAN /\ DeleteDuplicates \in BOOLEAN
ASSUME ~WithPause /\ ~AsyncDelete   \* not combined with stale reads here

VARIABLES hist, seen, dupes

allVars == <<vars, hist, seen, dupes>>

SR == INSTANCE StaleReads

(* PredecessorLock's steps evaluated on snapshot v: nodes is hist[v],      *)
(* every other variable is the same (Snap(v)!ListChildren(c)).             *)
Snap(v) == INSTANCE PredecessorLock WITH nodes <- hist[v]

StaleTypeOK == TypeOK /\ SR!TypeOK

StaleInit == Init /\ SR!Init

-----------------------------------------------------------------------------
(* PredecessorLock's steps that read no snapshot, each with what it does  *)
(* to the read view (SR).                                                  *)

LRequestLock(c)        == RequestLock(c) /\ SR!Unlogged
LCreateOk(c)           == CreateOk(c) /\ SR!Written(c)
LCreateReplyLost(c)    == CreateReplyLost(c) /\ SR!Unanswered
LPredecessorGone(c)    == PredecessorGone(c) /\ SR!Unlogged
LGrantOnHeadGone(c)    == GrantOnHeadGone(c) /\ SR!Unlogged
LIgnoreNotification(c) == IgnoreNotification(c) /\ SR!Unlogged
LGrant(c)              == Grant(c) /\ SR!Unlogged
LWrite(c)              == Write(c) /\ SR!Unlogged
LRelease(c)            == Release(c) /\ SR!Written(c)
LCancel(c)             == Cancel(c) /\ SR!Written(c)
LLearnExpiry(c)        == LearnExpiry(c) /\ SR!Reconnected(c)
LExpireSession(s)      == ExpireSession(s) /\ SR!Expired(s)

-----------------------------------------------------------------------------
(* Its reads, each answered from a snapshot v in SR!Readable(c).          *)

StaleListChildren(c) == \E v \in SR!Readable(c) : SR!Listing(c, v, Snap(v)!ListChildren(c))

StaleFindOwnNode(c) == \E v \in SR!Readable(c) : SR!Search(c, v, Snap(v)!FindOwnNode(c))

(* getData(second, watch=true): armed where the node exists there, and on *)
(* to the target either way.                                               *)
StaleWatchSecond(c) ==
    \E v \in SR!Readable(c) :
        /\ SR!WatchAt(c, v, "second", second[c], TRUE, TRUE)
        /\ pc' = [pc EXCEPT ![c] = "watch"]
        /\ UNCHANGED <<sess, reqNo, node, target, second, soleBlocker, token, tenure, paused,
                       histVars, pending>>

(* getData(target, watch=true): the target exists there: wait; NoNode      *)
(* there: list again.                                                      *)
StaleWatchPredecessor(c) ==
    \E v \in SR!Readable(c) :
        /\ SR!WatchAt(c, v, "watch", target[c],
                      /\ pc' = [pc EXCEPT ![c] = "wait"]
                      /\ UNCHANGED <<target, second, soleBlocker>>,
                      /\ pc' = [pc EXCEPT ![c] = "list"]
                      /\ target' = [target EXCEPT ![c] = NoNode]
                      /\ second' = [second EXCEPT ![c] = NoNode]
                      /\ soleBlocker' = [soleBlocker EXCEPT ![c] = FALSE])
        /\ UNCHANGED <<sess, reqNo, node, token, tenure, paused, histVars, pending>>

-----------------------------------------------------------------------------
(* PredecessorLock's Next, in its order, with the reads made stale. *)
StaleClientNext(c) ==
    \/ LRequestLock(c)
    \/ LCreateOk(c)
    \/ LCreateReplyLost(c)
    \/ StaleFindOwnNode(c)
    \/ StaleListChildren(c)
    \/ StaleWatchSecond(c)
    \/ StaleWatchPredecessor(c)
    \/ LPredecessorGone(c)
    \/ LGrantOnHeadGone(c)
    \/ LIgnoreNotification(c)
    \/ LGrant(c)
    \/ LWrite(c)
    \/ LRelease(c)
    \/ LCancel(c)
    \/ LLearnExpiry(c)

(* A queued delete of a duplicate lands.  One operator with the \E inside, *)
(* so that TLC names the action after it (the set is a variable's: TLC     *)
(* does not split the \E into actions).                                    *)
LDuplicateLands ==
    \E p \in dupes : SR!DuplicateLands(p) /\ UNCHANGED <<clientVars, histVars, pending>>

StaleEnvNext ==
    \/ \E s \in Sessions : LExpireSession(s)
    \/ LDuplicateLands

StaleNext == (\E c \in Clients : StaleClientNext(c)) \/ StaleEnvNext

StaleSpec == StaleInit /\ [][StaleNext]_allVars

StaleNoOrphans == SR!StaleNoOrphans

=============================================================================
