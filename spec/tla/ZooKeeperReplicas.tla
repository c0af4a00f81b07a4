--------------------------- MODULE ZooKeeperReplicas ---------------------------
(***************************************************************************)
(* The ensemble's read view, written once: StaleReads, the stale-read      *)
(* variant of every recipe, INSTANCEs it (ZR == INSTANCE                   *)
(* ZooKeeperReplicas) for the recipe whose ZooKeeper.tla server is the     *)
(* leader here.                                                            *)
(*                                                                         *)
(* WHAT IT MODELS.  A ZooKeeper ensemble: the leader commits write         *)
(* transactions in zxid order (ZooKeeper.tla's steps, on its variables);   *)
(* every server applies that log in order, some of them behind the        *)
(* leader; each client is connected to one server, which answers its reads *)
(* from the prefix of the log it has applied.  Which server, and how far   *)
(* behind, is not a variable: a read may be answered from any prefix the   *)
(* session order allows (Readable), which covers every follower at every   *)
(* lag, and a client failing over to another server.                       *)
(*   hist   the leader's log, as the node set after each write step: a     *)
(*          function from the zxids of write steps to node sets            *)
(*          (hist[zxid] = nodes always, TypeOK);                           *)
(*   seen   per client, the highest zxid it has seen (the client library's *)
(*          lastZxid): the zxid of its write replies and of the snapshots  *)
(*          its reads were answered from;                                  *)
(*   dupes  the client library's background deletes of duplicate nodes     *)
(*          (a create whose reply was lost and that a stale search missed: *)
(*          "Duplicates" below), <<session, name>>, sent and not landed.   *)
(* A read of client c answered from snapshot v needs v \in Readable(c):    *)
(* seen[c] <= v <= zxid (with SessionOrder), and raises seen[c] to v       *)
(* (Read).  Programmer's Guide, "Consistency Guarantees": sequential       *)
(* consistency, and single system image (a client never sees an older     *)
(* view of the service, even after it fails over to another server with   *)
(* the same session): the server that answers has applied every write     *)
(* this client saw, its own included.                                      *)
(*                                                                         *)
(* WHAT IT ABSTRACTS.                                                      *)
(*   - one snapshot per write STEP, not per zxid: a step that deletes      *)
(*     several nodes (a multi of deletes, a closeSession) or a multi that  *)
(*     deletes and creates (SharedLock's Downgrade) is ONE transaction,    *)
(*     which every server applies atomically, so no server answers from a *)
(*     state in between (Log);                                             *)
(*   - the sessions (live) are the leader's: a client's call on a session  *)
(*     the leader expired fails, whichever server it is connected to;      *)
(*   - a watch event does not raise seen (the server that delivers it has  *)
(*     applied the delete, so later reads could not show the node again):  *)
(*     more behaviours than ZooKeeper has, so safety shown here holds;     *)
(*   - no sync (a client's way to make its server catch up with the        *)
(*     leader) and no server's own state: the one read the code syncs      *)
(*     before (a Cancel's listing after a lost create reply) is written    *)
(*     by the recipes' stale modules as a read of the leader's state       *)
(*     (their LCancel, constant CancelSync).                               *)
(*                                                                         *)
(* NOT HERE, AND WHY.  Which of a recipe's steps are reads and which       *)
(* replies raise seen: that is the client's, said in StaleReads (Written   *)
(* for a write whose reply arrives, Reconnected for a new session,         *)
(* Listing, Search and WatchAt for the reads) and by each recipe's stale   *)
(* module, which alone can evaluate its read steps on a snapshot (Snap(v), *)
(* the recipe instanced with nodes <- hist[v]).                            *)
(*                                                                         *)
(* LATER STEPS (not modeled yet): sync as a step; a reconnection within a  *)
(* session as a step of its own, with the watches it re-registers (a read  *)
(* from any prefix at or after seen covers where it lands, not the step);  *)
(* events of different servers in zxid order (ArmAt queues a lagging       *)
(* server's event when the watch is set); the leader expiring a session    *)
(* while the client's server is cut off from it (SessionTiming checks the  *)
(* client's loss rule against that, apart from the nodes).                 *)
(*                                                                         *)
(* Operators:                                                              *)
(*   Init, TypeOK                                                          *)
(*   Readable(c), ExistsAt(v, name), Queued(c, w)                          *)
(*   parts of a step: Log, Replied(c), NewConnection(c), Read(c, v),       *)
(*                    ArmAt(name, u), QueueDuplicates(s, u, own, v),       *)
(*                    DropDuplicates(s)                                    *)
(*   Duplicates(v, u, own), DeleteQueued(n)                                *)
(*   step: DuplicateLands(p)                                               *)
(*                                                                         *)
(* Sources: Programmer's Guide = ZooKeeper Programmer's Guide              *)
(* (https://zookeeper.apache.org/doc/current/zookeeperProgrammers.html):   *)
(* "Consistency Guarantees", "ZooKeeper Watches" (a watch is set at the    *)
(* server the client is connected to and fires when that server applies   *)
(* the change; one-time triggers; the server keeps one watch per path and  *)
(* connection), "ZooKeeper Sessions".                                      *)
(***************************************************************************)
EXTENDS Integers, Sequences, TLC

CONSTANTS
    Clients,        \* as in ZooKeeper.tla
    MaxSeq,
    Name(_),
    NameLess(_, _),
    Parent,
    SessionOrder,   \* a read is answered from a snapshot >= seen[c]
    DeleteDuplicates \* a listing's duplicates of our node are deleted (dupes)

VARIABLES
    nodes, nextSeq, zxid, live, watches, inbox, pending,   \* the leader: ZooKeeper.tla
    hist, seen, dupes

ZK == INSTANCE ZooKeeper

-----------------------------------------------------------------------------
(* The ensemble as a client library first sees it: the log holds the empty *)
(* parent at zxid 0, and no client has seen anything.                      *)
Init ==
    /\ hist = (0 :> {})
    /\ seen = [c \in Clients |-> 0]
    /\ dupes = {}

(* The log ends at the leader's state, holds no zxid beyond it, and no     *)
(* client has seen a zxid the leader has not committed; every duplicate    *)
(* delete still queued is a live session's (an expiry drops its own).      *)
TypeOK ==
    /\ zxid \in DOMAIN hist /\ hist[zxid] = nodes
    /\ \A v \in DOMAIN hist : v <= zxid
    /\ seen \in [Clients -> 0..zxid]
    /\ \A p \in dupes : p[1] \in live

-----------------------------------------------------------------------------
(* The snapshots a read of c may be answered from: those of any server     *)
(* whose log reaches at least what c has seen (Consistency Guarantees:     *)
(* single system image; a server behind the client's lastZxid refuses its *)
(* connection), or, in the must-fail controls (SessionOrder = FALSE), any  *)
(* snapshot at all.                                                        *)
Readable(c) == {v \in DOMAIN hist : SessionOrder => seen[c] <= v}

(* A node named `name` is in snapshot v: what exists / getData answers at  *)
(* a server that has applied the log up to v.                              *)
ExistsAt(v, name) == name \in ZK!Names(hist[v])

(* The event of watch w is already waiting in client c's inbox.            *)
Queued(c, w) == \E i \in DOMAIN inbox[c] : inbox[c][i] = w

-----------------------------------------------------------------------------
(* A write step logs the node set it leaves under its last zxid: the       *)
(* leader commits one transaction, and every server will apply it whole.   *)
(* Every step of ZooKeeper.tla that changes nodes advances zxid, and a     *)
(* step that leaves zxid alone changes no node (and logs nothing).         *)
Log == hist' = IF zxid' = zxid THEN hist ELSE hist @@ (zxid' :> nodes')

(* The reply of c's write arrives: it carries the write's zxid, and c's    *)
(* lastZxid rises to it (Consistency Guarantees: c's later reads see its   *)
(* own write).  A step that wrote nothing raises nothing.                  *)
Replied(c) == seen' = IF zxid' = zxid THEN seen ELSE [seen EXCEPT ![c] = zxid']

(* Client c connects with a new session: a new connection starts from      *)
(* lastZxid 0, at any server (conservative: the library keeps lastZxid     *)
(* across a reconnection of one session, not across sessions).            *)
NewConnection(c) == seen' = [seen EXCEPT ![c] = 0] /\ UNCHANGED hist

(* A read of c answered from snapshot v (v \in Readable(c), the caller's   *)
(* choice): the log is unchanged and c's lastZxid becomes v (a read reply  *)
(* carries the zxid its server has applied).  hist' = hist comes first: a  *)
(* read step evaluated on hist[v] then finds its UNCHANGED nodes a check,  *)
(* not an assignment.                                                      *)
Read(c, v) ==
    /\ hist' = hist
    /\ seen' = [seen EXCEPT ![c] = v]

(* getData(name, watch=true) answered by a server where the node exists    *)
(* (the caller checked ExistsAt), for request u of client u[1].  The       *)
(* leader still has it: the watch is armed (ZK!SetWatch) and fires when    *)
(* the delete commits (the server applies it later, which the spec cannot  *)
(* tell from a later TakeEvent).  The leader already deleted it: the watch *)
(* is armed at that server and fires as it applies the delete, which it    *)
(* will; the event is appended to the client's inbox at once.  The inbox   *)
(* is the FIFO of delivered, unconsumed events, and a client takes its     *)
(* events only when it chooses to, so an event appended now and taken      *)
(* after any number of other steps is a delivery at any later time.  The   *)
(* event is not queued twice: the server keeps one watch per path and      *)
(* connection, and fires it once (an event for it already waiting is that  *)
(* one; without this rule a client re-reading old snapshots would grow its *)
(* inbox forever).  Programmer's Guide, "ZooKeeper Watches".               *)
ArmAt(name, u) ==
    LET c == u[1]
        w == [node |-> name, req |-> u]
    IN  IF ZK!NodeExists(name)
        THEN ZK!SetWatch(name, u)
        ELSE /\ inbox' = IF Queued(c, w) THEN inbox ELSE [inbox EXCEPT ![c] = Append(@, w)]
             /\ UNCHANGED <<nodes, nextSeq, zxid, live, watches, pending>>

-----------------------------------------------------------------------------
(***************************************************************************)
(* Duplicates.  A create whose reply is lost raises no lastZxid, so the    *)
(* search for the node it made (FindOwnNode) may be answered from a        *)
(* snapshot before that create: the client creates again, and one request  *)
(* has two nodes.  impl/zklock (contender.list) deletes, in the            *)
(* background, every node a listing shows that carries the request's uuid  *)
(* but is not the node it uses: the delete is resent until it lands or the *)
(* session ends (Session.background, Session.deleteNode).                  *)
(*   dupes  the duplicate deletes sent and not landed, <<session, name>>:  *)
(*          the session that sends it and the name of the node.  Not       *)
(*          ZooKeeper.tla's pending, which is keyed by uuid and whose      *)
(*          DeleteLands deletes every node of the uuid, ours included.     *)
(* A listing after the second create's reply is answered from a snapshot   *)
(* at or after that create (session order), which has the first node (it  *)
(* was committed before), so the duplicate is always seen and queued.      *)
(* With DeleteDuplicates = FALSE (the control) nothing is ever queued.     *)
(***************************************************************************)

(* The nodes of snapshot v that carry request u's uuid but are not its     *)
(* node own (a sequence number): creates given up on that happened.        *)
Duplicates(v, u, own) == {n \in hist[v] : n.uuid = u /\ n.seq # own}

(* A listing of session s for request u, whose node is own, answered from  *)
(* snapshot v, queues the delete of each duplicate it shows (a set: a      *)
(* delete queued again is the same delete).  The listing is a read: hist   *)
(* and seen are the caller's (Read).                                       *)
QueueDuplicates(s, u, own, v) ==
    dupes' = IF DeleteDuplicates
             THEN dupes \cup {<<s, Name(n)>> : n \in Duplicates(v, u, own)}
             ELSE dupes

(* Node n's delete is queued by its own session.                           *)
DeleteQueued(n) == <<n.owner, Name(n)>> \in dupes

(* The queued delete p reaches the leader while its session is live: one   *)
(* write transaction deletes the node of that name, if it is still there   *)
(* (NoNode otherwise: nothing changes, nothing is logged), watches on it   *)
(* fire (ZK!DeleteNodes), and the step is logged.  Its reply raises no     *)
(* seen: it goes to the background (conservative, as for DeleteLands).     *)
(* A step of the network and the server, no client's.                      *)
DuplicateLands(p) ==
    /\ p \in dupes
    /\ ZK!IsLive(p[1])
    /\ ZK!DeleteNodes({n \in nodes : Name(n) = p[2]})
    /\ dupes' = dupes \ {p}
    /\ Log
    /\ UNCHANGED seen

(* The server expires session s: its queued duplicate deletes stop (its    *)
(* nodes are gone with it, and the background stops on SESSIONEXPIRED).    *)
DropDuplicates(s) == dupes' = {p \in dupes : p[1] # s}

=============================================================================
