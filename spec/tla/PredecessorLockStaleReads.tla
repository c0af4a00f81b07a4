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
(* Cancel after a lost create reply lists the children to find its nodes   *)
(* (LCancel): at the leader's state with CancelSync (impl/zklock syncs     *)
(* first), from any readable snapshot without it (must fail:               *)
(* CancelUnsynced, the listing misses the node and leaves an orphan).      *)
(*                                                                         *)
(* Pauses and the background deletes of AsyncDelete are left out (ASSUME  *)
(* below): the base spec checks them with one server, and no config here   *)
(* explored them.                                                          *)
(***************************************************************************)
EXTENDS PredecessorLock, TLC

CONSTANTS
    SessionOrder,       \* a read is answered from a snapshot >= seen[c]
    DeleteDuplicates,   \* a listing's duplicates of our node are deleted (dupes)
    CancelSync          \* Cancel's listing after a lost create reply is synced
ASSUME {SessionOrder, DeleteDuplicates, CancelSync} \subseteq BOOLEAN
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
(* Cancel, a write whose listing may be a read.  A request whose node is   *)
(* known deletes it (and a duplicate of it) as PredecessorLock's Cancel    *)
(* does.  A request whose node is unknown (node[c] = NoNode: pc "find"     *)
(* after a lost create reply, or "create" after a search that missed it)   *)
(* cannot name its node: impl/zklock's removeOwnNodes lists the children   *)
(* and deletes those carrying its uuid.  The lost reply raised no          *)
(* lastZxid, so the server answering that listing need not have applied    *)
(* the create; removeOwnNodes therefore syncs first, which brings that     *)
(* server up to the leader, where the create was ordered before the sync:  *)
(* the listing is the leader's state, Cancel(c) itself (CancelSync).       *)
(* Without the sync (CancelSync = FALSE, the must-fail CancelUnsynced) the *)
(* listing is answered from any snapshot v in SR!Readable(c), and only the *)
(* nodes of our uuid it shows (those the leader still has) are deleted: a  *)
(* snapshot before the create shows none, and the node stays queued,       *)
(* owned by a live session, with no request behind it.  The listing does   *)
(* not raise seen (conservative, as a watch event); the delete's reply     *)
(* does (Written).  One operator, an IF with the \E inside, so that TLC    *)
(* names the action LCancel either way.                                    *)

(* PredecessorLock's Cancel(c), deleting only the nodes of its uuid that   *)
(* the listing `listed` shows and the leader still has.                    *)
CancelListed(c, listed) ==
    /\ WithCancel
    /\ ~paused[c]
    /\ pc[c] \in Acquiring
    /\ Live(c)
    /\ EndRequest(c, {n \in listed : n.uuid = Uuid(c)} \cap nodes)
    /\ Idle(c)
    /\ UNCHANGED <<sess, reqNo, paused, histVars>>

LCancel(c) ==
    IF node[c] = NoNode /\ ~CancelSync
    THEN \E v \in SR!Readable(c) : CancelListed(c, hist[v]) /\ SR!Written(c)
    ELSE Cancel(c) /\ SR!Written(c)

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
