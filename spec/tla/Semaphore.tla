------------------------------ MODULE Semaphore ------------------------------
(***************************************************************************)
(* A fenced counting semaphore on ZooKeeper: Apache Curator's              *)
(* InterProcessSemaphoreV2, which zklock's Semaphore follows so that Go    *)
(* and Java clients share one semaphore on one path.                       *)
(*                                                                         *)
(* The semaphore at P with at most MaxLeases holders has two children:     *)
(* P/locks, an internal mutex (the lock recipe), and P/leases, holding one *)
(* EPHEMERAL_SEQUENTIAL lease node per acquisition.  Acquire: take the     *)
(* internal mutex; create a lease node; list P/leases with a child watch   *)
(* on it; if there are at most MaxLeases lease nodes the lease is held,    *)
(* otherwise wait for the child watch to fire and list again, still        *)
(* holding the internal mutex (so only one acquirer at a time waits on the *)
(* leases: no herd); once held, release the internal mutex.  Release:      *)
(* delete the lease node (its deletion fires the waiter's child watch).    *)
(* Cancel: delete the lease node, if any, and release the internal mutex.  *)
(* A lost create reply: find the node by the request's uuid (Curator's     *)
(* protection prefix), never a blind retry.  A lease's fencing token is    *)
(* its node's czxid.                                                       *)
(*                                                                         *)
(* THE INTERNAL MUTEX IS ABSTRACTED as an atomic lock: the variable mutex  *)
(* holds the session that holds it (<<>>: free); AcquireInternal takes it  *)
(* in one step, ReleaseInternal and CancelAcquire free it, and the expiry  *)
(* of the holding session frees it (its lock node is ephemeral; a session  *)
(* the client abandoned keeps it until the server expires it).  Why that  *)
(* is sound: the mutex is the lock recipe, whose configs check what the    *)
(* semaphore uses of it: at most one client believes it holds it           *)
(* (PredecessorLock's NaiveExclusion and MutualExclusion, checked under    *)
(* expiry, the loss timer, lost create replies and cancellation by         *)
(* PredecessorLock.Safety and PredecessorLockConnLoss.Safety), and every   *)
(* request is granted or ends (StarvationFree, RequestsEnd).  INSTANCE     *)
(* PredecessorLock instead would add a second parent's children, watches   *)
(* and a second client state per client: the product of both state spaces *)
(* is far beyond the CI budget, for no behaviour of the leases that the    *)
(* atomic lock lacks.  What the abstraction leaves out: the wait for the   *)
(* internal mutex (AcquireInternal is enabled only when it is free, and it *)
(* starts the request), and the internal lock's own zxids (zxid counts the *)
(* lease writes only; tokens are compared, never counted).                 *)
(*                                                                         *)
(* The ZooKeeper side is ZooKeeper.tla (INSTANCE ZK below): its nodes are  *)
(* the children of P/leases.                                               *)
(*                                                                         *)
(* Sources: Curator = Apache Curator's InterProcessSemaphoreV2             *)
(* (internalAcquire1Lease: lock.acquire, create with protection,           *)
(* getChildren().usingWatcher(watcher), children.size() <= maxLeases,      *)
(* wait(); finally lock.release()); Recipes, "Recoverable Errors and the   *)
(* GUID"; Programmer's Guide, "ZooKeeper Watches", "ZooKeeper Sessions".   *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets

CONSTANTS
    Clients,        \* the client processes (model values)
    MaxLeases,      \* the semaphore's maximum number of holders (Curator's maxLeases)
    MaxRequests,    \* acquisitions each client may make
    MaxSeq,         \* bound on the leases parent's sequence counter
    MaxFaults,      \* budget of fault steps (CreateLeaseReplyLost, LearnExpiry by
                    \* the loss timer, ExpireSession of a session a client uses)
    WithExpiry,     \* server-side session expiry and the client's loss timer
    WithReplyLoss,  \* the reply of a lease create may be lost
    WithCancel,     \* an acquisition's context may end
    WithPause,      \* a holder's process may pause (GC, VM stall), a fault
    \* ---- mutants (the protocol: InternalLock TRUE, the other two FALSE) ----
    InternalLock,   \* acquirers hold the internal mutex from AcquireInternal to
                    \* ReleaseInternal.  FALSE: no internal mutex (Herd,
                    \* NoInternalLockStarve: Curator's count then herds, and two
                    \* acquirers that both count too many wait forever; with
                    \* CountFirst, NoInternalLock: kazoo's double acquire)
    CountFirst,     \* kazoo's order: list the leases first and create only when
                    \* fewer than MaxLeases exist (NoInternalLock: kazoo's issue
                    \* 213, "Non-blocking semaphore can lead to double acquire",
                    \* the lease taken outside the lock)
    BlindRetry      \* a lost create reply is retried by creating again (BlindRetry)

ASSUME MaxLeases \in Nat \ {0} /\ MaxRequests \in Nat /\ MaxSeq \in Nat /\ MaxFaults \in Nat
ASSUME {WithExpiry, WithReplyLoss, WithCancel, WithPause, InternalLock, CountFirst, BlindRetry} \subseteq BOOLEAN

VARIABLES
    \* ---- ZooKeeper server (ZooKeeper.tla): the children of P/leases ----
    nodes, nextSeq, zxid, live, watches, inbox, pending,
    \* ---- clients ----
    pc,         \* the client's control state, see PCs
    sess,       \* k of the client's current session <<c, k>>
    reqNo,      \* number of the client's current (or last) acquisition: uuid <<c, reqNo>>
    node,       \* seq of the client's own lease node, NoNode while unknown
    paused,     \* the client's process is paused
    \* ---- the internal mutex (P/locks), abstracted ----
    mutex,      \* the session holding the internal mutex, NoSession if none
    \* ---- fault budget ----
    faults      \* fault steps taken so far

zkVars     == <<nodes, nextSeq, zxid, live, watches, inbox, pending>>
clientVars == <<pc, sess, reqNo, node, paused>>
vars       == <<zkVars, clientVars, mutex, faults>>

-----------------------------------------------------------------------------
NoNode == -1        \* the client does not know its lease node
Parent == -2        \* the name a child watch on P/leases is set on
NoSession == <<>>   \* nobody holds the internal mutex

PCs == {"idle",    \* no acquisition
        "create",  \* holds the internal mutex, about to create its lease node
        "find",    \* the create's reply was lost: must find its node by uuid
        "list",    \* about to list P/leases (with a child watch)
        "wait",    \* too many leases: waiting for the child watch to fire
        "release", \* the lease is held: about to release the internal mutex
        "hold"}    \* holds a lease (acquire returned)

Acquiring == {"create", "find", "list", "wait"}

Sessions == Clients \X (1..MaxFaults + 1)
Uuids == Clients \X (1..MaxRequests)

\* The ZooKeeper side: a lease node's name is its sequence number, a child
\* watch is set on Parent; names are ordered as numbers.
Name(n) == n.seq
NameLess(a, b) == a < b
ZK == INSTANCE ZooKeeper

Sess(c) == <<c, sess[c]>>        \* the session the client currently uses
Uuid(c) == <<c, reqNo[c]>>       \* uuid of the client's current (or last) acquisition
Live(c) == ZK!IsLive(Sess(c))    \* a ZooKeeper call by c can succeed
OwnLeaseExists(c) ==
    \E n \in nodes : n.seq = node[c] /\ n.owner = Sess(c) /\ n.uuid = Uuid(c)
NodeOf(c, s, z) == [seq |-> s, owner |-> Sess(c), uuid |-> Uuid(c), czxid |-> z]
WatchesOf(c) == {w \in watches : w.req[1] = c}
Abandoned(s) == s \in live /\ s # Sess(s[1])

\* The client believes it holds a lease: acquire has decided (and is
\* releasing the internal mutex) or has returned.
HoldsLease(c) == pc[c] \in {"release", "hold"}

\* Where a client goes once the count says the lease is held: it releases
\* the internal mutex first, if it took one.
Held == IF InternalLock THEN "release" ELSE "hold"
\* Where a client goes once its lease node is known: list the leases, or
\* in kazoo's order (the count came first) the lease is held.
AfterCreate == IF CountFirst THEN Held ELSE "list"

Idle(c) ==
    /\ pc' = [pc EXCEPT ![c] = "idle"]
    /\ node' = [node EXCEPT ![c] = NoNode]

\* The internal mutex once session s no longer holds it.
Freed(s) == IF mutex = s THEN NoSession ELSE mutex

Fault == faults < MaxFaults /\ faults' = faults + 1

-----------------------------------------------------------------------------
TypeOK ==
    /\ ZK!TypeOK([seq : 0..MaxSeq, owner : Sessions, uuid : Uuids, czxid : Nat],
                 0..MaxSeq \cup {Parent}, Sessions, Uuids)
    /\ pc \in [Clients -> PCs]
    /\ sess \in [Clients -> 1..MaxFaults + 1]
    /\ reqNo \in [Clients -> 0..MaxRequests]
    /\ node \in [Clients -> 0..MaxSeq \cup {NoNode}]
    /\ paused \in [Clients -> BOOLEAN]
    /\ mutex \in Sessions \cup {NoSession}
    /\ faults \in 0..MaxFaults

Init ==
    /\ ZK!Init
    /\ pc = [c \in Clients |-> "idle"]
    /\ sess = [c \in Clients |-> 1]
    /\ reqNo = [c \in Clients |-> 0]
    /\ node = [c \in Clients |-> NoNode]
    /\ paused = [c \in Clients |-> FALSE]
    /\ mutex = NoSession
    /\ faults = 0

-----------------------------------------------------------------------------
(***************************************************************************)
(* Client actions.  A paused client takes no step.  Every ZooKeeper call   *)
(* requires the client's session to be live (on an expired session every   *)
(* call fails with SESSIONEXPIRED and the client's only step is            *)
(* LearnExpiry).                                                           *)
(***************************************************************************)

(* Semaphore.Acquire called: a new acquisition with a fresh uuid, and the  *)
(* internal mutex (P/locks, the lock recipe) granted to the client's       *)
(* session in one step (see the module comment).  Curator: lock.acquire    *)
(* in internalAcquire1Lease.  Without InternalLock the step only starts    *)
(* the acquisition.  In kazoo's order (CountFirst) the leases are listed   *)
(* before anything is created.                                             *)
AcquireInternal(c) ==
    /\ ~paused[c]
    /\ pc[c] = "idle"
    /\ reqNo[c] < MaxRequests
    /\ Live(c)
    /\ IF InternalLock
       THEN /\ mutex = NoSession
            /\ mutex' = Sess(c)
       ELSE UNCHANGED mutex
    /\ pc' = [pc EXCEPT ![c] = IF CountFirst THEN "list" ELSE "create"]
    /\ reqNo' = [reqNo EXCEPT ![c] = @ + 1]
    /\ UNCHANGED <<zkVars, sess, node, paused, faults>>

(* create(P/leases/_c_<uuid>-lease-, EPHEMERAL_SEQUENTIAL), reply         *)
(* received: the client knows its lease node.  Curator: creatingParents... *)
(* withProtection().withMode(EPHEMERAL_SEQUENTIAL).                        *)
CreateLease(c) ==
    /\ ~paused[c]
    /\ pc[c] = "create"
    /\ Live(c)
    /\ ZK!CreateNode(LAMBDA s, z : NodeOf(c, s, z))
    /\ pc' = [pc EXCEPT ![c] = AfterCreate]
    /\ node' = [node EXCEPT ![c] = nextSeq]
    /\ UNCHANGED <<sess, reqNo, paused, mutex, faults>>

(* The same create succeeds on the server but the reply is lost            *)
(* (ConnectionLoss): the node exists, the client does not know its name.   *)
(* A fault.  The client looks for it by uuid (FindOwnLease); the mutant    *)
(* BlindRetry creates again instead, the mistake the recipes page warns    *)
(* about (a sequential create is not idempotent): the first node stays     *)
(* behind as a lease nobody will release while the session lives.          *)
CreateLeaseReplyLost(c) ==
    /\ WithReplyLoss
    /\ ~paused[c]
    /\ pc[c] = "create"
    /\ Live(c)
    /\ Fault
    /\ ZK!CreateNode(LAMBDA s, z : NodeOf(c, s, z))
    /\ pc' = [pc EXCEPT ![c] = IF BlindRetry THEN "create" ELSE "find"]
    /\ UNCHANGED <<sess, reqNo, node, paused, mutex>>

(* getChildren(P/leases): a node of the current session carrying this      *)
(* request's uuid is ours (Curator's protection: findProtectedNodeInForeground). *)
(* Found: go on with it.  Not found: create again (cannot happen here: the *)
(* lost create succeeded and the request does not outlive its session; the *)
(* branch is the implementation's).  GUID.                                 *)
FindOwnLease(c) ==
    /\ ~paused[c]
    /\ pc[c] = "find"
    /\ Live(c)
    /\ LET mine == {n \in nodes : n.uuid = Uuid(c) /\ n.owner = Sess(c)}
       IN  IF mine # {}
           THEN LET n == CHOOSE n \in mine : TRUE
                IN  /\ pc' = [pc EXCEPT ![c] = AfterCreate]
                    /\ node' = [node EXCEPT ![c] = n.seq]
           ELSE /\ pc' = [pc EXCEPT ![c] = "create"]
                /\ UNCHANGED node
    /\ UNCHANGED <<zkVars, sess, reqNo, paused, mutex, faults>>

(* getChildren(P/leases, watch): the listing and the child watch are one   *)
(* server step.  At most MaxLeases lease nodes (ours among them): the      *)
(* lease is held.  More: wait for the watch.  Curator sets the watch on    *)
(* every listing, so a holder's watch stays armed and later fires          *)
(* harmlessly (IgnoreNotification).  In kazoo's order (CountFirst, no node *)
(* yet): fewer than MaxLeases nodes -> create, else wait.                  *)
ListLeases(c) ==
    /\ ~paused[c]
    /\ pc[c] = "list"
    /\ Live(c)
    /\ ZK!SetWatch(Parent, Uuid(c))
    /\ pc' = [pc EXCEPT ![c] =
                IF CountFirst
                THEN IF Cardinality(nodes) < MaxLeases THEN "create" ELSE "wait"
                ELSE IF Cardinality(nodes) <= MaxLeases THEN Held ELSE "wait"]
    /\ UNCHANGED <<sess, reqNo, node, paused, mutex, faults>>

(* The child watch of the current acquisition fired (NodeChildrenChanged): *)
(* list again.  Curator: the watcher's notifyAll wakes the wait().         *)
LeasesChanged(c) ==
    /\ ~paused[c]
    /\ ZK!HasEvent(c)
    /\ ZK!NextEvent(c).req = Uuid(c)
    /\ pc[c] = "wait"
    /\ ZK!TakeEvent(c)
    /\ pc' = [pc EXCEPT ![c] = "list"]
    /\ UNCHANGED <<sess, reqNo, node, paused, mutex, faults>>

(* Internal: the head of the inbox is for an acquisition that does not     *)
(* wait (a holder's watch, or a cancelled request's): dropped.             *)
IgnoreNotification(c) ==
    /\ ~paused[c]
    /\ ZK!HasEvent(c)
    /\ ~(ZK!NextEvent(c).req = Uuid(c) /\ pc[c] = "wait")
    /\ ZK!TakeEvent(c)
    /\ UNCHANGED <<clientVars, mutex, faults>>

(* The lease is held: release the internal mutex (delete of the client's   *)
(* P/locks node; Curator: lock.release() in the finally of                 *)
(* internalAcquire1Lease), and acquire returns.                            *)
ReleaseInternal(c) ==
    /\ ~paused[c]
    /\ pc[c] = "release"
    /\ Live(c)
    /\ mutex' = Freed(Sess(c))
    /\ pc' = [pc EXCEPT ![c] = "hold"]
    /\ UNCHANGED <<zkVars, sess, reqNo, node, paused, faults>>

(* Lease.Close: delete(<own lease node>); the waiter's child watch fires.  *)
(* Curator: returnLease.                                                   *)
ReleaseLease(c) ==
    /\ ~paused[c]
    /\ pc[c] = "hold"
    /\ Live(c)
    /\ ZK!DeleteNodes({ZK!NodeAt(node[c])})
    /\ Idle(c)
    /\ UNCHANGED <<sess, reqNo, paused, mutex, faults>>

(* The acquisition's context ends: delete every lease node carrying this   *)
(* request's uuid (found by listing, so it works while the node is unknown *)
(* after a lost reply) and release the internal mutex.  A child watch the  *)
(* request armed stays behind and fires harmlessly.  Curator: the finally  *)
(* of internalAcquire1Lease (lock.release, returnLease of the unused       *)
(* lease).                                                                 *)
CancelAcquire(c) ==
    /\ WithCancel
    /\ ~paused[c]
    /\ pc[c] \in Acquiring
    /\ Live(c)
    /\ ZK!DeleteNodes({n \in nodes : n.uuid = Uuid(c)})
    /\ mutex' = Freed(Sess(c))
    /\ Idle(c)
    /\ UNCHANGED <<sess, reqNo, paused, faults>>

(* The client learns its session is lost and drops every belief: the       *)
(* server expired it, or its own loss timer fired while the server may     *)
(* still have it (a fault).  Later acquisitions use <<c, k+1>>; the        *)
(* abandoned session keeps its lease node and the internal mutex, if it    *)
(* held them, until the server expires it.  As in PredecessorLock.         *)
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
    /\ UNCHANGED <<reqNo, paused, mutex>>

-----------------------------------------------------------------------------
(* The server expires session s (closeSession): its lease node goes and    *)
(* the child watches fire; its internal-mutex node goes too, freeing the   *)
(* mutex.  For the session a client uses this is a fault, and the client's *)
(* loss timer fires first while it believes it holds a lease or the        *)
(* internal mutex (PredecessorLock's rule, checked by SessionTiming): so   *)
(* it is enabled only when the client holds neither, unless it is a        *)
(* paused holder (a pause outlasts the loss timer: the reason fencing      *)
(* exists).  An abandoned session may always expire, at no cost.           *)
ExpireSession(s) ==
    /\ ZK!IsLive(s)
    /\ LET c == s[1] IN
       /\ IF s = Sess(c)
          THEN /\ WithExpiry
               \* An implication, not ~HoldsLease(c) \/ paused[c]: TLC makes
               \* one successor per true disjunct.
               /\ HoldsLease(c) => paused[c]
               /\ mutex # s
               /\ Fault
          ELSE UNCHANGED faults
       /\ ZK!ExpireSession(s, IF s = Sess(c) THEN WatchesOf(c) ELSE {})
    /\ mutex' = Freed(s)
    /\ UNCHANGED clientVars

(* A holder's process pauses (GC, VM stall, SIGSTOP): a fault.  Only a     *)
(* holder pauses, as in PredecessorLock with GrantRule "reread": every     *)
(* step of an acquirer is a call on its session, so an acquirer whose      *)
(* session expired during a pause (freeing the internal mutex with it) can *)
(* only take LearnExpiry when it resumes; a holder's use of its lease      *)
(* needs no call, which is what fencing is for.                            *)
PauseClient(c) ==
    /\ WithPause
    /\ ~paused[c]
    /\ pc[c] = "hold"
    /\ Fault
    /\ paused' = [paused EXCEPT ![c] = TRUE]
    /\ UNCHANGED <<zkVars, pc, sess, reqNo, node, mutex>>

(* The pause ends; the client still believes it holds its lease.           *)
ResumeClient(c) ==
    /\ paused[c]
    /\ paused' = [paused EXCEPT ![c] = FALSE]
    /\ UNCHANGED <<zkVars, pc, sess, reqNo, node, mutex, faults>>

ClientNext(c) ==
    \/ AcquireInternal(c)
    \/ CreateLease(c)
    \/ CreateLeaseReplyLost(c)
    \/ FindOwnLease(c)
    \/ ListLeases(c)
    \/ LeasesChanged(c)
    \/ IgnoreNotification(c)
    \/ ReleaseInternal(c)
    \/ ReleaseLease(c)
    \/ CancelAcquire(c)
    \/ LearnExpiry(c)

Next ==
    \/ \E c \in Clients : ClientNext(c)
    \/ \E s \in Sessions : ExpireSession(s)
    \/ \E c \in Clients : PauseClient(c) \/ ResumeClient(c)

Spec == Init /\ [][Next]_vars

(* Fairness: a client keeps taking the steps of an acquisition once it has *)
(* started one, and a holder eventually releases (acquiring and cancelling *)
(* are the user's choice); a pause ends; an abandoned session is           *)
(* eventually expired.                                                     *)
Progress(c) ==
    \/ CreateLease(c) \/ CreateLeaseReplyLost(c) \/ FindOwnLease(c) \/ ListLeases(c)
    \/ LeasesChanged(c) \/ IgnoreNotification(c) \/ ReleaseInternal(c)
    \/ ReleaseLease(c) \/ LearnExpiry(c)

FairSpec ==
    /\ Spec
    /\ \A c \in Clients : WF_vars(Progress(c)) /\ WF_vars(ResumeClient(c))
    /\ WF_vars(\E s \in Sessions : Abandoned(s) /\ ExpireSession(s))

-----------------------------------------------------------------------------
(***************************************************************************)
(* Properties.                                                             *)
(***************************************************************************)

\* At most MaxLeases clients believe they hold a lease.  Why it holds with
\* Curator's count (after the create): the holder that listed last saw the
\* nodes of every other holder, which exist until they release; so it holds
\* even without the internal mutex (the Herd config), and fails in kazoo's
\* order without it (NoInternalLock).  Holds with expiry (the loss timer
\* fires first); fails with pauses (Pause): the reason fencing exists.
AtMostMaxHolders == Cardinality({c \in Clients : HoldsLease(c)}) <= MaxLeases

\* Fenced safety under pauses.  What a fence means for MaxLeases holders:
\* the resource accepts a write only from a lease whose node still exists
\* (its path and its token, the czxid: a multi with a check of the lease
\* node, or an exists whose czxid must equal the token; here paths are
\* never reused, so the seq names the node).  Then at most MaxLeases
\* clients can write at once: those that believe they hold and whose lease
\* node exists, which this counts.  (PredecessorLock's MutualExclusion, for
\* N holders.)  A lock's fence, "a token no lower than the highest seen",
\* does not carry over: leases are not ordered, and with MaxLeases = 2 a
\* valid older lease would be refused once two newer ones had written.
AtMostMaxFencedHolders ==
    Cardinality({c \in Clients : HoldsLease(c) /\ OwnLeaseExists(c)}) <= MaxLeases

\* A client that knows its lease node and whose session is live has it.
KnownLeaseExists ==
    \A c \in Clients : (node[c] # NoNode /\ Live(c)) => OwnLeaseExists(c)

\* No leaked lease: every lease node of a session a client still uses is the
\* node of its running acquisition, the one it knows (or the one it is
\* looking for after a lost reply).  A node of an ended acquisition, or a
\* second node of a running one, would count against MaxLeases until the
\* session ends.  (Nodes of abandoned sessions go when the server expires
\* them.)  PredecessorLock's NoOrphans, one node per request.  (Curator
\* fixed two such leaks: CURATOR-315, a reconnect during acquire, and
\* CURATOR-462, an acquire interrupted at the wrong time.)
NoLeakedLeases ==
    \A n \in nodes :
        LET c == n.owner[1] IN
        n.owner = Sess(c) =>
            /\ n.uuid = Uuid(c)
            /\ pc[c] # "idle"
            /\ node[c] \in {NoNode, n.seq}

\* No herd: a change of the leases wakes at most one acquirer.  Counted:
\* clients waiting on an armed child watch of their current acquisition
\* that no event has woken yet (a holder's leftover watch wakes nobody).
Woken(c) == \E i \in DOMAIN inbox[c] : inbox[c][i].req = Uuid(c)
Waiters == {c \in Clients : pc[c] = "wait" /\ ~Woken(c)
                            /\ [node |-> Parent, req |-> Uuid(c)] \in watches}
NoHerd == Cardinality(Waiters) <= 1

\* The one acquirer a change of the leases may wake is the holder of the
\* internal mutex: that is why there is no herd.
WaiterHoldsInternal == \A c \in Waiters : mutex = Sess(c)

\* Liveness (FairSpec): every acquisition is granted or ends.
StarvationFree == \A c \in Clients : (pc[c] \in Acquiring) ~> (pc[c] \notin Acquiring)

=============================================================================
