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
(* This module adds                                                        *)
(*   hist   the node set after each write transaction: a function from the *)
(*          zxids of write steps to node sets (hist[zxid] = nodes always); *)
(*   seen   per client, the highest zxid it has seen (the ZooKeeper        *)
(*          client's lastZxid): the zxid of its write replies and the      *)
(*          snapshot its reads were answered from.                         *)
(* A read of client c is answered from any snapshot v in Readable(c):      *)
(* seen[c] <= v <= zxid (SessionOrder), and raises seen[c] to v.  The      *)
(* reads are ListChildren, FindOwnNode, WatchSecond and WatchPredecessor;  *)
(* every other step is PredecessorLock's, logged (Logged).                 *)
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
(* Must fail (config NoSessionOrder): with SessionOrder = FALSE a read may *)
(* be answered from any snapshot, even one older than the client's own     *)
(* create (a client reconnecting to a server behind its last zxid, which   *)
(* ZooKeeper refuses): a listing without the nodes ahead of ours grants.   *)
(***************************************************************************)
EXTENDS PredecessorLock, TLC

CONSTANT SessionOrder   \* a read is answered from a snapshot >= seen[c]
ASSUME SessionOrder \in BOOLEAN
ASSUME ~WithPause /\ ~AsyncDelete   \* not combined with stale reads here

VARIABLES hist, seen

staleVars == <<hist, seen>>
allVars == <<vars, staleVars>>

(* The snapshots a read of c may be answered from: any server whose log    *)
(* reaches at least what c has seen (SessionOrder), or, in the control,    *)
(* any snapshot at all.                                                    *)
Readable(c) == {v \in DOMAIN hist : SessionOrder => seen[c] <= v}

(* PredecessorLock's read steps evaluated on snapshot v: nodes is hist[v], *)
(* every other variable is the same.  ListChildren and FindOwnNode are     *)
(* reused unchanged this way (Snap(v)!ListChildren(c)); the watch steps    *)
(* are written out below, because a watch set on a stale server behaves   *)
(* differently when the leader already deleted the node.                   *)
Snap(v) == INSTANCE PredecessorLock WITH nodes <- hist[v]

StaleTypeOK ==
    /\ TypeOK
    /\ zxid \in DOMAIN hist /\ hist[zxid] = nodes
    /\ \A v \in DOMAIN hist : v <= zxid
    /\ seen \in [Clients -> 0..zxid]

StaleInit ==
    /\ Init
    /\ hist = (0 :> {})
    /\ seen = [c \in Clients |-> 0]

(* A write step logs the node set it leaves under its last zxid.  Every    *)
(* step that changes nodes advances zxid (ZooKeeper.tla), and a step that  *)
(* leaves zxid alone changes no node.                                      *)
Log == hist' = IF zxid' = zxid THEN hist ELSE hist @@ (zxid' :> nodes')

(* The reply of c's write raises seen[c] to the write's zxid. *)
Replied(c) == seen' = IF zxid' = zxid THEN seen ELSE [seen EXCEPT ![c] = zxid']

-----------------------------------------------------------------------------
(* PredecessorLock's steps that read nothing, logged.  Named wrappers so   *)
(* that TLC and the Go model name each action. *)

LRequestLock(c)        == RequestLock(c) /\ UNCHANGED staleVars
LCreateOk(c)           == CreateOk(c) /\ Log /\ Replied(c)
LCreateReplyLost(c)    == CreateReplyLost(c) /\ Log /\ UNCHANGED seen
LPredecessorGone(c)    == PredecessorGone(c) /\ UNCHANGED staleVars
LGrantOnHeadGone(c)    == GrantOnHeadGone(c) /\ UNCHANGED staleVars
LIgnoreNotification(c) == IgnoreNotification(c) /\ UNCHANGED staleVars
LGrant(c)              == Grant(c) /\ UNCHANGED staleVars
LWrite(c)              == Write(c) /\ UNCHANGED staleVars
LRelease(c)            == Release(c) /\ Log /\ Replied(c)
LCancel(c)             == Cancel(c) /\ Log /\ Replied(c)
LLearnExpiry(c)        == LearnExpiry(c) /\ UNCHANGED hist /\ seen' = [seen EXCEPT ![c] = 0]
LExpireSession(s)      == ExpireSession(s) /\ Log /\ UNCHANGED seen

-----------------------------------------------------------------------------
(* Stale reads.  hist' = hist comes first: the instance's UNCHANGED of     *)
(* its nodes (hist[v]) is then a check, not an assignment.                 *)

(* getChildren answered from snapshot v.  Our own node is in it (SessionOrder: *)
(* v >= seen[c] >= our create's zxid); a node ahead of ours that the       *)
(* leader deleted since only delays us (we watch it, and its deletion      *)
(* reaches us as the server catches up); a node created after v sorts      *)
(* after ours.                                                             *)
StaleListChildren(c) ==
    \E v \in Readable(c) :
        /\ hist' = hist
        /\ seen' = [seen EXCEPT ![c] = v]
        /\ Snap(v)!ListChildren(c)
        /\ UNCHANGED nodes

(* The children listed after a lost create reply, answered from snapshot v *)
(* (the lost reply did not raise seen: v may precede the create, and the   *)
(* client then creates again; PredecessorLock's ListChildren finds the     *)
(* first node ahead of ours, and Cancel deletes both).                     *)
StaleFindOwnNode(c) ==
    \E v \in Readable(c) :
        /\ hist' = hist
        /\ seen' = [seen EXCEPT ![c] = v]
        /\ Snap(v)!FindOwnNode(c)
        /\ UNCHANGED nodes

(* getData(name, watch=true) on snapshot v: whether the node exists at     *)
(* that server decides the reply.  It exists there and at the leader: the  *)
(* watch is armed, and fires when the delete commits (the server applies   *)
(* it later, which the spec cannot tell from a later TakeEvent).  It exists *)
(* there but the leader already deleted it: the watch is armed at that     *)
(* server and fires as it applies the delete, which it will; the event is  *)
(* appended to the client's inbox at once.  The inbox is the FIFO of       *)
(* delivered, unconsumed events, and a client takes its events only when   *)
(* it chooses to, so an event appended now and taken after any number of   *)
(* other steps is a delivery at any later time.  The event is not queued   *)
(* twice: the server keeps one watch per path and connection, and fires it *)
(* once (an event for it already waiting is that one; without this rule a  *)
(* client re-listing from old snapshots would grow its inbox forever).     *)
Queued(c, w) == \E i \in DOMAIN inbox[c] : inbox[c][i] = w
ArmAt(v, name, c) ==
    LET w == [node |-> name, req |-> Uuid(c)] IN
    IF ZK!NodeExists(name)
    THEN ZK!SetWatch(name, Uuid(c))
    ELSE /\ inbox' = IF Queued(c, w) THEN inbox ELSE [inbox EXCEPT ![c] = Append(@, w)]
         /\ UNCHANGED <<nodes, nextSeq, zxid, live, watches>>

ExistsAt(v, name) == name \in ZK!Names(hist[v])

(* WatchSecond on snapshot v. *)
StaleWatchSecond(c) ==
    \E v \in Readable(c) :
        /\ hist' = hist
        /\ seen' = [seen EXCEPT ![c] = v]
        /\ ~paused[c]
        /\ pc[c] = "second"
        /\ Live(c)
        /\ IF ExistsAt(v, second[c])
           THEN ArmAt(v, second[c], c)
           ELSE UNCHANGED zkVars
        /\ pc' = [pc EXCEPT ![c] = "watch"]
        /\ UNCHANGED <<sess, reqNo, node, target, second, soleBlocker, token, tenure, paused,
                       histVars, pending>>

(* WatchPredecessor on snapshot v: NoNode there means list again. *)
StaleWatchPredecessor(c) ==
    \E v \in Readable(c) :
        /\ hist' = hist
        /\ seen' = [seen EXCEPT ![c] = v]
        /\ ~paused[c]
        /\ pc[c] = "watch"
        /\ Live(c)
        /\ IF ExistsAt(v, target[c])
           THEN /\ ArmAt(v, target[c], c)
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

(* Pauses and background deletes are left out of this module (ASSUME     *)
(* below): the base spec checks them with one server, and no config here   *)
(* explored them.                                                          *)
StaleEnvNext == \E s \in Sessions : LExpireSession(s)

StaleNext == (\E c \in Clients : StaleClientNext(c)) \/ StaleEnvNext

StaleSpec == StaleInit /\ [][StaleNext]_allVars

=============================================================================
