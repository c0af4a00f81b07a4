----------------------- MODULE PredecessorLockStaleReads -----------------------
(***************************************************************************)
(* PredecessorLock with reads answered by a server that lags behind the    *)
(* leader.                                                                 *)
(*                                                                         *)
(* PredecessorLock (through ZooKeeper.tla) sees one linearizable server:   *)
(* every read sees every write committed before it.  A real client is      *)
(* connected to one server of the ensemble, often a follower, which        *)
(* answers reads from the prefix of the committed log it has applied so    *)
(* far.  What ZooKeeper does promise (Programmer's Guide, "Consistency     *)
(* Guarantees": sequential consistency, and single system image: a client  *)
(* never sees an older view of the service, even after it fails over to   *)
(* another server with the same session) is that one client's operations  *)
(* are seen in order: the server that answers a read has applied every     *)
(* write this client saw before, its own create included.                  *)
(*                                                                         *)
(* The ensemble's read view is ZooKeeperReplicas (ZR below): hist, the   *)
(* node set after each write step by zxid, and seen, per client the        *)
(* highest zxid it has seen.  A read of client c is answered from any      *)
(* snapshot v in ZR!Readable(c): seen[c] <= v <= zxid (SessionOrder), and  *)
(* raises seen[c] to v (ZR!Read).  The reads are ListChildren,             *)
(* FindOwnNode, WatchSecond and WatchPredecessor; every other step is      *)
(* PredecessorLock's, logged (ZR!Log).                                     *)
(*                                                                         *)
(* One snapshot per write STEP, not per zxid: DeleteNodes, DeleteLands and *)
(* ExpireSession delete several nodes in one step and advance zxid by one  *)
(* per node (or once for closeSession), but the code sends them as ONE     *)
(* transaction (a multi of deletes, a closeSession), which every server    *)
(* applies atomically: no server ever answers from a state in between, so  *)
(* the last zxid's snapshot is every snapshot there is.  (The zxids in     *)
(* between only keep czxids, and so tokens, numbered as in                 *)
(* PredecessorLock.)                                                       *)
(*                                                                         *)
(* Conservative choices (each allows more behaviours than ZooKeeper has,   *)
(* so safety shown here holds for the real thing):                         *)
(*   - a watch event does not raise seen (the server that delivers it has  *)
(*     applied the delete, so later reads could not show the node again);  *)
(*   - a lost create reply does not raise seen, and neither do pending     *)
(*     deletes landing (their replies go to the background);               *)
(*   - a new session (LearnExpiry) starts from seen = 0, as a new          *)
(*     connection would, at any server.                                    *)
(*                                                                         *)
(* Duplicates.  A lost create reply raises no seen, so StaleFindOwnNode    *)
(* may read a snapshot from before the create, and the client creates     *)
(* again: one request, two nodes, the first AHEAD of the second.  As in    *)
(* impl/zklock (contender.list), the listing that shows the first queues   *)
(* its delete in the background (ZR!QueueDuplicates, with                  *)
(* DeleteDuplicates); the listing chose it, or a node after it, to wait   *)
(* on, and its deletion (LDuplicateLands) fires that watch as any          *)
(* deletion ahead does.  A node whose delete is queued is no orphan        *)
(* (StaleNoOrphans).                                                       *)
(*                                                                         *)
(* Must fail (config NoSessionOrder): with SessionOrder = FALSE a read may *)
(* be answered from any snapshot, even one older than the client's own     *)
(* create (a client reconnecting to a server behind its last zxid, which   *)
(* ZooKeeper refuses): a listing without the nodes ahead of ours grants.   *)
(***************************************************************************)
EXTENDS PredecessorLock, TLC

CONSTANTS
    SessionOrder,       \* a read is answered from a snapshot >= seen[c]
    DeleteDuplicates    \* a listing's duplicates of our node are deleted (ZR!dupes)
ASSUME SessionOrder \in BOOLEAN /\ DeleteDuplicates \in BOOLEAN
ASSUME ~WithPause /\ ~AsyncDelete   \* not combined with stale reads here

VARIABLES hist, seen, dupes

staleVars == <<hist, seen, dupes>>
allVars == <<vars, staleVars>>

\* The ensemble's read view (ZooKeeperReplicas): the leader is
\* PredecessorLock's server.
ZR == INSTANCE ZooKeeperReplicas

(* PredecessorLock's read steps evaluated on snapshot v: nodes is hist[v], *)
(* every other variable is the same.  ListChildren and FindOwnNode are     *)
(* reused unchanged this way (Snap(v)!ListChildren(c)); the watch steps    *)
(* are written out below, because a watch set on a stale server behaves   *)
(* differently when the leader already deleted the node (ZR!ArmAt).        *)
Snap(v) == INSTANCE PredecessorLock WITH nodes <- hist[v]

StaleTypeOK == TypeOK /\ ZR!TypeOK

StaleInit == Init /\ ZR!Init

-----------------------------------------------------------------------------
(* PredecessorLock's steps that read nothing, logged.  Named wrappers so   *)
(* that TLC and the Go model name each action. *)

LRequestLock(c)        == RequestLock(c) /\ UNCHANGED staleVars
LCreateOk(c)           == CreateOk(c) /\ ZR!Log /\ ZR!Replied(c) /\ UNCHANGED dupes
LCreateReplyLost(c)    == CreateReplyLost(c) /\ ZR!Log /\ UNCHANGED <<seen, dupes>>
LPredecessorGone(c)    == PredecessorGone(c) /\ UNCHANGED staleVars
LGrantOnHeadGone(c)    == GrantOnHeadGone(c) /\ UNCHANGED staleVars
LIgnoreNotification(c) == IgnoreNotification(c) /\ UNCHANGED staleVars
LGrant(c)              == Grant(c) /\ UNCHANGED staleVars
LWrite(c)              == Write(c) /\ UNCHANGED staleVars
LRelease(c)            == Release(c) /\ ZR!Log /\ ZR!Replied(c) /\ UNCHANGED dupes
LCancel(c)             == Cancel(c) /\ ZR!Log /\ ZR!Replied(c) /\ UNCHANGED dupes
LLearnExpiry(c)        == LearnExpiry(c) /\ ZR!NewConnection(c) /\ UNCHANGED dupes
LExpireSession(s)      == ExpireSession(s) /\ ZR!Log /\ UNCHANGED seen
                          /\ ZR!DropDuplicates(s)

-----------------------------------------------------------------------------
(* Stale reads, each answered from a snapshot v in ZR!Readable(c).        *)
(* ZR!Read(c, v) comes first: it fixes hist' = hist, so the instance's     *)
(* UNCHANGED of its nodes (hist[v]) is then a check, not an assignment.    *)

(* getChildren answered from snapshot v.  Our own node is in it (SessionOrder: *)
(* v >= seen[c] >= our create's zxid); a node ahead of ours that the       *)
(* leader deleted since only delays us (we watch it, and its deletion      *)
(* reaches us as the server catches up); a node created after v sorts      *)
(* after ours.  A node of our uuid that is not ours (a duplicate) has its  *)
(* delete queued (ZR!QueueDuplicates; impl/zklock: contender.list).        *)
StaleListChildren(c) ==
    \E v \in ZR!Readable(c) :
        /\ ZR!Read(c, v)
        /\ Snap(v)!ListChildren(c)
        /\ UNCHANGED nodes
        /\ ZR!QueueDuplicates(Sess(c), Uuid(c), node[c], v)

(* The children listed after a lost create reply, answered from snapshot v *)
(* (the lost reply did not raise seen: v may precede the create, and the   *)
(* client then creates again; the next listing shows the first node ahead  *)
(* of ours and queues its delete, and Cancel deletes both).                *)
StaleFindOwnNode(c) ==
    \E v \in ZR!Readable(c) :
        /\ ZR!Read(c, v)
        /\ Snap(v)!FindOwnNode(c)
        /\ UNCHANGED <<nodes, dupes>>

(* getData(name, watch=true) on snapshot v: whether the node exists at     *)
(* that server decides the reply; where it does, ZR!ArmAt arms the watch   *)
(* (or queues its event at once when the leader already deleted the node). *)

(* WatchSecond on snapshot v. *)
StaleWatchSecond(c) ==
    \E v \in ZR!Readable(c) :
        /\ ZR!Read(c, v)
        /\ UNCHANGED dupes
        /\ ~paused[c]
        /\ pc[c] = "second"
        /\ Live(c)
        /\ IF ZR!ExistsAt(v, second[c])
           THEN ZR!ArmAt(second[c], Uuid(c))
           ELSE UNCHANGED zkVars
        /\ pc' = [pc EXCEPT ![c] = "watch"]
        /\ UNCHANGED <<sess, reqNo, node, target, second, soleBlocker, token, tenure, paused,
                       histVars, pending>>

(* WatchPredecessor on snapshot v: NoNode there means list again. *)
StaleWatchPredecessor(c) ==
    \E v \in ZR!Readable(c) :
        /\ ZR!Read(c, v)
        /\ UNCHANGED dupes
        /\ ~paused[c]
        /\ pc[c] = "watch"
        /\ Live(c)
        /\ IF ZR!ExistsAt(v, target[c])
           THEN /\ ZR!ArmAt(target[c], Uuid(c))
                /\ pc' = [pc EXCEPT ![c] = "wait"]
                /\ UNCHANGED <<target, second, soleBlocker>>
           ELSE /\ pc' = [pc EXCEPT ![c] = "list"]
                /\ target' = [target EXCEPT ![c] = NoNode]
                /\ second' = [second EXCEPT ![c] = NoNode]
                /\ soleBlocker' = [soleBlocker EXCEPT ![c] = FALSE]
                /\ UNCHANGED zkVars
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

(* A queued delete of a duplicate lands (ZR!DuplicateLands(p)): the node  *)
(* goes, and a watch on it fires.  After one lost reply the duplicate is  *)
(* AHEAD of the node we use (the second create's sequence number is the   *)
(* larger), so the listing chose it, or a node after it, to wait on:      *)
(* impl/zklock's run() waits on it as on any node ahead, and its deletion *)
(* fires our watch.                                                        *)
(* One operator with the \E inside, so that TLC names the action after it *)
(* (the set is a variable's: TLC does not split the \E into actions).     *)
LDuplicateLands ==
    \E p \in dupes : ZR!DuplicateLands(p) /\ UNCHANGED <<clientVars, histVars, pending>>

(* Pauses and the background deletes of AsyncDelete are left out of this  *)
(* module (the ASSUME above): the base spec checks them with one server,   *)
(* and no config here explored them.                                       *)
StaleEnvNext ==
    \/ \E s \in Sessions : LExpireSession(s)
    \/ LDuplicateLands

StaleNext == (\E c \in Clients : StaleClientNext(c)) \/ StaleEnvNext

StaleSpec == StaleInit /\ [][StaleNext]_allVars

-----------------------------------------------------------------------------
(* NoOrphans with the duplicates' deletes: a node whose delete a listing   *)
(* queued (ZR!DeleteQueued) is not an orphan either; it goes when the      *)
(* delete lands or the session ends.                                       *)
StaleNoOrphans ==
    \A n \in nodes :
        LET c == n.owner[1] IN
        n.owner = Sess(c) =>
            \/ n.uuid = Uuid(c) /\ pc[c] # "idle"
            \/ <<n.owner, n.uuid>> \in pending
            \/ ZR!DeleteQueued(n)

=============================================================================
