------------------------------ MODULE StaleReads ------------------------------
(***************************************************************************)
(* A lock recipe with its reads answered by a server that lags behind the  *)
(* leader, written once for every recipe: a recipe's stale module          *)
(* (PredecessorLockStaleReads, SharedLockStaleReads) EXTENDS the recipe,   *)
(* INSTANCEs this module (SR == INSTANCE StaleReads, every parameter       *)
(* substituted by the recipe's name) and writes each of its steps as its  *)
(* own step and one part below, so that TLC and the Go model name the      *)
(* step after the recipe's wrapper (LCreateOk, StaleListChildren, ...).    *)
(*                                                                         *)
(* The recipe alone (through ZooKeeper.tla) sees one linearizable server.  *)
(* Here that server is the leader of an ensemble, and every read of a      *)
(* client is answered by the server its session is connected to, from a    *)
(* prefix of the leader's log that the session order allows:               *)
(* ZooKeeperReplicas (ZR below: hist, seen, dupes), which says what it     *)
(* models and abstracts (one snapshot per write step, the sessions the     *)
(* leader's, no sync).                                                     *)
(*                                                                         *)
(* WHAT A RECIPE WRITES.  Its steps, each as one conjunction:              *)
(*   a step that neither writes nor reads a snapshot:   A /\ Unlogged      *)
(*   a write whose reply arrives (raises seen):         A /\ Written(c)    *)
(*   a write whose reply is lost (raises nothing):      A /\ Unanswered    *)
(*   the move to a new session:                         A /\ Reconnected(c)*)
(*   the server's expiry of session s:                  A /\ Expired(s)    *)
(* and its reads, each answered from a snapshot v in Readable(c):          *)
(*   getChildren, the listing that picks what to wait on: Listing;         *)
(*   getChildren after a lost create reply: Search;                        *)
(*   getData(name, watch=true): WatchAt.                                   *)
(* A listing is the recipe's own step evaluated on the snapshot:           *)
(* Snap(v) == INSTANCE <Recipe> WITH nodes <- hist[v], passed as an        *)
(* argument (Listing(c, v, Snap(v)!ListChildren(c))); a watch is written   *)
(* out here, because a watch set on a lagging server behaves differently   *)
(* when the leader already deleted the node (ZR!ArmAt).  Also the          *)
(* recipe's StaleClientNext (its steps in its order), LDuplicateLands and  *)
(* what its own steps change that a watch does not.                        *)
(*                                                                         *)
(* Conservative choices (each allows more behaviours than ZooKeeper has,   *)
(* so safety shown here holds for the real thing):                         *)
(*   - a watch event does not raise seen (the server that delivers it has  *)
(*     applied the delete, so later reads could not show the node again);  *)
(*   - a lost reply does not raise seen (Unanswered), and neither do       *)
(*     deletes landing in the background;                                  *)
(*   - a new session starts from seen = 0, as a new connection would, at   *)
(*     any server (Reconnected).                                           *)
(*                                                                         *)
(* Duplicates (ZR's section of that name): a listing that shows a node of  *)
(* our uuid other than ours queues its delete (with DeleteDuplicates),     *)
(* which lands (DuplicateLands) or goes with the session (Expired); a node *)
(* whose delete is queued is no orphan (StaleNoOrphans).                   *)
(*                                                                         *)
(* Must fail (the recipes' configs NoSessionOrder): with SessionOrder =    *)
(* FALSE a read may be answered from any snapshot, even one older than the *)
(* client's own create (a client reconnecting to a server behind its last  *)
(* zxid, which ZooKeeper refuses): a listing without the nodes ahead of    *)
(* the client's grants.                                                    *)
(***************************************************************************)
EXTENDS TLC

CONSTANTS
    Clients, MaxSeq, Name(_), NameLess(_, _), Parent,  \* the recipe's, as in ZooKeeper.tla
    SessionOrder,       \* a read is answered from a snapshot >= seen[c]
    DeleteDuplicates    \* a listing's duplicates of our node are deleted (dupes)

VARIABLES
    nodes, nextSeq, zxid, live, watches, inbox, pending,  \* the leader: ZooKeeper.tla
    pc, sess, reqNo, node, paused,                        \* what every recipe's client has
    hist, seen, dupes                                     \* the read view: ZooKeeperReplicas

ZR == INSTANCE ZooKeeperReplicas

(* The client's session, its request's uuid, and whether its calls can     *)
(* succeed: the recipes' Sess(c), Uuid(c), Live(c).                        *)
Sess(c) == <<c, sess[c]>>
Uuid(c) == <<c, reqNo[c]>>
Live(c) == ZR!ZK!IsLive(Sess(c))

Init == ZR!Init
TypeOK == ZR!TypeOK
Readable(c) == ZR!Readable(c)

-----------------------------------------------------------------------------
(* Parts of the recipe's steps that read no snapshot.                      *)

(* A step of the client alone, or a read at the leader that no lag can     *)
(* change (the grant's getData of the own node's czxid): nothing logged,   *)
(* nothing seen.                                                           *)
Unlogged == UNCHANGED <<hist, seen, dupes>>

(* A write of c whose reply arrives: logged, and c has seen its zxid.      *)
Written(c) == ZR!Log /\ ZR!Replied(c) /\ UNCHANGED dupes

(* A write whose reply is lost: logged, nothing seen.                      *)
Unanswered == ZR!Log /\ UNCHANGED <<seen, dupes>>

(* c moves to a new session: a new connection, seen 0.                     *)
Reconnected(c) == ZR!NewConnection(c) /\ UNCHANGED dupes

(* The server expires session s: logged (its nodes go in one              *)
(* closeSession), and its queued duplicate deletes stop.                   *)
Expired(s) == ZR!Log /\ UNCHANGED seen /\ ZR!DropDuplicates(s)

(* A queued delete of a duplicate lands (ZR!DuplicateLands(p)): the node   *)
(* goes, and a watch on it fires.  The recipe's clients are unchanged.    *)
DuplicateLands(p) == ZR!DuplicateLands(p)

-----------------------------------------------------------------------------
(* Reads, each answered from a snapshot v in Readable(c).  ZR!Read(c, v)   *)
(* comes first: it fixes hist' = hist, so the recipe's UNCHANGED of its    *)
(* nodes on the snapshot (hist[v]) is then a check, not an assignment.     *)

(* getChildren answered from snapshot v, ListAt the recipe's listing step  *)
(* on it (Snap(v)!ListChildren(c)).  Our own node is in it (SessionOrder:  *)
(* v >= seen[c] >= our create's zxid, or the listing that found it); a     *)
(* node ahead that the leader deleted since only delays us (we watch it,   *)
(* and its deletion reaches us as the server catches up); a node created   *)
(* after v sorts after ours.  A node of our uuid that is not ours (a       *)
(* duplicate) has its delete queued (ZR!QueueDuplicates; impl/zklock:      *)
(* contender.list).                                                        *)
Listing(c, v, ListAt) ==
    /\ ZR!Read(c, v)
    /\ ListAt
    /\ UNCHANGED nodes
    /\ ZR!QueueDuplicates(Sess(c), Uuid(c), node[c], v)

(* The children listed after a lost create reply, answered from snapshot v *)
(* (FindAt: Snap(v)!FindOwnNode(c)).  The lost reply did not raise seen:   *)
(* v may precede the create, and the client then creates again.            *)
Search(c, v, FindAt) ==
    /\ ZR!Read(c, v)
    /\ FindAt
    /\ UNCHANGED <<nodes, dupes>>

(* getData(name, watch=true) of c in control state at, on snapshot v.      *)
(* Whether the node exists at that server decides the reply: it does: the  *)
(* watch is armed (ZR!ArmAt: at the leader, or its event queued at once    *)
(* when the leader already deleted the node), and Found is the client's   *)
(* step; NoNode there: Gone is, and the servers are unchanged.             *)
WatchAt(c, v, at, name, Found, Gone) ==
    /\ ZR!Read(c, v)
    /\ UNCHANGED dupes
    /\ ~paused[c]
    /\ pc[c] = at
    /\ Live(c)
    /\ IF ZR!ExistsAt(v, name)
       THEN ZR!ArmAt(name, Uuid(c)) /\ Found
       ELSE Gone /\ UNCHANGED <<nodes, nextSeq, zxid, live, watches, inbox, pending>>

-----------------------------------------------------------------------------
(* NoOrphans with the duplicates' deletes: every node of a session in use  *)
(* belongs to a running request, or its delete is pending, or a listing    *)
(* queued its delete (ZR!DeleteQueued); it goes when the delete lands or   *)
(* the session ends.                                                       *)
StaleNoOrphans ==
    \A n \in nodes :
        LET c == n.owner[1] IN
        n.owner = Sess(c) =>
            \/ n.uuid = Uuid(c) /\ pc[c] # "idle"
            \/ <<n.owner, n.uuid>> \in pending
            \/ ZR!DeleteQueued(n)

=============================================================================
