------------------------------ MODULE ZooKeeper ------------------------------
(***************************************************************************)
(* The ZooKeeper side of the lock specs, written once: PredecessorLock and *)
(* SharedLock INSTANCE it (ZK == INSTANCE ZooKeeper) and build every       *)
(* client step that calls the server from the operators below.             *)
(*                                                                         *)
(* WHAT IT MODELS.  One lock's parent node and its children, as one        *)
(* linearizable server sees them: every call is one atomic step on one     *)
(* global state, in one total order of steps.                              *)
(*   nodes     the children of the lock's parent (ephemeral sequential     *)
(*             nodes), each a record of the client spec's shape with at    *)
(*             least [seq, owner, uuid, czxid]                             *)
(*   nextSeq   the parent's sequence counter (the next create's suffix)    *)
(*   zxid      the zxid of the last write transaction; a created node's    *)
(*             czxid is the zxid of its create                             *)
(*   live      the sessions the server has, <<client, k>>                  *)
(*   watches   armed one-shot watches [node |-> name, req |-> uuid]: the   *)
(*             name a watch was set on (a node's Name, or Parent for a     *)
(*             child watch) and the request that set it                    *)
(*   inbox     per client, the FIFO of delivered, unconsumed watch events: *)
(*             each the record of the watch that fired, [node, req] (a     *)
(*             real event carries the path it is for, and a request may    *)
(*             have two watches armed: its predecessor and the node two    *)
(*             ahead, so the client must know which one fired)             *)
(*   pending   deletes sent but not landed, <<session, uuid>>: the client  *)
(*             library's background delete of one request's nodes, on its  *)
(*             way to the server (the network's side of the server)        *)
(*                                                                         *)
(* WHAT IT ABSTRACTS (spec/tla/README.md, "Where the spec abstracts the    *)
(* code", says why each is sound and what removing it takes):              *)
(*   - one server, not an ensemble: this module is the leader, and every  *)
(*     read here sees every write committed before it.  Reads answered by  *)
(*     a server that lags (a prefix of the log, never behind what the      *)
(*     client saw) are ZooKeeperReplicas's, a module of their own that the *)
(*     stale-read specs INSTANCE beside this one (PredecessorLockStaleReads *)
(*     and SharedLockStaleReads);                                          *)
(*   - no clocks: a session may expire at any step (the client specs       *)
(*     restrict when, for the session a client uses);                      *)
(*   - the lock's parent always exists (RecreateParent, used only by       *)
(*     PredecessorLockParentReset, deletes and re-creates it when empty);  *)
(*     no node data, ACLs or versions: deletion is the only node event;    *)
(*   - connection loss without session loss is the client specs': a lost *)
(*     create reply (CreateReplyLost), and every other call of an          *)
(*     acquisition lost as the code recovers it (PredecessorLockConnLoss); *)
(*     the server keeps no per-connection state here: a watch whose reply  *)
(*     came is re-registered on reconnect, one whose reply was lost is     *)
(*     never armed;                                                        *)
(*   - zxid counts write transactions only; a delete of several nodes      *)
(*     advances it once per node (DeleteNodes), a multi once (Multi).      *)
(*                                                                         *)
(* LATER STEPS (not modeled yet): sync; the session moving to another      *)
(* server as a step of its own (ZooKeeperReplicas covers where it lands);  *)
(* the leader expiring a session while the client's follower is cut off   *)
(* from it, with clocks (SessionTiming checks the client's loss rule       *)
(* against that, apart from the nodes, and names the premise the lock      *)
(* specs take from it: LossBeforeExpiry).                                  *)
(*                                                                         *)
(* NOT HERE, AND WHY.  The clients' steps and beliefs, the fault budget    *)
(* and the fenced resource (it is not ZooKeeper, and only PredecessorLock  *)
(* writes to one) stay in the client specs.  So do the guards on WHEN a    *)
(* client's own session may expire (a client spec's rule about its loss    *)
(* timer) and the check that a call's session is live (IsLive below;       *)
(* every operator that is a client's call assumes its caller checked it).  *)
(*                                                                         *)
(* Operators:                                                              *)
(*   Init, TypeOK(NodeRecs, NodeNames, Sessions, Uuids)                    *)
(*   reads:  Names(S), NodeExists(name), NodeAt(seq), IsLive(s),           *)
(*           SortWatches(S), HasEvent(c), NextEvent(c)                     *)
(*   parts of a step:  Triggered(del, add, ws), FireWatches(del, add, ws), *)
(*           Txn(del, add, ws)                                             *)
(*   steps (each says what becomes of all seven server variables):         *)
(*           CreateNode(Mk(_, _)), DeleteNodes(del), Multi(del, Add(_)),   *)
(*           SetWatch(name, u), TakeEvent(c), ExpireSession(s, sw),        *)
(*           NewSession(s, sw), QueueDelete(s, u, del), DeleteLands(u),    *)
(*           RecreateParent, ForeignDelete(n), ForeignReplace(n, Mk(_))    *)
(*                                                                         *)
(* Sources: Programmer's Guide = ZooKeeper Programmer's Guide              *)
(* (https://zookeeper.apache.org/doc/current/zookeeperProgrammers.html):   *)
(* "ZooKeeper Watches" (a read sets its watch in the same server step;     *)
(* one-time triggers; a client sees a watch event before the data that     *)
(* follows it; events are delivered in order), "ZooKeeper Sessions" (an    *)
(* expired session's ephemeral nodes are deleted), "Sequence Nodes",       *)
(* "Container Nodes", "ZooKeeper Stat Structure" (czxid);                  *)
(* Recipes = ZooKeeper recipes                                             *)
(* (https://zookeeper.apache.org/doc/current/recipes.html), "Locks",       *)
(* "Shared Locks", "Recoverable Errors and the GUID".                      *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets

CONSTANTS
    Clients,    \* the client processes: a uuid <<c, r>> and a session <<c, k>> name one
    MaxSeq,     \* bound on the parent's sequence counter: creates stop at nextSeq = MaxSeq
    Name(_),    \* a node record's name, what a watch on it is set on
    NameLess(_, _), \* a total order on names: events of one transaction are queued in it
    Parent      \* the name of the lock's parent: the target of a child watch

VARIABLES nodes, nextSeq, zxid, live, watches, inbox, pending

-----------------------------------------------------------------------------
(* The server as a client library first sees it: no children, the counter  *)
(* at 0, every client connected with its first session, nothing watched.   *)
Init ==
    /\ nodes = {}
    /\ nextSeq = 0
    /\ zxid = 0
    /\ live = {<<c, 1>> : c \in Clients}
    /\ watches = {}
    /\ inbox = [c \in Clients |-> <<>>]
    /\ pending = {}

(* The server's variables have their types.  The shapes of a node record   *)
(* and a name are the client spec's (SharedLock's nodes carry a kind).     *)
TypeOK(NodeRecs, NodeNames, Sessions, Uuids) ==
    /\ nodes \subseteq NodeRecs
    /\ nextSeq \in 0..MaxSeq
    /\ zxid \in Nat
    /\ live \subseteq Sessions
    /\ watches \subseteq [node : NodeNames, req : Uuids]
    /\ inbox \in [Clients -> Seq([node : NodeNames, req : Uuids])]
    /\ pending \subseteq Sessions \X Uuids

-----------------------------------------------------------------------------
(* Reads: no step of their own.                                            *)

Names(S) == {Name(n) : n \in S}

(* exists / getData finds a node of that name (Recipes, "Locks": getData   *)
(* answers NoNode when the node is gone).                                  *)
NodeExists(name) == name \in Names(nodes)

(* The child with sequence suffix seq: sequence numbers of the children    *)
(* present are unique (Programmer's Guide, "Sequence Nodes"), so there is  *)
(* at most one.                                                            *)
NodeAt(seq) == CHOOSE n \in nodes : n.seq = seq

(* A call on session s can succeed: the server has it.  On an expired      *)
(* session every call fails with SESSIONEXPIRED (Programmer's Guide,       *)
(* "ZooKeeper Sessions").                                                  *)
IsLive(s) == s \in live

(* Events for one client fired in one transaction are queued in request    *)
(* order, and one request's in the order of their names (a set has no      *)
(* order; any fixed order will do).  S is a set of watch records.          *)
WatchBefore(w, v) ==
    \/ w.req[2] < v.req[2]
    \/ w.req[2] = v.req[2] /\ (w.node = v.node \/ NameLess(w.node, v.node))
RECURSIVE SortWatches(_)
SortWatches(S) ==
    IF S = {} THEN <<>>
    ELSE LET m == CHOOSE w \in S : \A v \in S : WatchBefore(w, v)
         IN  <<m>> \o SortWatches(S \ {m})

-----------------------------------------------------------------------------
(***************************************************************************)
(* One write transaction, in parts.  A transaction removes the nodes `del` *)
(* and adds the nodes `add`, starting from the watch set `ws` (the caller  *)
(* may have dropped watches first: a closing session's).  The watches it   *)
(* triggers: those on a removed node's name (NodeDeleted), and child       *)
(* watches on the parent if any child was added or removed                 *)
(* (NodeChildrenChanged).  A triggered watch fires once: it is removed,    *)
(* and its event (the watch record itself: the name it is for and the      *)
(* request that set it) is appended to the FIFO inbox of the client that   *)
(* set it                                                                  *)
(* (Programmer's Guide, "ZooKeeper Watches": one-time triggers, delivered  *)
(* in order).  A watch carries no session: it always belongs to its        *)
(* client's current session (the client specs drop a session's watches     *)
(* when it expires or is abandoned: NewSession, ExpireSession's sw).       *)
(***************************************************************************)
Triggered(del, add, ws) ==
    {w \in ws : w.node \in Names(del) \/ (w.node = Parent /\ del \cup add # {})}

FireWatches(del, add, ws) ==
    LET fired == Triggered(del, add, ws)
    IN  /\ watches' = ws \ fired
        /\ inbox' = [d \in Clients |->
                        inbox[d] \o SortWatches({x \in fired : x.req[1] = d})]

Txn(del, add, ws) ==
    /\ nodes' = (nodes \ del) \cup add
    /\ FireWatches(del, add, ws)

-----------------------------------------------------------------------------
(* Write steps.  Each says what happens to all seven server variables.     *)

(* create(path, EPHEMERAL_SEQUENTIAL): the server appends the parent's     *)
(* next sequence number to the name and stamps the node with the create's  *)
(* zxid.  Mk(seq, czxid) is the client spec's node record (owner, uuid,    *)
(* kind: what the name and the session say).  Child watches on the parent  *)
(* fire.  Recipes, "Locks" step 1; Programmer's Guide, "Sequence Nodes".   *)
CreateNode(Mk(_, _)) ==
    /\ nextSeq < MaxSeq
    /\ Txn({}, {Mk(nextSeq, zxid + 1)}, watches)
    /\ nextSeq' = nextSeq + 1
    /\ zxid' = zxid + 1
    /\ UNCHANGED <<live, pending>>

(* delete of each node in `del` (none: no transaction); watches on them    *)
(* fire.  Recipes, "Locks": "to release a lock, the client deletes the     *)
(* node it created".  One zxid per node deleted.                           *)
DeleteNodes(del) ==
    /\ Txn(del, {}, watches)
    /\ zxid' = zxid + Cardinality(del)
    /\ UNCHANGED <<nextSeq, live, pending>>

(* multi: the nodes `del` deleted and the nodes Add(z) created in ONE      *)
(* transaction of zxid z (non-sequential creates: the counter does not     *)
(* move).  SharedLock's Downgrade.                                         *)
Multi(del, Add(_)) ==
    /\ Txn(del, Add(zxid + 1), watches)
    /\ zxid' = zxid + 1
    /\ UNCHANGED <<nextSeq, live, pending>>

(* getData(name, watch=true) on an existing node (or getChildren with the  *)
(* watch flag, name = Parent): the read and the watch-set are one server   *)
(* step, so a change after the read cannot be missed (Programmer's Guide,  *)
(* "ZooKeeper Watches").  The caller checked NodeExists: on NoNode         *)
(* getData sets no watch.  u is the request the watch is for.  The armed   *)
(* watches are a set: watching a name again for the same request adds      *)
(* nothing, and the deletion fires it once (the server keeps one watch per *)
(* path and connection).                                                   *)
SetWatch(name, u) ==
    /\ watches' = watches \cup {[node |-> name, req |-> u]}
    /\ UNCHANGED <<nodes, nextSeq, zxid, live, inbox, pending>>

(* Client c has an undelivered event, the head of its FIFO (a watch record *)
(* [node, req]), and takes it.                                             *)
HasEvent(c) == inbox[c] # <<>>
NextEvent(c) == Head(inbox[c])
TakeEvent(c) ==
    /\ inbox' = [inbox EXCEPT ![c] = Tail(@)]
    /\ UNCHANGED <<nodes, nextSeq, zxid, live, watches, pending>>

(* The server expires session s (closeSession, one transaction): every     *)
(* ephemeral node s owns is deleted and watches on them fire; sw, the      *)
(* watches s itself set (the caller knows them: a watch names its request, *)
(* not its session), are dropped first; the deletes pending for s stop     *)
(* (their nodes are gone, and the client's background delete stops on      *)
(* SESSIONEXPIRED).  Programmer's Guide, "ZooKeeper Sessions".             *)
ExpireSession(s, sw) ==
    /\ s \in live
    /\ live' = live \ {s}
    /\ Txn({n \in nodes : n.owner = s}, {}, watches \ sw)
    /\ zxid' = zxid + 1
    /\ pending' = {p \in pending : p[1] # s}
    /\ UNCHANGED nextSeq

(* The client of session s gives up its previous session (expired, or      *)
(* abandoned when its loss timer fired) and connects with the new session  *)
(* s: the old connection's watches sw are gone with it (the server forgets *)
(* a closed connection's watches), the events queued for the client are    *)
(* dropped, and the server has s.  An abandoned session stays live, with   *)
(* its nodes, until ExpireSession removes it.                              *)
NewSession(s, sw) ==
    /\ live' = live \cup {s}
    /\ watches' = watches \ sw
    /\ inbox' = [inbox EXCEPT ![s[1]] = <<>>]
    /\ UNCHANGED <<nodes, nextSeq, zxid, pending>>

(* The client library's background delete of request u's nodes `del`,      *)
(* made by session s, is sent and not yet landed (nothing to delete:       *)
(* nothing sent).  It keeps being resent until it lands or s ends.         *)
QueueDelete(s, u, del) ==
    /\ pending' = IF del = {} THEN pending ELSE pending \cup {<<s, u>>}
    /\ UNCHANGED <<nodes, nextSeq, zxid, live, watches, inbox>>

(* The pending delete of request u reaches the server while its session    *)
(* is live: one transaction deletes u's nodes of that session (a multi of  *)
(* deletes, or one delete; one zxid per node as in DeleteNodes) and        *)
(* watches on them fire.  A step of the network and the server, no         *)
(* client's.                                                               *)
DeleteLands(u) ==
    /\ \E p \in pending : p[2] = u
    /\ LET p == CHOOSE p \in pending : p[2] = u
           mine == {n \in nodes : n.owner = p[1] /\ n.uuid = u}
       IN  /\ p[1] \in live
           /\ Txn(mine, {}, watches)
           /\ zxid' = zxid + Cardinality(mine)
           /\ pending' = pending \ {p}
    /\ UNCHANGED <<nextSeq, live>>

(* An outsider, a session none of the clients has (an operator's runbook  *)
(* step for a stuck lock, a clean-up script), deletes node n: one          *)
(* transaction, whose watches fire as for any delete.  Only               *)
(* OwnWatch.tla takes it: every other spec assumes that the lock's nodes   *)
(* are written by its clients alone (an ACL on the lock path makes that    *)
(* so: impl/zklock TestIntruderCannotTakeAnACLProtectedLock).              *)
ForeignDelete(n) ==
    /\ n \in nodes
    /\ DeleteNodes({n})

(* An outsider deletes node n and creates a node of the same name, its     *)
(* own: Mk(z) is that node's record, of czxid z (two transactions, one     *)
(* step: the delete's watches fire, and no watch is left on the name for   *)
(* the create to fire).  The outsider may then set the node's data until   *)
(* its version matches the version a guarded check expects; this module   *)
(* has no versions, so a check by name (OwnWatch's GuardLands) passes on   *)
(* the replacement, the worst case.  Only OwnWatch.tla takes it.           *)
ForeignReplace(n, Mk(_)) ==
    /\ n \in nodes
    /\ Txn({n}, {Mk(zxid + 2)}, watches)
    /\ zxid' = zxid + 2
    /\ UNCHANGED <<nextSeq, live, pending>>

(* The parent is a container with no children left: the container          *)
(* manager deletes it and a later create re-creates it (two write          *)
(* transactions, one step here).  The new parent's sequence counter starts *)
(* at 0 again; zxids keep growing.  Only after the parent had children     *)
(* (a container whose cversion is 0 is skipped; nextSeq > 0 is exactly     *)
(* that here, and keeps the state space finite).  No watch fires: watches  *)
(* on the children fired with their deletion, and so did a child watch     *)
(* on the parent (the last child's deletion changed the children).         *)
(* Programmer's Guide, "Container Nodes".  Used only by                    *)
(* PredecessorLockParentReset.                                             *)
RecreateParent ==
    /\ nodes = {}
    /\ nextSeq > 0
    /\ nextSeq' = 0
    /\ zxid' = zxid + 2
    /\ UNCHANGED <<nodes, live, watches, inbox, pending>>

=============================================================================
