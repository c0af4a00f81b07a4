------------------------- MODULE SharedLockStaleReads -------------------------
(***************************************************************************)
(* SharedLock with reads answered by a server that lags behind the leader. *)
(*                                                                         *)
(* SharedLock (through ZooKeeper.tla) sees one linearizable server.  Here  *)
(* that server is the leader of an ensemble, and every read of a client is *)
(* answered by the server its session is connected to, from a prefix of    *)
(* the leader's log that the session order allows: ZooKeeperReplicas (ZR   *)
(* below), shared with PredecessorLockStaleReads.  The reads:              *)
(*   StaleListChildren      getChildren, the listing that picks a blocker; *)
(*   StaleFindOwnNode       getChildren after a lost create reply;        *)
(*   StaleWatchPredecessor  getData(blocker, watch=true).                  *)
(* The listings reuse SharedLock's steps unchanged through                 *)
(* Snap(v) == INSTANCE SharedLock WITH nodes <- hist[v]; the watch is      *)
(* written out, because a watch set on a lagging server where the node     *)
(* still exists, after the leader deleted it, fires when that server       *)
(* applies the delete (ZR!ArmAt).  Every other step is SharedLock's,       *)
(* logged (ZR!Log); a write whose reply arrives raises what the client has *)
(* seen (ZR!Replied).                                                      *)
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
(* Conservative choices (more behaviours than ZooKeeper has, so safety     *)
(* shown here holds for the real thing): a watch event does not raise      *)
(* seen; a lost create or downgrade reply does not; a new session          *)
(* (LLearnExpiry) starts from seen = 0, at any server.                     *)
(*                                                                         *)
(* Duplicates.  A lost create reply raises no seen, so StaleFindOwnNode    *)
(* may read a snapshot from before the create, and the client creates     *)
(* again: one request, two nodes.  A reader is not blocked by its first   *)
(* (read) node: it is granted on the second and releases only that one.   *)
(* As in impl/zklock (contender.list), the listing that shows the first   *)
(* queues its delete in the background (ZR!QueueDuplicates, with           *)
(* DeleteDuplicates), which lands (LDuplicateLands) or goes with the       *)
(* session; a node whose delete is queued is no orphan (StaleNoOrphans).   *)
(* Without it (config Orphan) the first node outlives the request.         *)
(*                                                                         *)
(* Not combined with pauses or AsyncDelete's background deletes (ASSUME    *)
(* below): the base spec checks them with one server, and no config here  *)
(* explores them (as in PredecessorLockStaleReads).                        *)
(*                                                                         *)
(* Must fail (config NoSessionOrder): with SessionOrder = FALSE a read may *)
(* be answered from any snapshot, even one older than the client's own     *)
(* create (a reconnection to a server behind the client's last zxid, which *)
(* ZooKeeper refuses): a writer's listing without the nodes ahead of it    *)
(* grants.                                                                 *)
(***************************************************************************)
EXTENDS SharedLock, TLC

CONSTANTS
    SessionOrder,       \* a read is answered from a snapshot >= seen[c]
    DeleteDuplicates    \* a listing's duplicates of our node are deleted (ZR!dupes)
ASSUME SessionOrder \in BOOLEAN /\ DeleteDuplicates \in BOOLEAN
ASSUME ~WithPause /\ ~AsyncDelete   \* not combined with stale reads here

VARIABLES hist, seen, dupes

staleVars == <<hist, seen, dupes>>
allVars == <<vars, staleVars>>

\* The ensemble's read view (ZooKeeperReplicas): the leader is SharedLock's
\* server.
ZR == INSTANCE ZooKeeperReplicas

(* SharedLock's read steps evaluated on snapshot v: nodes is hist[v],      *)
(* every other variable is the same (Snap(v)!ListChildren(c)).             *)
Snap(v) == INSTANCE SharedLock WITH nodes <- hist[v]

StaleTypeOK == TypeOK /\ ZR!TypeOK

StaleInit == Init /\ ZR!Init

-----------------------------------------------------------------------------
(* SharedLock's steps that read nothing, logged.  Named wrappers so that   *)
(* TLC and the Go model name each action.                                  *)

LRequestLock(c, k)     == RequestLock(c, k) /\ UNCHANGED staleVars
LCreateOk(c)           == CreateOk(c) /\ ZR!Log /\ ZR!Replied(c) /\ UNCHANGED dupes
LCreateReplyLost(c)    == CreateReplyLost(c) /\ ZR!Log /\ UNCHANGED <<seen, dupes>>
LPredecessorGone(c)    == PredecessorGone(c) /\ UNCHANGED staleVars
LGrantOnHeadGone(c)    == GrantOnHeadGone(c) /\ UNCHANGED staleVars
LIgnoreNotification(c) == IgnoreNotification(c) /\ UNCHANGED staleVars
LGrant(c)              == Grant(c) /\ UNCHANGED staleVars
LDowngrade(c)          == Downgrade(c) /\ ZR!Log /\ ZR!Replied(c) /\ UNCHANGED dupes
LDowngradeReplyLost(c) == DowngradeReplyLost(c) /\ ZR!Log /\ UNCHANGED <<seen, dupes>>
LRelease(c)            == Release(c) /\ ZR!Log /\ ZR!Replied(c) /\ UNCHANGED dupes
LCancel(c)             == Cancel(c) /\ ZR!Log /\ ZR!Replied(c) /\ UNCHANGED dupes
LLearnExpiry(c)        == LearnExpiry(c) /\ ZR!NewConnection(c) /\ UNCHANGED dupes
LExpireSession(s)      == ExpireSession(s) /\ ZR!Log /\ UNCHANGED seen
                          /\ ZR!DropDuplicates(s)

-----------------------------------------------------------------------------
(* Stale reads, each answered from a snapshot v in ZR!Readable(c).        *)
(* ZR!Read(c, v) comes first: it fixes hist' = hist, so the instance's     *)
(* UNCHANGED of its nodes (hist[v]) is then a check, not an assignment.    *)

(* getChildren answered from snapshot v.  Our own node is in it            *)
(* (SessionOrder: v >= seen[c] >= our create's zxid, or the listing that   *)
(* found it); a blocker the leader deleted or downgraded since only delays *)
(* us (we watch it, and its deletion reaches us as the server catches      *)
(* up); a node created after v sorts after ours.  A node of our uuid that  *)
(* is not ours (a duplicate) has its delete queued (ZR!QueueDuplicates;    *)
(* impl/zklock: contender.list).                                           *)
StaleListChildren(c) ==
    \E v \in ZR!Readable(c) :
        /\ ZR!Read(c, v)
        /\ Snap(v)!ListChildren(c)
        /\ UNCHANGED nodes
        /\ ZR!QueueDuplicates(Sess(c), Uuid(c), node[c], v)

(* The children listed after a lost create reply, answered from snapshot v *)
(* (the lost reply did not raise seen: v may precede the create, and the   *)
(* client then creates again; its first node then blocks it, as a writer's *)
(* predecessor or, for a reader, not at all, until the next listing queues *)
(* its delete or Cancel deletes both).                                     *)
StaleFindOwnNode(c) ==
    \E v \in ZR!Readable(c) :
        /\ ZR!Read(c, v)
        /\ Snap(v)!FindOwnNode(c)
        /\ UNCHANGED <<nodes, dupes>>

(* getData(target, watch=true) on snapshot v: the name exists there: the   *)
(* watch is armed (ZR!ArmAt: at the leader, or its event queued at once    *)
(* when the leader already deleted the node, e.g. downgraded it); wait.    *)
(* NoNode there: list again.                                               *)
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
                /\ UNCHANGED <<target, soleBlocker>>
           ELSE /\ pc' = [pc EXCEPT ![c] = "list"]
                /\ target' = [target EXCEPT ![c] = NoTarget]
                /\ soleBlocker' = [soleBlocker EXCEPT ![c] = FALSE]
                /\ UNCHANGED <<zkVars, pending>>
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

(* A queued delete of a duplicate lands (ZR!DuplicateLands(p)): the node  *)
(* goes, and a watch on it fires (a writer's duplicate is usually ahead of *)
(* its node and may be what it waits on; a reader's is a read node, which  *)
(* blocks only writers).                                                   *)
(* One operator with the \E inside, so that TLC names the action after it *)
(* (the set is a variable's: TLC does not split the \E into actions).     *)
LDuplicateLands ==
    \E p \in dupes : ZR!DuplicateLands(p) /\ UNCHANGED <<clientVars, faults, pending>>

(* No pauses and no background deletes of AsyncDelete (the ASSUME above). *)
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
