------------------------------ MODULE SharedLock ------------------------------
(***************************************************************************)
(* The read/write ZooKeeper lock of zklock (impl/zklock RWMutex).          *)
(*                                                                         *)
(* Readers and writers queue in one parent as EPHEMERAL_SEQUENTIAL nodes   *)
(* `_c_<uuid>-__READ__<seq>` and `_c_<uuid>-__WRIT__<seq>`, ordered by the *)
(* sequence suffix only (Apache Curator's names).  A reader holds when no  *)
(* write node precedes it and otherwise watches the LAST write node before *)
(* it; a writer holds when it is first and otherwise watches its           *)
(* immediate predecessor (ZooKeeper recipes, "Shared Locks";               *)
(* PredecessorLock.tla lists the sources cited below).  A holding writer   *)
(* may Downgrade: one multi turns its write node into a read node with the *)
(* same sequence number, so it keeps its place.  A notification is the     *)
(* grant (GrantOnHeadGone) for a reader whose watched writer was the only  *)
(* write node before it, and for a writer whose only predecessor was a     *)
(* read node; every other waiter lists again.                              *)
(*                                                                         *)
(* The ZooKeeper side is ZooKeeper.tla, shared with PredecessorLock        *)
(* (INSTANCEd as ZK below; a node's name here carries its kind); faults    *)
(* and client steps are those of PredecessorLock (see that module's        *)
(* comments).  This module differs in the node kinds, the grant rule,      *)
(* Downgrade, and in having no fenced resource: fencing is checked in      *)
(* PredecessorLock, writers here carry the same token.                     *)
(* spec/tla/README.md is the contract with model/ and impl/zklock.         *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets

CONSTANTS
    Clients,        \* the client processes (model values)
    MaxRequests,    \* lock requests each client may make
    MaxSeq,         \* bound on the parent's sequence counter (sequential creates)
    MaxFaults,      \* budget of fault steps
    WithExpiry,     \* server-side session expiry and the client's loss timer
    WithReplyLoss,  \* the reply of a create may be lost
    WithPause,      \* a holder's process may pause
    WithCancel,     \* a request's context may end while it acquires
    WithDowngrade,  \* a holding writer may downgrade to a reader
    AsyncDelete     \* Release and Cancel end the request at once; the delete lands later

ASSUME MaxRequests \in Nat /\ MaxSeq \in Nat /\ MaxFaults \in Nat
ASSUME {WithExpiry, WithReplyLoss, WithPause, WithCancel, WithDowngrade, AsyncDelete}
       \subseteq BOOLEAN

VARIABLES
    \* ---- ZooKeeper server ----
    nodes,      \* lock nodes under the parent: [seq, kind, owner, uuid, czxid]
    nextSeq,    \* the parent's sequence counter
    zxid,       \* zxid of the last write transaction
    live,       \* sessions the server considers live: <<client, k>>
    watches,    \* armed one-shot watches: [node, req], node a node name <<seq, kind>>
    inbox,      \* per-client FIFO of delivered, unconsumed notifications (request uuids)
    \* ---- clients ----
    pc,         \* the client's control state (as in PredecessorLock)
    kind,       \* "read" or "write": kind of the current request; "none" when idle
    sess,       \* k of the client's current session <<c, k>>
    reqNo,      \* number of the client's current (or last) request: uuid <<c, reqNo>>
    node,       \* seq of the client's own node, NoNode while unknown
    target,     \* name <<seq, kind>> of the node to watch, NoTarget if none
    soleBlocker,\* target was the only blocker of ours at the listing that chose it
    token,      \* token of the lease (czxid of the node it was granted with), 0 if none
    paused,     \* the client's process is paused
    \* ---- fault budget ----
    faults,
    \* ---- deletes sent but not yet landed (AsyncDelete) ----
    pending     \* <<session, uuid>>: the delete of that request's nodes is on its way

zkVars     == <<nodes, nextSeq, zxid, live, watches, inbox>>
clientVars == <<pc, kind, sess, reqNo, node, target, soleBlocker, token, paused>>
vars       == <<zkVars, clientVars, faults, pending>>

-----------------------------------------------------------------------------
NoNode   == -1
NoTarget == <<-1, "none">>
Kinds    == {"read", "write"}

PCs == {"idle", "create", "find", "list", "watch", "wait", "grant", "hold"}
Acquiring == {"create", "find", "list", "watch", "wait", "grant"}
KnowsNode == {"list", "watch", "wait", "grant", "hold"}

Sessions == Clients \X (1..MaxFaults + 1)
Sess(c) == <<c, sess[c]>>
Uuid(c) == <<c, reqNo[c]>>

\* The ZooKeeper side (ZooKeeper.tla).  A node's name, what a watch is set
\* on, is its sequence suffix and kind.  Parent is the name a child watch
\* on the lock's parent would carry: no step of this spec sets one (Shared,
\* step 2: no watch on the listing), so no watch ever has it.
Name(n) == <<n.seq, n.kind>>
Parent == <<-2, "parent">>
\* Names are ordered by seq, then kind (the order of one transaction's
\* events; only Downgrade makes two names with one seq).
KindRank(k) == CASE k = "read" -> 1 [] k = "write" -> 2 [] OTHER -> 0
NameLess(a, b) == a[1] < b[1] \/ (a[1] = b[1] /\ KindRank(a[2]) < KindRank(b[2]))
ZK == INSTANCE ZooKeeper

Live(c) == ZK!IsLive(Sess(c))
Max(S) == CHOOSE x \in S : \A y \in S : y <= x
OwnNodeExists(c) ==
    \E n \in nodes : n.seq = node[c] /\ n.kind = kind[c] /\ n.owner = Sess(c)
                     /\ n.uuid = Uuid(c)
Abandoned(s) == s \in live /\ s # Sess(s[1])
Holding(c, k) == pc[c] = "hold" /\ kind[c] = k

\* The node client c's current request creates: sequence number s and czxid
\* z are the server's (ZK!CreateNode), kind, owner and uuid the client's.
NodeOf(c, s, z) ==
    [seq |-> s, kind |-> kind[c], owner |-> Sess(c), uuid |-> Uuid(c), czxid |-> z]

\* The watches client c has set, all in its current session (see
\* PredecessorLock!WatchesOf).
WatchesOf(c) == {w \in watches : w.req[1] = c}

\* The server transaction (create, delete, multi, closeSession, with the
\* watches it fires) is ZK!Txn, used through ZK's steps: ZooKeeper.tla.

Idle(c) ==
    /\ pc' = [pc EXCEPT ![c] = "idle"]
    /\ kind' = [kind EXCEPT ![c] = "none"]
    /\ node' = [node EXCEPT ![c] = NoNode]
    /\ target' = [target EXCEPT ![c] = NoTarget]
    /\ soleBlocker' = [soleBlocker EXCEPT ![c] = FALSE]
    /\ token' = [token EXCEPT ![c] = 0]

Fault == faults < MaxFaults /\ faults' = faults + 1

\* The nodes that keep c from holding: for a writer every node before its
\* own, for a reader every write node before its own (Shared, step 3).
Blockers(c) ==
    {n \in nodes : n.seq < node[c] /\ (kind[c] = "write" \/ n.kind = "write")}

-----------------------------------------------------------------------------
TypeOK ==
    /\ ZK!TypeOK([seq : 0..MaxSeq, kind : Kinds, owner : Sessions,
                  uuid : Clients \X (1..MaxRequests), czxid : Nat],
                 (0..MaxSeq) \X Kinds, Sessions, Clients \X (1..MaxRequests))
    /\ pc \in [Clients -> PCs]
    /\ kind \in [Clients -> Kinds \cup {"none"}]
    /\ sess \in [Clients -> 1..MaxFaults + 1]
    /\ reqNo \in [Clients -> 0..MaxRequests]
    /\ node \in [Clients -> 0..MaxSeq \cup {NoNode}]
    /\ target \in [Clients -> ((0..MaxSeq) \X Kinds) \cup {NoTarget}]
    /\ soleBlocker \in [Clients -> BOOLEAN]
    /\ token \in [Clients -> Nat]
    /\ paused \in [Clients -> BOOLEAN]
    /\ faults \in 0..MaxFaults

Init ==
    /\ ZK!Init
    /\ pc = [c \in Clients |-> "idle"]
    /\ kind = [c \in Clients |-> "none"]
    /\ sess = [c \in Clients |-> 1]
    /\ reqNo = [c \in Clients |-> 0]
    /\ node = [c \in Clients |-> NoNode]
    /\ target = [c \in Clients |-> NoTarget]
    /\ soleBlocker = [c \in Clients |-> FALSE]
    /\ token = [c \in Clients |-> 0]
    /\ paused = [c \in Clients |-> FALSE]
    /\ faults = 0

-----------------------------------------------------------------------------
(***************************************************************************)
(* Client actions (a paused client takes no step; ZooKeeper calls need a   *)
(* live session, as in PredecessorLock).                                   *)
(***************************************************************************)

(* RWMutex.RLock (k = "read") or RWMutex.Lock (k = "write"): a new request *)
(* with a fresh uuid.  Shared, step 1; GUID (the uuid in the name).        *)
RequestLock(c, k) ==
    /\ ~paused[c]
    /\ pc[c] = "idle"
    /\ reqNo[c] < MaxRequests
    /\ pc' = [pc EXCEPT ![c] = "create"]
    /\ kind' = [kind EXCEPT ![c] = k]
    /\ reqNo' = [reqNo EXCEPT ![c] = @ + 1]
    /\ UNCHANGED <<zkVars, sess, node, target, soleBlocker, token, paused, faults, pending>>

(* create(`_c_<uuid>-__READ__` or `_c_<uuid>-__WRIT__`,                    *)
(* EPHEMERAL_SEQUENTIAL), reply received.  Shared, step 1 (a "read-" or    *)
(* "write-" node under the lock node, sequence and ephemeral flags).       *)
CreateOk(c) ==
    /\ ~paused[c]
    /\ pc[c] = "create"
    /\ Live(c)
    /\ ZK!CreateNode(LAMBDA s, z : NodeOf(c, s, z))
    /\ pc' = [pc EXCEPT ![c] = "list"]
    /\ node' = [node EXCEPT ![c] = nextSeq]
    /\ UNCHANGED <<kind, sess, reqNo, target, soleBlocker, token, paused, faults>>

(* The create succeeds, its reply is lost (ConnectionLoss).  A fault.      *)
(* GUID.                                                                   *)
CreateReplyLost(c) ==
    /\ WithReplyLoss
    /\ ~paused[c]
    /\ pc[c] = "create"
    /\ Live(c)
    /\ Fault
    /\ ZK!CreateNode(LAMBDA s, z : NodeOf(c, s, z))
    /\ pc' = [pc EXCEPT ![c] = "find"]
    /\ UNCHANGED <<kind, sess, reqNo, node, target, soleBlocker, token, paused>>

(* getChildren, find the node carrying this request's uuid and owned by    *)
(* the current session.  GUID.                                             *)
FindOwnNode(c) ==
    /\ ~paused[c]
    /\ pc[c] = "find"
    /\ Live(c)
    /\ LET mine == {n \in nodes : n.uuid = Uuid(c) /\ n.owner = Sess(c)}
       IN  IF mine # {}
           THEN /\ pc' = [pc EXCEPT ![c] = "list"]
                /\ node' = [node EXCEPT ![c] = (CHOOSE n \in mine : TRUE).seq]
           ELSE /\ pc' = [pc EXCEPT ![c] = "create"]
                /\ UNCHANGED node
    /\ UNCHANGED <<zkVars, kind, sess, reqNo, target, soleBlocker, token, paused, faults, pending>>

(* getChildren without a watch, sorted by suffix.  No blocker: go on to    *)
(* Grant.  Otherwise a writer chooses its immediate predecessor, a reader  *)
(* the last write node before it.  Shared, steps 2-4 (no watch on the      *)
(* listing; each waiter watches one node).                                 *)
ListChildren(c) ==
    /\ ~paused[c]
    /\ pc[c] = "list"
    /\ Live(c)
    /\ IF Blockers(c) = {}
       THEN /\ pc' = [pc EXCEPT ![c] = "grant"]
            /\ UNCHANGED <<target, soleBlocker>>
       ELSE /\ pc' = [pc EXCEPT ![c] = "watch"]
            /\ target' = [target EXCEPT ![c] =
                             Name(ZK!NodeAt(Max({n.seq : n \in Blockers(c)})))]
            /\ soleBlocker' = [soleBlocker EXCEPT ![c] = Cardinality(Blockers(c)) = 1]
    /\ UNCHANGED <<zkVars, kind, sess, reqNo, node, token, paused, faults, pending>>

(* getData(<chosen node>, watch=true): atomic read + watch-set (Watches).  *)
(* Exists: wait.  NoNode (the name is gone, e.g. deleted or downgraded):   *)
(* list again.                                                             *)
WatchPredecessor(c) ==
    /\ ~paused[c]
    /\ pc[c] = "watch"
    /\ Live(c)
    /\ IF ZK!NodeExists(target[c])
       THEN /\ ZK!SetWatch(target[c], Uuid(c))
            /\ pc' = [pc EXCEPT ![c] = "wait"]
            /\ UNCHANGED <<target, soleBlocker>>
       ELSE /\ pc' = [pc EXCEPT ![c] = "list"]
            /\ target' = [target EXCEPT ![c] = NoTarget]
            /\ soleBlocker' = [soleBlocker EXCEPT ![c] = FALSE]
            /\ UNCHANGED <<zkVars, pending>>
    /\ UNCHANGED <<kind, sess, reqNo, node, token, paused, faults>>

(* Consume the notification of the current request's watch; list again.    *)
(* Shared, step 5 (after the notification, go to step 2: list again).      *)
PredecessorGone(c) ==
    /\ ~paused[c]
    /\ ZK!HasEvent(c)
    /\ ZK!NextEvent(c).req = Uuid(c)
    /\ pc[c] = "wait"
    /\ ZK!TakeEvent(c)
    /\ pc' = [pc EXCEPT ![c] = "list"]
    /\ target' = [target EXCEPT ![c] = NoTarget]
    /\ soleBlocker' = [soleBlocker EXCEPT ![c] = FALSE]
    /\ UNCHANGED <<kind, sess, reqNo, node, token, paused, faults>>

(***************************************************************************)
(* The hand-off in one notification (see PredecessorLock!GrantOnHeadGone): *)
(* the current request's watch fired on a node that was the only blocker   *)
(* of ours at the listing that chose it, and it is safe to go straight to  *)
(* Grant.  Not for every such node: Downgrade re-creates a write node as a *)
(* read node at the same sequence number, in the transaction that deletes  *)
(* the write node.  A reader loses nothing by it (a read node does not     *)
(* block a reader), and a writer whose only blocker was a read node loses  *)
(* nothing either (a read node is never downgraded, so its deletion leaves *)
(* no node before ours).  A writer whose only blocker was a write node     *)
(* must list again: that node's deletion may be a Downgrade, whose read    *)
(* node is still before ours (SharedLockWriterShortcut: WriterExclusion    *)
(* fails).                                                                 *)
(***************************************************************************)
GrantOnHeadGone(c) ==
    /\ ~paused[c]
    /\ ZK!HasEvent(c)
    /\ ZK!NextEvent(c).req = Uuid(c)
    /\ ZK!NextEvent(c).node = target[c]
    /\ pc[c] = "wait"
    /\ soleBlocker[c]
    /\ kind[c] = "read" \/ target[c][2] = "read"
    /\ ZK!TakeEvent(c)
    /\ pc' = [pc EXCEPT ![c] = "grant"]
    /\ target' = [target EXCEPT ![c] = NoTarget]
    /\ soleBlocker' = [soleBlocker EXCEPT ![c] = FALSE]
    /\ UNCHANGED <<kind, sess, reqNo, node, token, paused, faults>>

(* Internal: drop a notification for a request the client no longer waits *)
(* on (a watch left behind by a cancelled request).                        *)
IgnoreNotification(c) ==
    /\ ~paused[c]
    /\ ZK!HasEvent(c)
    /\ ~(ZK!NextEvent(c).req = Uuid(c) /\ pc[c] = "wait")
    /\ ZK!TakeEvent(c)
    /\ UNCHANGED <<clientVars, faults>>

(* getData(<own node>): token := czxid; the client holds (as a reader or a *)
(* writer).  Shared, step 3.                                               *)
Grant(c) ==
    /\ ~paused[c]
    /\ pc[c] = "grant"
    /\ Live(c)
    /\ OwnNodeExists(c)
    /\ token' = [token EXCEPT ![c] = ZK!NodeAt(node[c]).czxid]
    /\ pc' = [pc EXCEPT ![c] = "hold"]
    /\ UNCHANGED <<zkVars, kind, sess, reqNo, node, target, soleBlocker, paused, faults, pending>>

(* A holding writer downgrades: one multi {create(`_c_<uuid>-__READ__<seq>`,*)
(* EPHEMERAL, non-sequential, the write node's 10-digit suffix), delete   *)
(* (write node)}: one transaction, one zxid.  The read node keeps the      *)
(* queue position (order is by suffix only); watches on the write node     *)
(* fire (readers behind it wake and share, a writer behind it re-lists and *)
(* watches the read node).  The lease keeps its token.  Apache Curator's   *)
(* ReadWriteLock supports downgrade; CURATOR-621 got it wrong (see the     *)
(* SharedLockDowngradeReleaseAcquire mutant).                              *)
Downgrade(c) ==
    /\ WithDowngrade
    /\ ~paused[c]
    /\ Holding(c, "write")
    /\ Live(c)
    /\ LET own == ZK!NodeAt(node[c])
       IN  ZK!Multi({own}, LAMBDA z : {[own EXCEPT !.kind = "read", !.czxid = z]})
    /\ kind' = [kind EXCEPT ![c] = "read"]
    /\ UNCHANGED <<pc, sess, reqNo, node, target, soleBlocker, token, paused, faults>>

(* Downgrade's reply is lost and its context ends before the client has   *)
(* read the read node to learn the outcome (impl/zklock: Lease.downgrade's  *)
(* retry loop): the multi was applied.  (When it was not, the write node    *)
(* stays where it was and only blocks more.)  The client gave up exclusive  *)
(* access when it called Downgrade, so from here on its lease is a read     *)
(* lease, whatever the outcome: the rule this spec checks and impl/zklock  *)
(* follows (Lease.settle).  Keeping the write lease is the mutant           *)
(* SharedLockDowngradeLost, which fails WriterExclusion.  A fault.          *)
DowngradeReplyLost(c) ==
    /\ WithDowngrade
    /\ WithReplyLoss
    /\ ~paused[c]
    /\ Holding(c, "write")
    /\ Live(c)
    /\ Fault
    /\ LET own == ZK!NodeAt(node[c])
       IN  ZK!Multi({own}, LAMBDA z : {[own EXCEPT !.kind = "read", !.czxid = z]})
    /\ kind' = [kind EXCEPT ![c] = "read"]
    /\ UNCHANGED <<pc, sess, reqNo, node, target, soleBlocker, token, paused>>

(* Ending a request (see PredecessorLock!EndRequest): with AsyncDelete   *)
(* the client goes idle at once and the delete of the request's nodes is  *)
(* pending until DeleteLands or the session's expiry.                      *)
EndRequest(c, mine) ==
    IF AsyncDelete
    THEN ZK!QueueDelete(Sess(c), Uuid(c), mine)
    ELSE ZK!DeleteNodes(mine)

(* RUnlock / Unlock: delete(<own node>) (Locks: release).                  *)
Release(c) ==
    /\ ~paused[c]
    /\ pc[c] = "hold"
    /\ Live(c)
    /\ EndRequest(c, {ZK!NodeAt(node[c])})
    /\ Idle(c)
    /\ UNCHANGED <<sess, reqNo, paused, faults>>

(* The context ends while acquiring: delete every node carrying this       *)
(* request's uuid, go idle.  docs/DESIGN.md, "The recipe": a waiter whose  *)
(* context ends deletes its node.                                          *)
Cancel(c) ==
    /\ WithCancel
    /\ ~paused[c]
    /\ pc[c] \in Acquiring
    /\ Live(c)
    /\ EndRequest(c, {n \in nodes : n.uuid = Uuid(c)})
    /\ Idle(c)
    /\ UNCHANGED <<sess, reqNo, paused, faults>>

(* A pending delete reaches the server (see PredecessorLock!DeleteLands).  *)
DeleteLands(u) ==
    /\ ZK!DeleteLands(u)
    /\ UNCHANGED <<clientVars, faults>>

(* The client learns its session is lost (StateExpired, or its loss timer: *)
(* a fault) and drops every belief; later requests use session k+1.        *)
(* Sessions.                                                               *)
LearnExpiry(c) ==
    /\ ~paused[c]
    /\ IF Live(c)
       THEN /\ WithExpiry
            /\ pc[c] # "idle"
            /\ Fault
       ELSE UNCHANGED faults
    /\ sess' = [sess EXCEPT ![c] = @ + 1]
    /\ ZK!NewSession(<<c, sess[c] + 1>>, WatchesOf(c))
    /\ Idle(c)
    /\ UNCHANGED <<reqNo, paused>>

-----------------------------------------------------------------------------
(* The server expires session s (see PredecessorLock!ExpireSession): a     *)
(* fault for a session in use, enabled only while its client does not hold *)
(* or is paused; free for an abandoned session.  Sessions.                 *)
ExpireSession(s) ==
    /\ ZK!IsLive(s)
    /\ LET c == s[1] IN
       /\ IF s = Sess(c)
          THEN /\ WithExpiry
               /\ pc[c] # "hold" \/ paused[c]
               /\ Fault
          ELSE UNCHANGED faults
       /\ ZK!ExpireSession(s, IF s = Sess(c) THEN WatchesOf(c) ELSE {})
    /\ UNCHANGED clientVars

(* A holder's process pauses (a fault); it resumes later.                  *)
PauseClient(c) ==
    /\ WithPause
    /\ ~paused[c]
    /\ pc[c] = "hold"
    /\ Fault
    /\ paused' = [paused EXCEPT ![c] = TRUE]
    /\ UNCHANGED <<zkVars, pc, kind, sess, reqNo, node, target, soleBlocker, token, pending>>

ResumeClient(c) ==
    /\ paused[c]
    /\ paused' = [paused EXCEPT ![c] = FALSE]
    /\ UNCHANGED <<zkVars, pc, kind, sess, reqNo, node, target, soleBlocker, token, faults, pending>>

-----------------------------------------------------------------------------
ClientNext(c) ==
    \/ \E k \in Kinds : RequestLock(c, k)
    \/ CreateOk(c)
    \/ CreateReplyLost(c)
    \/ FindOwnNode(c)
    \/ ListChildren(c)
    \/ WatchPredecessor(c)
    \/ PredecessorGone(c)
    \/ GrantOnHeadGone(c)
    \/ IgnoreNotification(c)
    \/ Grant(c)
    \/ Downgrade(c)
    \/ DowngradeReplyLost(c)
    \/ Release(c)
    \/ Cancel(c)
    \/ LearnExpiry(c)

EnvNext ==
    \/ \E s \in Sessions : ExpireSession(s)
    \/ \E c \in Clients : PauseClient(c) \/ ResumeClient(c)
    \/ \E u \in Clients \X (1..MaxRequests) : DeleteLands(u)

Next == (\E c \in Clients : ClientNext(c)) \/ EnvNext

Spec == Init /\ [][Next]_vars

Progress(c) ==
    \/ CreateOk(c) \/ CreateReplyLost(c) \/ FindOwnNode(c) \/ ListChildren(c)
    \/ WatchPredecessor(c) \/ PredecessorGone(c) \/ GrantOnHeadGone(c)
    \/ IgnoreNotification(c) \/ Grant(c) \/ Release(c) \/ LearnExpiry(c)

Fairness ==
    /\ \A c \in Clients : WF_vars(Progress(c)) /\ WF_vars(ResumeClient(c))
    /\ WF_vars(\E s \in Sessions : Abandoned(s) /\ ExpireSession(s))
    /\ \A c \in Clients : WF_vars(\E r \in 1..MaxRequests : DeleteLands(<<c, r>>))

FairSpec == Spec /\ Fairness

-----------------------------------------------------------------------------
\* A client that believes it holds as a writer is the only one that believes it holds.
WriterExclusion ==
    \A c, d \in Clients : (c # d /\ Holding(c, "write")) => pc[d] # "hold"

\* Node-based: a holding writer whose node exists excludes every other holder
\* whose node exists (under expiry a lost holder's node is gone).
MutualExclusion ==
    \A c, d \in Clients :
        (c # d /\ Holding(c, "write") /\ pc[d] = "hold") =>
            ~(OwnNodeExists(c) /\ OwnNodeExists(d))

\* WITNESS, expected to FAIL: "no two readers hold at once".  Its violation
\* shows that readers do share the lock.
ReadersShare ==
    ~\E c, d \in Clients : c # d /\ Holding(c, "read") /\ Holding(d, "read")

\* A node is watched by at most one waiting writer (readers may share a watch
\* on the writer they wait for: they all proceed when it goes).
NoHerd ==
    \A t \in {w.node : w \in watches} :
        Cardinality({c \in Clients :
                        kind[c] = "write" /\ pc[c] = "wait"
                        /\ [node |-> t, req |-> Uuid(c)] \in watches}) <= 1

\* Every node of a session a client still uses belongs to its running
\* request or has its delete pending (see PredecessorLock!NoOrphans).
NoOrphans ==
    \A n \in nodes :
        LET c == n.owner[1] IN
        n.owner = Sess(c) =>
            \/ n.uuid = Uuid(c) /\ pc[c] # "idle"
            \/ <<n.owner, n.uuid>> \in pending

\* The request u has ended and a node carrying its uuid is still there.
Orphaned(u) ==
    /\ u # Uuid(u[1]) \/ pc[u[1]] = "idle"
    /\ \E n \in nodes : n.uuid = u

\* Liveness (FairSpec, with faults): every node whose request has ended is
\* eventually deleted, by its pending delete or by the expiry of its session.
NoOrphansEventually ==
    \A u \in Clients \X (1..MaxRequests) :
        Orphaned(u) ~> ~\E n \in nodes : n.uuid = u

\* A holder with an existing node has no blocker: a writer is first, a reader
\* has no write node before it.  So grants follow sequence order.
GrantsInSequenceOrder ==
    \A c \in Clients : (pc[c] = "hold" /\ OwnNodeExists(c)) => Blockers(c) = {}

\* A client that knows its node and whose session is live has that node.
KnownNodeExists ==
    \A c \in Clients : (pc[c] \in KnowsNode /\ Live(c)) => OwnNodeExists(c)

\* A reader waiting on an armed watch has a writer ahead of it: readers are
\* never kept waiting by readers (fails for ReaderWatchesPredecessor).
ReadersNotBlockedByReaders ==
    \A c \in Clients :
        (kind[c] = "read" /\ pc[c] = "wait"
         /\ \E w \in watches : w.req = Uuid(c)) =>
            \E n \in nodes : n.seq < node[c] /\ n.kind = "write"

\* Liveness (weak fairness, no faults): every write request is granted ...
NoWriterStarvation ==
    \A c \in Clients : (pc[c] \in Acquiring /\ kind[c] = "write") ~> Holding(c, "write")

\* ... and so is every request.
StarvationFree == \A c \in Clients : (pc[c] \in Acquiring) ~> (pc[c] = "hold")

\* With faults no request hangs: it is granted or ends with an error
\* (PredecessorLock's RequestsEnd).
RequestsEnd == \A c \in Clients : (pc[c] \in Acquiring) ~> (pc[c] \in {"hold", "idle"})

=============================================================================
