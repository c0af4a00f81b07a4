--------------------------- MODULE PredecessorLock ---------------------------
(***************************************************************************)
(* The exclusive, herd-free ZooKeeper lock of zklock (impl/zklock Mutex).  *)
(*                                                                         *)
(* Every client that wants the lock creates an EPHEMERAL_SEQUENTIAL node   *)
(* `<lock>/_c_<uuid>-lock-<seq>` under the lock's parent, lists the        *)
(* children, holds the lock when its node has the smallest sequence        *)
(* number, and otherwise watches only the node immediately before its own  *)
(* (getData with a watch: read and watch-set are one atomic server step).  *)
(* After a notification it lists the children again, unless the node it    *)
(* watched was the only one before its own at the listing that chose it:   *)
(* then that node's deletion is the grant (GrantOnHeadGone).  A waiter     *)
(* with two or more nodes before its own also watches the node two ahead   *)
(* (WatchSecond): its deletion makes the waiter list again while its       *)
(* predecessor typically still holds, so that the predecessor's deletion   *)
(* is then the grant in one notification.  Each event names the node it   *)
(* is for; only the event of the current target may be the grant.         *)
(*                                                                         *)
(* The spec models the ZooKeeper side (nodes, sessions, one-shot watches,  *)
(* per-client FIFO notification delivery, a monotonic zxid: ZooKeeper.tla, *)
(* INSTANCEd as ZK below, shared with SharedLock) and each client's steps, *)
(* plus the faults zklock must survive: a create whose reply is lost,      *)
(* server-side session expiry, a client's loss timer, and process pauses.  *)
(*                                                                         *)
(* Public sources cited in the action comments:                            *)
(*   Locks     ZooKeeper recipes, "Locks", steps 1-5 and the release       *)
(*             (https://zookeeper.apache.org/doc/current/recipes.html)     *)
(*   GUID      the same page, "Recoverable Errors and the GUID": a create  *)
(*             whose reply is lost may have succeeded; look for the guid   *)
(*             among the children before creating again                    *)
(*   Shared    the same page, "Shared Locks"                               *)
(*   Watches   ZooKeeper Programmer's Guide, "ZooKeeper Watches": a read   *)
(*             sets its watch in the same server step; one-time triggers   *)
(*   Sessions  ZooKeeper Programmer's Guide, "ZooKeeper Sessions": an      *)
(*             expired session's ephemeral nodes are deleted               *)
(*   Curator   Apache Curator's InterProcessMutex (LockInternals's         *)
(*             internalLockLoop: NoNode on the predecessor -> list again)  *)
(*                                                                         *)
(* spec/tla/README.md is the contract between this spec, the Go model in   *)
(* model/ and the trace events of impl/zklock: keep them in step.          *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets

CONSTANTS
    Clients,        \* the client processes (model values)
    MaxRequests,    \* lock requests each client may make
    MaxSeq,         \* bound on the parent's sequence counter (sequential creates)
    MaxFaults,      \* budget of fault steps (see Fault below)
    WithExpiry,     \* server-side session expiry and the client's loss timer
    WithReplyLoss,  \* the reply of a create may be lost
    WithPause,      \* a process may pause: a holder's ("reread"), any non-idle one's
    WithCancel,     \* a request's context may end while it acquires
    Fencing,        \* the resource rejects writes with a token below the highest seen
    GrantRule,      \* how a client that is first becomes the holder, see GrantRules
    AsyncDelete     \* Release and Cancel end the request at once; the delete lands later

ASSUME MaxRequests \in Nat /\ MaxSeq \in Nat /\ MaxFaults \in Nat
ASSUME {WithExpiry, WithReplyLoss, WithPause, WithCancel, Fencing, AsyncDelete} \subseteq BOOLEAN

(***************************************************************************)
(* GrantRules: the grant step (Grant) and the pauses (PauseClient).        *)
(*   "reread"   the grant is a ZooKeeper call on a live session: getData   *)
(*              of the own node, whose czxid is the token; only a holder   *)
(*              pauses.  The protocol as first specified.                  *)
(*   "local"    the grant is a local step, as in impl/zklock: the token is *)
(*              the czxid known since the node became known (KnownToken),  *)
(*              and the grant checks nothing; a client may pause in every  *)
(*              state but "idle".  The implementation before the grant     *)
(*              checked its loss deadline (must fail TokensIncrease).      *)
(*   "checked"  as "local", but the grant is refused once the client's     *)
(*              loss deadline has passed (impl/zklock contender.grant      *)
(*              calls Session.checkDeadline, deadline.go); see Overdue.    *)
(***************************************************************************)
GrantRules == {"reread", "local", "checked"}
ASSUME GrantRule \in GrantRules

(* A waiter with two or more nodes ahead also watches the node two ahead   *)
(* (WatchSecond).  A definition, not a constant, so that no config need   *)
(* set it: the refinement configs of SharedLockRefinesPredecessor override *)
(* it with FALSE (TLC's `SecondWatch <- [PredecessorLock] OneWatch`), to   *)
(* compare RWMutex's writers, which watch one node each, with this         *)
(* protocol as it was before the second watch.                             *)
SecondWatch == TRUE

VARIABLES
    \* ---- ZooKeeper server ----
    nodes,      \* lock nodes under the parent: [seq, owner, uuid, czxid]
    nextSeq,    \* the parent's sequence counter: suffix of the next sequential create
    zxid,       \* zxid of the last write transaction (create, delete, closeSession)
    live,       \* sessions the server considers live: <<client, k>>
    watches,    \* armed one-shot watches: [node, req] (node = watched seq or Parent)
    inbox,      \* per-client FIFO of delivered, unconsumed notifications ([node, req])
    \* ---- clients ----
    pc,         \* the client's control state, see PCs
    sess,       \* k of the client's current session <<c, k>>
    reqNo,      \* number of the client's current (or last) request: uuid <<c, reqNo>>
    node,       \* seq of the client's own node, NoNode while unknown
    target,     \* seq of the node the client watches or is about to watch, NoNode if none
    second,     \* seq of the node two ahead (the largest before target) the client also
                \* watches, NoNode if the listing showed fewer than two nodes before ours
    soleBlocker,\* target was the only node before ours at the listing that chose it
    token,      \* fencing token (czxid of the own node): with GrantRule "reread" read at
                \* Grant, otherwise known with the node; 0 when idle
    tenure,     \* grant number of the lease, 0 when not holding
    paused,     \* the client's process is paused
    \* ---- the fenced resource, fault budget and history ----
    faults,     \* fault steps taken so far
    grants,     \* grants so far (the last tenure number handed out)
    lastToken,  \* token of the most recent grant
    resHigh,    \* highest token the resource has accepted
    resTenure,  \* tenure of the last write the resource accepted
    \* ---- deletes sent but not yet landed (AsyncDelete) ----
    pending     \* <<session, uuid>>: the delete of that request's nodes is on its way

zkVars     == <<nodes, nextSeq, zxid, live, watches, inbox>>
clientVars == <<pc, sess, reqNo, node, target, second, soleBlocker, token, tenure, paused>>
histVars   == <<faults, grants, lastToken, resHigh, resTenure>>
vars       == <<zkVars, clientVars, histVars, pending>>

-----------------------------------------------------------------------------
(* Constants derived for readability. *)

NoNode == -1    \* "no node": the client does not know / has not chosen a node
Parent == -2    \* watch target meaning the lock's parent node (getChildren watch)

PCs == {"idle",   \* no request
        "create", \* about to create its lock node
        "find",   \* create's reply was lost: must find its node by uuid
        "list",   \* about to list the children
        "second", \* chose target and second, about to getData+watch second
        "watch",  \* chose a node to watch (target), about to getData+watch it
        "wait",   \* watch armed, waiting for a notification
        "grant",  \* its node is first: about to read it and hold
        "hold"}   \* believes it holds the lock

\* Every session a client may use: a client starts with session 1 and moves
\* to the next one only after a fault (an expiry or its loss timer).
Sessions == Clients \X (1..MaxFaults + 1)

Acquiring == {"create", "find", "list", "second", "watch", "wait", "grant"}
KnowsNode == {"list", "second", "watch", "wait", "grant", "hold"}

\* The ZooKeeper side (ZooKeeper.tla): a node's name, what a watch is set
\* on, is its sequence number; a child watch is set on Parent.
\* Names are ordered as numbers (the order of one transaction's events).
Name(n) == n.seq
NameLess(a, b) == a < b
ZK == INSTANCE ZooKeeper

Sess(c) == <<c, sess[c]>>        \* the session the client currently uses
Uuid(c) == <<c, reqNo[c]>>       \* uuid of the client's current (or last) request
Live(c) == ZK!IsLive(Sess(c))    \* a ZooKeeper call by c can succeed
Seqs(S) == {n.seq : n \in S}
Max(S) == CHOOSE x \in S : \A y \in S : y <= x
OwnNodeExists(c) == \E n \in nodes : n.seq = node[c] /\ n.owner = Sess(c) /\ n.uuid = Uuid(c)

\* The node client c's current request creates: sequence number s and czxid
\* z are the server's (ZK!CreateNode), owner and uuid the client's.
NodeOf(c, s, z) == [seq |-> s, owner |-> Sess(c), uuid |-> Uuid(c), czxid |-> z]

\* The watches client c has set: all in its current session (a watch of a
\* session the client left is gone with it), so ExpireSession and
\* LearnExpiry drop them with that session.
WatchesOf(c) == {w \in watches : w.req[1] = c}

\* A session is abandoned when the server still has it but its client has
\* moved on to a newer session (its loss timer fired).
Abandoned(s) == s \in live /\ s # Sess(s[1])

(***************************************************************************)
(* The client's loss deadline has passed (impl/zklock: the deadline of its *)
(* lossClock; checkDeadline).  The spec has no clocks; it abstracts the    *)
(* deadline by the rule it already uses for ExpireSession: the deadline   *)
(* of a session passes before the server may expire it.  So when the       *)
(* client's current session is no longer live, the deadline has certainly *)
(* passed: Overdue is exactly the flag "the server expired the client's    *)
(* current session", which LearnExpiry clears with the move to a new       *)
(* session (a variable set by ExpireSession and cleared by LearnExpiry     *)
(* would always equal it).  While the session is live the deadline may or  *)
(* may not have passed: a grant there is allowed (more behaviours than the *)
(* code has, so safety shown here holds for the code), and the code's      *)
(* refusal shows up as LearnExpiry by the loss timer, a step the client    *)
(* may take in any non-idle state.                                         *)
(***************************************************************************)
Overdue(c) == ~Live(c)

\* The server transaction (create, delete, closeSession, with the watches
\* it fires) is ZK!Txn, used through ZK's steps: ZooKeeper.tla.

\* The token as the client knows it once its node is known.  impl/zklock
\* takes it from the create's reply (a create2 carries the new node's
\* Stat), or reads the node's stat in FindOwnNode; a czxid never changes,
\* so the spec takes it at CreateOk and FindOwnNode.  With GrantRule "reread" the client learns it only at Grant.
KnownToken(c, z) == IF GrantRule = "reread" THEN token ELSE [token EXCEPT ![c] = z]

\* Reset of a client's per-request state.
Idle(c) ==
    /\ pc' = [pc EXCEPT ![c] = "idle"]
    /\ node' = [node EXCEPT ![c] = NoNode]
    /\ target' = [target EXCEPT ![c] = NoNode]
    /\ second' = [second EXCEPT ![c] = NoNode]
    /\ soleBlocker' = [soleBlocker EXCEPT ![c] = FALSE]
    /\ token' = [token EXCEPT ![c] = 0]
    /\ tenure' = [tenure EXCEPT ![c] = 0]

\* A fault step spends one unit of the budget.
Fault == faults < MaxFaults /\ faults' = faults + 1

-----------------------------------------------------------------------------
TypeOK ==
    /\ ZK!TypeOK([seq : 0..MaxSeq, owner : Sessions,
                  uuid : Clients \X (1..MaxRequests), czxid : Nat],
                 0..MaxSeq \cup {Parent}, Sessions, Clients \X (1..MaxRequests))
    /\ pc \in [Clients -> PCs]
    /\ sess \in [Clients -> 1..MaxFaults + 1]
    /\ reqNo \in [Clients -> 0..MaxRequests]
    /\ node \in [Clients -> 0..MaxSeq \cup {NoNode}]
    /\ target \in [Clients -> 0..MaxSeq \cup {NoNode}]
    /\ second \in [Clients -> 0..MaxSeq \cup {NoNode}]
    /\ soleBlocker \in [Clients -> BOOLEAN]
    /\ token \in [Clients -> Nat]
    /\ tenure \in [Clients -> Nat]
    /\ paused \in [Clients -> BOOLEAN]
    /\ faults \in 0..MaxFaults
    /\ grants \in Nat /\ lastToken \in Nat /\ resHigh \in Nat /\ resTenure \in Nat

Init ==
    /\ ZK!Init
    /\ pc = [c \in Clients |-> "idle"]
    /\ sess = [c \in Clients |-> 1]
    /\ reqNo = [c \in Clients |-> 0]
    /\ node = [c \in Clients |-> NoNode]
    /\ target = [c \in Clients |-> NoNode]
    /\ second = [c \in Clients |-> NoNode]
    /\ soleBlocker = [c \in Clients |-> FALSE]
    /\ token = [c \in Clients |-> 0]
    /\ tenure = [c \in Clients |-> 0]
    /\ paused = [c \in Clients |-> FALSE]
    /\ faults = 0
    /\ grants = 0
    /\ lastToken = 0
    /\ resHigh = 0
    /\ resTenure = 0

-----------------------------------------------------------------------------
(***************************************************************************)
(* Client actions.  A paused client takes no step.  Every action that is a *)
(* ZooKeeper call requires the client's session to be live: on an expired  *)
(* session every call fails with SESSIONEXPIRED and the client's only      *)
(* step is LearnExpiry.  (This is also how "ListChildren finds its own     *)
(* node missing" shows up: the own node of a client that knows it exists   *)
(* as long as its session is live, see KnownNodeExists.)                   *)
(***************************************************************************)

(* Mutex.Lock called: a new request with a fresh uuid (uuid <<c, reqNo>>). *)
(* Locks step 1, GUID: the uuid is chosen before the create so the node    *)
(* can be recognised after a lost reply.                                   *)
RequestLock(c) ==
    /\ ~paused[c]
    /\ pc[c] = "idle"
    /\ reqNo[c] < MaxRequests
    /\ pc' = [pc EXCEPT ![c] = "create"]
    /\ reqNo' = [reqNo EXCEPT ![c] = @ + 1]
    /\ UNCHANGED <<zkVars, sess, node, target, second, soleBlocker, token, tenure, paused, histVars, pending>>

(* create(`<lock>/_c_<uuid>-lock-`, EPHEMERAL_SEQUENTIAL), reply received: *)
(* the server appends the next sequence number; the client knows its node. *)
(* Locks step 1 ("_locknode_/guid-lock-", sequence and ephemeral flags).   *)
CreateOk(c) ==
    /\ ~paused[c]
    /\ pc[c] = "create"
    /\ Live(c)
    /\ ZK!CreateNode(LAMBDA s, z : NodeOf(c, s, z))
    /\ pc' = [pc EXCEPT ![c] = "list"]
    /\ node' = [node EXCEPT ![c] = nextSeq]
    /\ token' = KnownToken(c, zxid + 1)
    /\ UNCHANGED <<sess, reqNo, target, second, soleBlocker, tenure, paused, histVars>>

(* The same create succeeds on the server but the connection drops before  *)
(* the reply (ConnectionLoss): the node exists, the client does not know   *)
(* its name.  A fault.  GUID (connection loss may hit the request or the   *)
(* response).                                                              *)
CreateReplyLost(c) ==
    /\ WithReplyLoss
    /\ ~paused[c]
    /\ pc[c] = "create"
    /\ Live(c)
    /\ Fault
    /\ ZK!CreateNode(LAMBDA s, z : NodeOf(c, s, z))
    /\ pc' = [pc EXCEPT ![c] = "find"]
    /\ UNCHANGED <<sess, reqNo, node, target, second, soleBlocker, token, tenure, paused,
                   grants, lastToken, resHigh, resTenure>>

(* After reconnecting: getChildren, look for a node whose name carries this *)
(* request's uuid AND that is owned by the current session (a node of an    *)
(* older session is not ours any more).  Found: continue with it.  Not      *)
(* found: create again.  GUID.                                             *)
(* (Not-found cannot happen here: a request never outlives its session, and *)
(* the create whose reply was lost did succeed; the branch is the           *)
(* implementation's and is kept so the Go model mirrors it.)                *)
FindOwnNode(c) ==
    /\ ~paused[c]
    /\ pc[c] = "find"
    /\ Live(c)
    /\ LET mine == {n \in nodes : n.uuid = Uuid(c) /\ n.owner = Sess(c)}
       IN  IF mine # {}
           THEN LET n == CHOOSE n \in mine : TRUE
                IN  /\ pc' = [pc EXCEPT ![c] = "list"]
                    /\ node' = [node EXCEPT ![c] = n.seq]
                    /\ token' = KnownToken(c, n.czxid)
           ELSE /\ pc' = [pc EXCEPT ![c] = "create"]
                /\ UNCHANGED <<node, token>>
    /\ UNCHANGED <<zkVars, sess, reqNo, target, second, soleBlocker, tenure, paused, histVars, pending>>

(* getChildren(<lock>) without a watch; sort by sequence suffix.  No node   *)
(* before ours: the lock is ours (go on to Grant).  Otherwise choose the    *)
(* node immediately before ours.  Locks steps 2-4 (no watch on the         *)
(* listing: each node is watched by one client only as its predecessor, no *)
(* herd effect).  With two or more nodes before ours, also the one before  *)
(* that (second), to watch first (WatchSecond).                            *)
ListChildren(c) ==
    /\ ~paused[c]
    /\ pc[c] = "list"
    /\ Live(c)
    /\ LET before == {n \in nodes : n.seq < node[c]}
       IN  IF before = {}
           THEN /\ pc' = [pc EXCEPT ![c] = "grant"]
                /\ UNCHANGED <<target, second, soleBlocker>>
           ELSE LET p == Max(Seqs(before))
                    two == Cardinality(before) >= 2
                    watchTwo == SecondWatch /\ two
                IN  /\ pc' = [pc EXCEPT ![c] = IF watchTwo THEN "second" ELSE "watch"]
                    /\ target' = [target EXCEPT ![c] = p]
                    /\ second' = [second EXCEPT ![c] =
                                      IF watchTwo THEN Max(Seqs(before) \ {p}) ELSE NoNode]
                    /\ soleBlocker' = [soleBlocker EXCEPT ![c] = ~two]
    /\ UNCHANGED <<zkVars, sess, reqNo, node, token, tenure, paused, histVars, pending>>

(* getData(<second>, watch=true), sent pipelined just before the getData   *)
(* of the predecessor (WatchPredecessor), so the server applies it first,  *)
(* in a step of its own.  The node exists: the watch is armed.  NoNode:    *)
(* nothing is watched there, and the client goes on to its predecessor     *)
(* all the same (impl/zklock does not wait for this reply to send that     *)
(* one).  Watching a node already watched for this request (a re-listing   *)
(* chose it again) adds nothing: the watches are a set.  When the second   *)
(* goes, its event makes the client list again (PredecessorGone), usually  *)
(* while its predecessor holds: that listing shows the predecessor alone   *)
(* before ours, so its deletion is then the grant (GrantOnHeadGone).       *)
WatchSecond(c) ==
    /\ ~paused[c]
    /\ pc[c] = "second"
    /\ Live(c)
    /\ IF ZK!NodeExists(second[c])
       THEN ZK!SetWatch(second[c], Uuid(c))
       ELSE UNCHANGED <<zkVars, pending>>
    /\ pc' = [pc EXCEPT ![c] = "watch"]
    /\ UNCHANGED <<sess, reqNo, node, target, second, soleBlocker, token, tenure, paused, histVars>>

(* getData(<predecessor>, watch=true): ZooKeeper reads the node and arms   *)
(* the watch in one step, so a deletion between the listing and the watch  *)
(* cannot be missed (Watches).  The node exists: the watch is armed and    *)
(* the client waits.  NoNode: no watch is left behind (unlike exists),     *)
(* list again (Locks step 5, Curator).                                     *)
WatchPredecessor(c) ==
    /\ ~paused[c]
    /\ pc[c] = "watch"
    /\ Live(c)
    /\ IF ZK!NodeExists(target[c])
       THEN /\ ZK!SetWatch(target[c], Uuid(c))
            /\ pc' = [pc EXCEPT ![c] = "wait"]
            /\ UNCHANGED <<target, second, soleBlocker>>
       ELSE /\ pc' = [pc EXCEPT ![c] = "list"]
            /\ target' = [target EXCEPT ![c] = NoNode]
            /\ second' = [second EXCEPT ![c] = NoNode]
            /\ soleBlocker' = [soleBlocker EXCEPT ![c] = FALSE]
            /\ UNCHANGED <<zkVars, pending>>
    /\ UNCHANGED <<sess, reqNo, node, token, tenure, paused, histVars>>

(* The client consumes the head of its inbox: a NodeDeleted event for a    *)
(* watch of its current request (its predecessor, its second, or a node a  *)
(* listing of this request chose before).  It does not conclude it holds:  *)
(* it lists the children again.  Locks step 5 ("before going to step 2").  *)
(* Also                                                                    *)
(* enabled where GrantOnHeadGone is: the spec has no data changes, removed *)
(* watches or session events, the other wake-ups after which impl/zklock   *)
(* lists again, and this step stands for them.                             *)
PredecessorGone(c) ==
    /\ ~paused[c]
    /\ ZK!HasEvent(c)
    /\ ZK!NextEvent(c).req = Uuid(c)
    /\ pc[c] = "wait"
    /\ ZK!TakeEvent(c)
    /\ pc' = [pc EXCEPT ![c] = "list"]
    /\ target' = [target EXCEPT ![c] = NoNode]
    /\ second' = [second EXCEPT ![c] = NoNode]
    /\ soleBlocker' = [soleBlocker EXCEPT ![c] = FALSE]
    /\ UNCHANGED <<sess, reqNo, node, token, tenure, paused, histVars>>

(***************************************************************************)
(* The hand-off in one notification: the NodeDeleted event of the watch of *)
(* the current request, for a node that was the only one before ours at    *)
(* the listing that chose it (soleBlocker), goes straight to Grant, without*)
(* listing again.  Why that listing is not needed: sequence numbers only   *)
(* grow, so no node created after that listing sorts before ours; the      *)
(* lock path is not deleted while our node is in it; and a watch fires     *)
(* once, on the deletion of the very node it was set on, so once that node *)
(* is gone no node is before ours.  The token is the czxid known since the *)
(* node became known (KnownToken), and Grant is the same step as after a   *)
(* listing: by GrantRule it re-reads the node or checks the loss deadline  *)
(* (impl/zklock: contender.grant, Session.checkDeadline), and the process  *)
(* may pause in between, as the code may.  Any other wake-up (a watched    *)
(* node that was not alone before ours) takes PredecessorGone and lists    *)
(* again: a node before the watched one may still be there.  Without the   *)
(* soleBlocker conjunct this is PredecessorLockNotifyIsGrant's             *)
(* PredecessorGoneIsGrant, which fails MutualExclusion.  The event must be *)
(* for the target itself: a request may have an older watch armed (its     *)
(* second, or a predecessor an earlier listing chose) whose event comes    *)
(* after a re-listing chose another target; taken as the grant, it would   *)
(* grant while that target holds (PredecessorLockStaleEvent fails          *)
(* MutualExclusion so).                                                    *)
(***************************************************************************)
GrantOnHeadGone(c) ==
    /\ ~paused[c]
    /\ ZK!HasEvent(c)
    /\ ZK!NextEvent(c).req = Uuid(c)
    /\ ZK!NextEvent(c).node = target[c]
    /\ pc[c] = "wait"
    /\ soleBlocker[c]
    /\ ZK!TakeEvent(c)
    /\ pc' = [pc EXCEPT ![c] = "grant"]
    /\ target' = [target EXCEPT ![c] = NoNode]
    /\ second' = [second EXCEPT ![c] = NoNode]
    /\ soleBlocker' = [soleBlocker EXCEPT ![c] = FALSE]
    /\ UNCHANGED <<sess, reqNo, node, token, tenure, paused, histVars>>

(* Internal: the head of the inbox is for a request the client no longer   *)
(* waits on (a watch left behind by a cancelled request: go-zookeeper       *)
(* v1.0.4 cannot remove watches).  It fires once and is dropped.           *)
IgnoreNotification(c) ==
    /\ ~paused[c]
    /\ ZK!HasEvent(c)
    /\ ~(ZK!NextEvent(c).req = Uuid(c) /\ pc[c] = "wait")
    /\ ZK!TakeEvent(c)
    /\ UNCHANGED <<clientVars, histVars>>

(* The client holds (Locks step 3); the czxid of its node is the fencing   *)
(* token (monotonic across the ensemble, unlike sequence numbers).         *)
(* "reread":  getData(<own node>) on a live session reads the node's Stat  *)
(*            and takes its czxid.                                         *)
(* "local":   no ZooKeeper call: the token known since the node became     *)
(*            known; nothing is checked (the listing that showed the node  *)
(*            first may be long past: a pause, or a late monitor).         *)
(* "checked": as "local", but refused once the loss deadline has passed    *)
(*            (~Overdue(c)); the client then takes LearnExpiry.            *)
Grant(c) ==
    /\ ~paused[c]
    /\ pc[c] = "grant"
    /\ CASE GrantRule = "reread" ->
                /\ Live(c)
                /\ OwnNodeExists(c)
                /\ LET t == ZK!NodeAt(node[c]).czxid
                   IN  /\ token' = [token EXCEPT ![c] = t]
                       /\ lastToken' = t
          [] GrantRule = "local" ->
                /\ lastToken' = token[c]
                /\ UNCHANGED token
          [] GrantRule = "checked" ->
                /\ ~Overdue(c)
                /\ lastToken' = token[c]
                /\ UNCHANGED token
    /\ grants' = grants + 1
    /\ tenure' = [tenure EXCEPT ![c] = grants + 1]
    /\ pc' = [pc EXCEPT ![c] = "hold"]
    /\ UNCHANGED <<zkVars, sess, reqNo, node, target, second, soleBlocker, paused, faults, resHigh,
                   resTenure, pending>>

(* The critical section writes to an outside resource, presenting the      *)
(* lease's token.  With Fencing the resource accepts only a token >= the   *)
(* highest it has seen (a rejected write changes nothing).  Not a ZooKeeper *)
(* call: it needs no live session.  docs/DESIGN.md, "Unrecoverable errors: *)
(* sessions, loss and fencing".                                            *)
Write(c) ==
    /\ ~paused[c]
    /\ pc[c] = "hold"
    /\ IF Fencing /\ token[c] < resHigh
       THEN UNCHANGED <<resHigh, resTenure>>
       ELSE /\ resHigh' = IF token[c] > resHigh THEN token[c] ELSE resHigh
            /\ resTenure' = tenure[c]
    /\ UNCHANGED <<zkVars, clientVars, faults, grants, lastToken, pending>>

(***************************************************************************)
(* Ending a request.  With AsyncDelete = FALSE the delete lands in the     *)
(* step that makes the client idle.  With AsyncDelete = TRUE, as in        *)
(* impl/zklock, the lease (or the cancelled request) ends at once and the  *)
(* delete is left to the background, which keeps sending it until it lands *)
(* or the session ends: the request's nodes are "pending delete" (the pair *)
(* <<session, uuid>> in pending) until DeleteLands, or until the server    *)
(* expires the session, which removes them itself.  Meanwhile the client   *)
(* may start its next request, and others still list the old node (a       *)
(* client pinned to a follower cut off from the leader: its delete cannot  *)
(* commit until the partition heals or the leader expires the session).    *)
(***************************************************************************)
EndRequest(c, mine) ==
    IF AsyncDelete
    THEN ZK!QueueDelete(Sess(c), Uuid(c), mine)
    ELSE ZK!DeleteNodes(mine)

(* Mutex.Unlock: delete(<own node>).  Watches on it fire.  Locks ("to      *)
(* release a lock, the client deletes the node it created in step 1").     *)
Release(c) ==
    /\ ~paused[c]
    /\ pc[c] = "hold"
    /\ Live(c)
    /\ EndRequest(c, {ZK!NodeAt(node[c])})
    /\ Idle(c)
    /\ UNCHANGED <<sess, reqNo, paused, histVars>>

(* The request's context ends while acquiring: delete every node carrying  *)
(* this request's uuid (found by listing the children, so it also works    *)
(* while the node is unknown after a lost reply), and go idle.  A watch the *)
(* request armed stays behind and later fires harmlessly.                  *)
(* docs/DESIGN.md, "The recipe": a waiter whose context ends deletes its   *)
(* node.                                                                   *)
Cancel(c) ==
    /\ WithCancel
    /\ ~paused[c]
    /\ pc[c] \in Acquiring
    /\ Live(c)
    /\ EndRequest(c, {n \in nodes : n.uuid = Uuid(c)})
    /\ Idle(c)
    /\ UNCHANGED <<sess, reqNo, paused, histVars>>

(* The pending delete of request u reaches the server: one transaction     *)
(* deletes its nodes (impl/zklock: a multi of deletes, or one delete), and *)
(* watches on them fire.  The session is live: ExpireSession drops the     *)
(* pending deletes of the session it expires (their nodes are gone with    *)
(* it, and the client's background delete stops on SESSIONEXPIRED).  A     *)
(* step of the network and the server, so it needs no unpaused client.     *)
DeleteLands(u) ==
    /\ ZK!DeleteLands(u)
    /\ UNCHANGED <<clientVars, histVars>>

(* The client learns its session is lost and drops every belief: either    *)
(* the server expired it (go-zookeeper's StateExpired, or any call failing *)
(* with SESSIONEXPIRED), or the client's own loss timer fired (time since   *)
(* the send of the last acknowledged request reached the session timeout)  *)
(* while the server may still have the session; the latter is a fault.     *)
(* Later requests use a new session <<c, k+1>>; the abandoned session      *)
(* stays live on the server with its nodes until ExpireSession removes it; *)
(* its watches are gone with its connection and its queued events are      *)
(* dropped.  Sessions; docs/DESIGN.md, "Unrecoverable errors: sessions,    *)
(* loss and fencing".                                                      *)
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
    /\ UNCHANGED <<reqNo, paused, grants, lastToken, resHigh, resTenure>>

-----------------------------------------------------------------------------
(***************************************************************************)
(* Environment actions.                                                    *)
(***************************************************************************)

(* The server expires session s (closeSession: one transaction): all its   *)
(* ephemeral nodes are deleted, watches on them fire, and the session's    *)
(* own watches are dropped.  Sessions (ephemeral nodes free a dead         *)
(* client's lock).                                                         *)
(* For the session a client currently uses this is a fault, and it is only *)
(* enabled while the client does not believe it holds, unless the client   *)
(* is paused: the client's loss timer fires before the server may expire   *)
(* the session (docs/DESIGN.md, "Unrecoverable errors: sessions, loss and  *)
(* fencing").  An abandoned session may always expire, at no cost: it is   *)
(* the cleanup that must happen.                                           *)
ExpireSession(s) ==
    /\ ZK!IsLive(s)
    /\ LET c == s[1] IN
       /\ IF s = Sess(c)
          THEN /\ WithExpiry
               \* An implication, not pc[c] # "hold" \/ paused[c]: TLC makes
               \* one successor per true disjunct, and a client paused outside
               \* "hold" (a local grant) would count each step twice.
               /\ pc[c] = "hold" => paused[c]
               /\ Fault
          ELSE UNCHANGED faults
       /\ ZK!ExpireSession(s, IF s = Sess(c) THEN WatchesOf(c) ELSE {})
    /\ UNCHANGED <<clientVars, grants, lastToken, resHigh, resTenure>>

(* A process pause (GC, VM stall, SIGSTOP): a fault (docs/DESIGN.md,       *)
(* "Unrecoverable errors: sessions, loss and fencing"). A slow non-holder  *)
(* needs no pause to be modeled: interleaving already delays it            *)
(* arbitrarily and ExpireSession may expire its session at any time (its   *)
(* loss timer need not have run yet). So with GrantRule "reread" only a    *)
(* holder pauses. With a local grant a client may pause in every state but *)
(* "idle", as the implementation's process can (impl/zklock                *)
(* TestPauseBetweenListingAndGrant): a pause outside "hold" only stops the *)
(* client and spends a fault, so it adds states but no behaviour of the    *)
(* other variables; it is there so that the fault the code is tested       *)
(* against is a step of the spec, and the GrantLocal counterexample does   *)
(* not need it.                                                            *)
PauseClient(c) ==
    /\ WithPause
    /\ ~paused[c]
    /\ IF GrantRule = "reread" THEN pc[c] = "hold" ELSE pc[c] # "idle"
    /\ Fault
    /\ paused' = [paused EXCEPT ![c] = TRUE]
    /\ UNCHANGED <<zkVars, pc, sess, reqNo, node, target, second, soleBlocker, token, tenure,
                   grants, lastToken, resHigh, resTenure, pending>>

(* The pause ends; the client still believes whatever it believed.         *)
ResumeClient(c) ==
    /\ paused[c]
    /\ paused' = [paused EXCEPT ![c] = FALSE]
    /\ UNCHANGED <<zkVars, pc, sess, reqNo, node, target, second, soleBlocker, token, tenure, histVars, pending>>

-----------------------------------------------------------------------------
ClientNext(c) ==
    \/ RequestLock(c)
    \/ CreateOk(c)
    \/ CreateReplyLost(c)
    \/ FindOwnNode(c)
    \/ ListChildren(c)
    \/ WatchSecond(c)
    \/ WatchPredecessor(c)
    \/ PredecessorGone(c)
    \/ GrantOnHeadGone(c)
    \/ IgnoreNotification(c)
    \/ Grant(c)
    \/ Write(c)
    \/ Release(c)
    \/ Cancel(c)
    \/ LearnExpiry(c)

EnvNext ==
    \/ \E s \in Sessions : ExpireSession(s)
    \/ \E c \in Clients : PauseClient(c) \/ ResumeClient(c)
    \/ \E u \in Clients \X (1..MaxRequests) : DeleteLands(u)

Next == (\E c \in Clients : ClientNext(c)) \/ EnvNext

Spec == Init /\ [][Next]_vars

(***************************************************************************)
(* Fairness for the liveness configs: each client keeps taking the steps   *)
(* of a request once it has made one (requesting, cancelling and writing   *)
(* are the user's choice and get no fairness), a pause ends, an abandoned *)
(* session is eventually expired by the server, and a client's pending     *)
(* deletes land (its background keeps retrying while the session lives).   *)
(***************************************************************************)
Progress(c) ==
    \/ CreateOk(c) \/ CreateReplyLost(c) \/ FindOwnNode(c) \/ ListChildren(c)
    \/ WatchSecond(c) \/ WatchPredecessor(c) \/ PredecessorGone(c) \/ GrantOnHeadGone(c)
    \/ IgnoreNotification(c) \/ Grant(c) \/ Release(c) \/ LearnExpiry(c)

Fairness ==
    /\ \A c \in Clients : WF_vars(Progress(c)) /\ WF_vars(ResumeClient(c))
    /\ WF_vars(\E s \in Sessions : Abandoned(s) /\ ExpireSession(s))
    /\ \A c \in Clients : WF_vars(\E r \in 1..MaxRequests : DeleteLands(<<c, r>>))

FairSpec == Spec /\ Fairness

-----------------------------------------------------------------------------
(***************************************************************************)
(* Properties.                                                             *)
(***************************************************************************)

\* No two clients hold while both their lock nodes exist.
MutualExclusion ==
    \A c, d \in Clients :
        (c # d /\ pc[c] = "hold" /\ pc[d] = "hold") =>
            ~(OwnNodeExists(c) /\ OwnNodeExists(d))

\* No two clients believe they hold.  Holds with expiry (the loss timer
\* fires first); fails with pauses: the reason fencing exists.
NaiveExclusion ==
    \A c, d \in Clients : (c # d /\ pc[c] = "hold") => pc[d] # "hold"

\* No herd: a node is watched, for their current requests, by at most one
\* waiting client other than as its second (as its predecessor; in the
\* herd mutant, the parent), and by at most one as its second: by at most
\* two waiters in all, its successor and its successor's successor.  A
\* waiter with an event of its current request not yet taken is not
\* counted: it is woken already and will list again (its other watch may
\* still be armed on a node a newer waiter now watches as its second).
Woken(c) == \E i \in DOMAIN inbox[c] : inbox[c][i].req = Uuid(c)
Watchers(t) == {c \in Clients : pc[c] = "wait" /\ ~Woken(c)
                                /\ [node |-> t, req |-> Uuid(c)] \in watches}
NoHerd ==
    \A t \in {w.node : w \in watches} :
        /\ Cardinality({c \in Watchers(t) : t # second[c]}) <= 1
        /\ Cardinality({c \in Watchers(t) : t = second[c]}) <= 1

\* Every node of a session a client still uses belongs to its running
\* request or has its delete pending.  (Nodes of abandoned sessions go when
\* the server expires them.)  With AsyncDelete a node outlives its request;
\* NoOrphansEventually says it does not outlive it forever.
NoOrphans ==
    \A n \in nodes :
        LET c == n.owner[1] IN
        n.owner = Sess(c) =>
            \/ n.uuid = Uuid(c) /\ pc[c] # "idle"
            \/ <<n.owner, n.uuid>> \in pending

\* The request u has ended (the client moved on or went idle), and a node
\* carrying its uuid is still there.
Orphaned(u) ==
    /\ u # Uuid(u[1]) \/ pc[u[1]] = "idle"
    /\ \E n \in nodes : n.uuid = u

\* Liveness (FairSpec, with faults): every node whose request has ended is
\* eventually deleted, by its pending delete or by the expiry of its session.
NoOrphansEventually ==
    \A u \in Clients \X (1..MaxRequests) :
        Orphaned(u) ~> ~\E n \in nodes : n.uuid = u

\* The holder's node is the first in the queue.  Sequence numbers only grow,
\* so grants follow sequence order.
GrantsInSequenceOrder ==
    \A c \in Clients :
        (pc[c] = "hold" /\ OwnNodeExists(c)) => \A n \in nodes : node[c] <= n.seq

\* A client that knows its node and whose session is live has that node.
KnownNodeExists ==
    \A c \in Clients : (pc[c] \in KnowsNode /\ Live(c)) => OwnNodeExists(c)

\* Tokens follow acquisition order: every grant's token exceeds the previous one's.
TokensIncrease ==
    [][\A c \in Clients : (pc[c] # "hold" /\ pc'[c] = "hold") => token'[c] > lastToken]_vars

\* The resource never accepts a write from an older tenure after a newer one wrote.
FencedSafety == [][resTenure' >= resTenure]_resTenure

\* Liveness (weak fairness, no faults): every request is granted.
StarvationFree == \A c \in Clients : (pc[c] \in Acquiring) ~> (pc[c] = "hold")

\* Liveness with faults (weak fairness, faults bounded): no request hangs.
\* Every request is granted or ends, and the caller is told which: after an
\* expiry or a loss timer Lock returns an error, it does not wait forever.
RequestsEnd == \A c \in Clients : (pc[c] \in Acquiring) ~> (pc[c] \in {"hold", "idle"})

=============================================================================
