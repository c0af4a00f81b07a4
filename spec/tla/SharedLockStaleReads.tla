------------------------- MODULE SharedLockStaleReads -------------------------
(***************************************************************************)
(* SharedLock with reads answered by a server that lags behind the leader: *)
(* the stale-read variant (StaleReads, SR below, which says what it models *)
(* and abstracts) applied to SharedLock.  What is SharedLock's own: its    *)
(* reads are ListChildren, FindOwnNode and WatchPredecessor; its writes    *)
(* with a reply are CreateOk, Downgrade, Release and Cancel.               *)
(*                                                                         *)
(* Downgrade is one multi: one write transaction, one zxid, ONE snapshot   *)
(* in which the write node is already a read node at the same sequence     *)
(* number.  No server ever answers from a state with neither node (which  *)
(* would let a writer queued behind it see nothing ahead and be granted    *)
(* beside the downgraded reader).  Its reply raises seen; a lost reply     *)
(* (DowngradeReplyLost) does not, and the lease is a read lease either     *)
(* way (SharedLock's rule).  The holder reads nothing before it releases, *)
(* and the release's reply raises seen past the multi, so a lost reply     *)
(* changes nothing the downgrader reads; other clients' listings show the  *)
(* write node (a snapshot before the multi) or the read node, never        *)
(* neither.                                                                *)
(*                                                                         *)
(* Grant stays SharedLock's Grant, on the leader's nodes: its getData of   *)
(* the own node only reads the token, the node's czxid, which never        *)
(* changes while the node exists (the code usually has it from the        *)
(* create's reply), and every snapshot this client may read (>= what it    *)
(* has seen: its create, or the listing that found its node) has the node. *)
(*                                                                         *)
(* Duplicates.  A reader is not blocked by its first (read) node: it is    *)
(* granted on the second and releases only that one; without the delete   *)
(* of the first (config Orphan) it outlives the request.  A writer's       *)
(* first node blocks it, as its predecessor, until its delete lands.       *)
(*                                                                         *)
(* Cancel after a lost create reply lists the children to find its nodes   *)
(* (LCancel): at the leader's state with CancelSync (impl/zklock syncs     *)
(* first), from any readable snapshot without it (must fail:               *)
(* CancelUnsynced), as in PredecessorLockStaleReads.                       *)
(*                                                                         *)
(* Not combined with pauses or AsyncDelete's background deletes (ASSUME    *)
(* below): the base spec checks them with one server, and no config here  *)
(* explores them (as in PredecessorLockStaleReads).                        *)
(***************************************************************************)
EXTENDS SharedLock, TLC

CONSTANTS
    SessionOrder,       \* a read is answered from a snapshot >= seen[c]
    DeleteDuplicates,   \* a listing's duplicates of our node are deleted (dupes)
    CancelSync          \* Cancel's listing after a lost create reply is synced
ASSUME {SessionOrder, DeleteDuplicates, CancelSync} \subseteq BOOLEAN
ASSUME ~WithPause /\ ~AsyncDelete   \* not combined with stale reads here

VARIABLES hist, seen, dupes

allVars == <<vars, hist, seen, dupes>>

SR == INSTANCE StaleReads

(* SharedLock's steps evaluated on snapshot v: nodes is hist[v], every     *)
(* other variable is the same (Snap(v)!ListChildren(c)).                   *)
Snap(v) == INSTANCE SharedLock WITH nodes <- hist[v]

StaleTypeOK == TypeOK /\ SR!TypeOK

StaleInit == Init /\ SR!Init

-----------------------------------------------------------------------------
(* SharedLock's steps that read no snapshot, each with what it does to    *)
(* the read view (SR).                                                     *)

LRequestLock(c, k)     == RequestLock(c, k) /\ SR!Unlogged
LCreateOk(c)           == CreateOk(c) /\ SR!Written(c)
LCreateReplyLost(c)    == CreateReplyLost(c) /\ SR!Unanswered
LPredecessorGone(c)    == PredecessorGone(c) /\ SR!Unlogged
LGrantOnHeadGone(c)    == GrantOnHeadGone(c) /\ SR!Unlogged
LIgnoreNotification(c) == IgnoreNotification(c) /\ SR!Unlogged
LGrant(c)              == Grant(c) /\ SR!Unlogged
LDowngrade(c)          == Downgrade(c) /\ SR!Written(c)
LDowngradeReplyLost(c) == DowngradeReplyLost(c) /\ SR!Unanswered
LRelease(c)            == Release(c) /\ SR!Written(c)
LLearnExpiry(c)        == LearnExpiry(c) /\ SR!Reconnected(c)
LExpireSession(s)      == ExpireSession(s) /\ SR!Expired(s)

-----------------------------------------------------------------------------
(* Cancel, a write whose listing may be a read (PredecessorLockStaleReads  *)
(* says it at length).  A known node is deleted as SharedLock's Cancel     *)
(* does.  An unknown one (node[c] = NoNode, after a lost create reply) is  *)
(* found by impl/zklock's removeOwnNodes in a listing after a sync, so     *)
(* the listing is the leader's state (CancelSync: Cancel(c) itself);       *)
(* without the sync (the must-fail CancelUnsynced) it is answered from any *)
(* snapshot v in SR!Readable(c), one before the create showing nothing to  *)
(* delete.  The listing raises no seen; the delete's reply does.  One      *)
(* operator, an IF with the \E inside: TLC names the action LCancel.       *)

(* SharedLock's Cancel(c), deleting only the nodes of its uuid that        *)
(* the listing `listed` shows and the leader still has.                    *)
CancelListed(c, listed) ==
    /\ WithCancel
    /\ ~paused[c]
    /\ pc[c] \in Acquiring
    /\ Live(c)
    /\ EndRequest(c, {n \in listed : n.uuid = Uuid(c)} \cap nodes)
    /\ Idle(c)
    /\ UNCHANGED <<sess, reqNo, paused, faults>>

LCancel(c) ==
    IF node[c] = NoNode /\ ~CancelSync
    THEN \E v \in SR!Readable(c) : CancelListed(c, hist[v]) /\ SR!Written(c)
    ELSE Cancel(c) /\ SR!Written(c)

-----------------------------------------------------------------------------
(* Its reads, each answered from a snapshot v in SR!Readable(c).  A        *)
(* blocker the leader deleted or downgraded since the snapshot only delays *)
(* us: we watch it, and its event reaches us as the server catches up.     *)

StaleListChildren(c) == \E v \in SR!Readable(c) : SR!Listing(c, v, Snap(v)!ListChildren(c))

StaleFindOwnNode(c) == \E v \in SR!Readable(c) : SR!Search(c, v, Snap(v)!FindOwnNode(c))

(* getData(target, watch=true): the target exists there: wait; NoNode      *)
(* there: list again.                                                      *)
StaleWatchPredecessor(c) ==
    \E v \in SR!Readable(c) :
        /\ SR!WatchAt(c, v, "watch", target[c],
                      /\ pc' = [pc EXCEPT ![c] = "wait"]
                      /\ UNCHANGED <<target, soleBlocker>>,
                      /\ pc' = [pc EXCEPT ![c] = "list"]
                      /\ target' = [target EXCEPT ![c] = NoTarget]
                      /\ soleBlocker' = [soleBlocker EXCEPT ![c] = FALSE])
        /\ UNCHANGED <<kind, sess, reqNo, node, token, paused, faults>>

-----------------------------------------------------------------------------
(* SharedLock's ClientNext, in its order, with the reads made stale. *)
StaleClientNext(c) ==
    \/ \E k \in Kinds : LRequestLock(c, k)
    \/ LCreateOk(c)
    \/ LCreateReplyLost(c)
    \/ StaleFindOwnNode(c)
    \/ StaleListChildren(c)
    \/ StaleWatchPredecessor(c)
    \/ LPredecessorGone(c)
    \/ LGrantOnHeadGone(c)
    \/ LIgnoreNotification(c)
    \/ LGrant(c)
    \/ LDowngrade(c)
    \/ LDowngradeReplyLost(c)
    \/ LRelease(c)
    \/ LCancel(c)
    \/ LLearnExpiry(c)

(* A queued delete of a duplicate lands (a writer's duplicate is usually   *)
(* ahead of its node and may be what it waits on; a reader's is a read     *)
(* node, which blocks only writers).  One operator with the \E inside, so  *)
(* that TLC names the action after it (the set is a variable's: TLC does  *)
(* not split the \E into actions).                                         *)
LDuplicateLands ==
    \E p \in dupes : SR!DuplicateLands(p) /\ UNCHANGED <<clientVars, faults, pending>>

StaleEnvNext ==
    \/ \E s \in Sessions : LExpireSession(s)
    \/ LDuplicateLands

StaleNext == (\E c \in Clients : StaleClientNext(c)) \/ StaleEnvNext

StaleSpec == StaleInit /\ [][StaleNext]_allVars

(* Fairness for the liveness configs: a queued duplicate delete lands (the *)
(* background resends it while its session lives), and an abandoned       *)
(* session is eventually expired by the server (SharedLock's rule).  No    *)
(* client step is fair: NoOrphansEventually is about requests that ended.  *)
StaleFairness ==
    /\ WF_allVars(LDuplicateLands)
    /\ WF_allVars(\E s \in Sessions : Abandoned(s) /\ LExpireSession(s))

StaleFairSpec == StaleSpec /\ StaleFairness

StaleNoOrphans == SR!StaleNoOrphans

=============================================================================
