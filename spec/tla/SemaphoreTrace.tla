---------------------------- MODULE SemaphoreTrace ----------------------------
(***************************************************************************)
(* Trace validation of the semaphore: a trace of impl/zklock (one          *)
(* Semaphore's path P, its leases' events) replayed in Semaphore itself,   *)
(* by TLC.  The same design as PredecessorLockTrace.tla (read it first):   *)
(* a generated module Trace_<name>.tla EXTENDS this one and defines the    *)
(* log; each client's events are matched in its order by a step of        *)
(* Semaphore with the event's outcome (LogReplay.tla's bookkeeping), as    *)
(* the times allow (`need`); steps no client logs are silent, taken only   *)
(* where an event asks for them (with LogReduce); the trace is accepted    *)
(* when TraceUnmatched is violated, rejected when TLC finishes.            *)
(*                                                                         *)
(* What differs from the lock: Semaphore's internal mutex is atomic (its   *)
(* own events, on P/locks, are a Mutex trace, replayed by                  *)
(* PredecessorLockTrace on their own); an acquirer waits on the leases'    *)
(* parent, not on a node, so no event names a node to watch; deletes land  *)
(* in the step that sends them (Semaphore has no AsyncDelete); MaxLeases  *)
(* is the trace's max (LogMaxLeases).  The mapping is model/trace's (its  *)
(* README, "Semaphore"): the two must agree on every pinned trace.         *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets, TLC, LogReplay

\* LogReplay's constants: LogClients, Log (records, see below), LogSeq,
\* LogReduce.  Its variables: l and seqHigh.
CONSTANTS
    LogMaxLeases,   \* the semaphore's max, from its listings
    LogMaxRequests, \* the most acquisitions of one client
    LogMaxSeq,      \* a bound on the creates the trace can need
    LogMaxFaults    \* a bound on the fault steps the trace can need

(***************************************************************************)
(* An event of Log is a record (as PredecessorLockTrace's; the fields a    *)
(* semaphore's events use):                                                *)
(*   line      its line in the trace file                                  *)
(*   client    its client (in LogClients)                                  *)
(*   action    the Semaphore action it reports (traceevent's names)        *)
(*   req       the number r of the acquisition (0: LearnExpiry)            *)
(*   result    its result ("" if none)                                     *)
(*   node      CreateLease: the acquisition <<c, r>> of the lease created  *)
(*   target    FindOwnLease "found": the acquisition of the lease found    *)
(*   children  ListLeases: the acquisitions of the leases listed, in order *)
(*   learns    whether, from this event on, the client reports the loss of *)
(*             its session ("always"), makes no more ZooKeeper calls       *)
(*             ("ifNodes"), or neither ("never")                           *)
(*   need      [d |-> k]: k events of client d must be matched first      *)
(* An acquisition is <<c, r>>, the spec's uuid.                            *)
(***************************************************************************)

VARIABLES
    nodes, nextSeq, zxid, live, watches, inbox, pending,
    pc, sess, reqNo, node, paused, mutex, faults

specVars == <<nodes, nextSeq, zxid, live, watches, inbox, pending,
              pc, sess, reqNo, node, paused, mutex, faults>>
traceVars == <<l, seqHigh>>

\* The spec as the model of impl/zklock that model/trace uses: Curator's
\* protocol (the internal mutex, the count after the create, a lost reply
\* found by uuid), every fault possible.
Sem == INSTANCE Semaphore
    WITH Clients <- LogClients, MaxLeases <- LogMaxLeases, MaxRequests <- LogMaxRequests,
         MaxSeq <- LogMaxSeq, MaxFaults <- LogMaxFaults, WithExpiry <- TRUE,
         WithReplyLoss <- TRUE, WithCancel <- TRUE, WithPause <- TRUE,
         InternalLock <- TRUE, CountFirst <- FALSE, BlindRetry <- FALSE

-----------------------------------------------------------------------------
\* The acquisitions of the lease nodes in sequence order.
Queue == QueueOf(nodes)

\* A lease node of acquisition u is created (ZooKeeper deletes the empty
\* leases parent, a container: see CreatedIn).
Created(u) == CreatedIn(u, nodes = {})

\* The event changes nothing in the spec: an observation, or a step that
\* did nothing on the server.
Nothing == UNCHANGED specVars

Acquiring(c) == pc[c] \in Sem!Acquiring

-----------------------------------------------------------------------------
(***************************************************************************)
(* Logged steps: client c's next event, matched.                           *)
(***************************************************************************)

\* getChildren(P/leases) with the child watch: the listing shows the
\* spec's lease nodes, in order.  "missing": the client's own lease is gone
\* (its session is), an observation; otherwise the spec's ListLeases, whose
\* count decides as the client did: "held" (at most MaxLeases nodes: release
\* the internal mutex next) or "wait".
MatchListLeases(c, e) ==
    /\ Queue = e.children
    /\ UNCHANGED seqHigh
    /\ CASE e.result = "missing" ->
              pc[c] = "list" /\ ~Sem!OwnLeaseExists(c) /\ Nothing
         [] e.result = "held" ->
              Sem!ListLeases(c) /\ pc'[c] = "release"
         [] e.result = "wait" ->
              Sem!ListLeases(c) /\ pc'[c] = "wait"
         [] OTHER -> FALSE

\* The internal mutex released (delete of the client's P/locks node).
\* After "held", the spec's step; nothing if the session is gone (the
\* server freed the mutex with it).  After the client's CancelAcquire
\* (impl/zklock traces it before it unlocks the internal mutex), nothing
\* either: the spec's CancelAcquire freed it.
MatchReleaseInternal(c) ==
    /\ UNCHANGED seqHigh
    /\ IF pc[c] = "release"
       THEN IF Sem!Live(c) THEN Sem!ReleaseInternal(c) ELSE Nothing
       ELSE Prev(c) = "CancelAcquire" /\ Nothing

\* The lease's delete (ReleaseLease, or CancelAcquire of a lease node):
\* while the session lives, the spec's step, which deletes the node at
\* once; once the session is gone the delete fails or finds nothing (the
\* server deleted the node with the session): no step, from a pc where the
\* client may make it (fromPC).
EndAcquisition(c, step, fromPC) ==
    /\ UNCHANGED seqHigh
    /\ IF Sem!Live(c) THEN step ELSE fromPC /\ Nothing

Logged(c) ==
    LET e == Ev(c) IN
    /\ Ready(c)
    /\ Advance(c)
    /\ CASE e.action = "AcquireInternal" ->
              \* Acquire called, the internal mutex granted: the request starts
              Sem!AcquireInternal(c) /\ UNCHANGED seqHigh
         [] e.action = "CreateLease" ->
              \* the lease node created, its name in the reply
              /\ e.node = <<c, reqNo[c]>>
              /\ Sem!CreateLease(c) /\ Created(<<c, reqNo[c]>>)
         [] e.action = "CreateLeaseReplyLost" ->
              \* the create happened, or never reached the server
              \/ Sem!CreateLeaseReplyLost(c) /\ Created(<<c, reqNo[c]>>)
              \/ pc[c] = "create" /\ Nothing /\ UNCHANGED seqHigh
         [] e.action = "FindOwnLease" /\ e.result = "found" ->
              \* after a lost reply, the lease found by the request's uuid
              /\ e.target = <<c, reqNo[c]>>
              /\ Sem!FindOwnLease(c) /\ pc'[c] = "list"
              /\ UNCHANGED seqHigh
         [] e.action = "FindOwnLease" /\ e.result = "absent" ->
              \* the create never reached the server: the client creates again
              pc[c] = "create" /\ Nothing /\ UNCHANGED seqHigh
         [] e.action = "ListLeases" ->
              MatchListLeases(c, e)
         [] e.action = "LeasesChanged" ->
              \* the child watch of this acquisition fired: list again
              Sem!LeasesChanged(c) /\ UNCHANGED seqHigh
         [] e.action = "ReleaseInternal" ->
              MatchReleaseInternal(c)
         [] e.action = "ReleaseLease" ->
              \* Lease.Unlock: the lease node deleted
              EndAcquisition(c, Sem!ReleaseLease(c), pc[c] = "hold")
         [] e.action = "CancelAcquire" /\ e.result # "" ->
              \* made after the session ended: it deleted nothing
              Acquiring(c) /\ Nothing /\ UNCHANGED seqHigh
         [] e.action = "CancelAcquire" ->
              \* the acquisition's context ended: its lease node, if any,
              \* deleted, and the internal mutex freed
              EndAcquisition(c, Sem!CancelAcquire(c), Acquiring(c))
         [] e.action = "LearnExpiry" ->
              \* the client learns its session is lost
              Sem!LearnExpiry(c) /\ UNCHANGED seqHigh
         [] OTHER -> FALSE

-----------------------------------------------------------------------------
(***************************************************************************)
(* Silent steps: what no client logs, where the trace allows it, and with  *)
(* LogReduce only on demand, as model/trace inserts them (see              *)
(* PredecessorLockTrace's Silent for why that loses no behaviour).         *)
(***************************************************************************)

Stuck(c) == Ready(c) /\ ~ENABLED Logged(c)

Owner(u) == (CHOOSE n \in nodes : n.uuid = u).owner

\* The acquisitions whose lease nodes c's next event observes gone: those
\* a listing lacks; for a LeasesChanged that finds no notification, every
\* other client's (the child watch fired on a change no event shows: an
\* expiry); every node when a sequence number goes back (the leases parent
\* was made anew, which needs an empty queue).
GoneFor(c) ==
    LET e == Ev(c) IN
    CASE e.action = "ListLeases" ->
           {n.uuid : n \in nodes} \ Range(e.children)
      [] e.action = "LeasesChanged" ->
           {n.uuid : n \in {m \in nodes : m.uuid[1] # c}}
      [] e.action \in {"CreateLease", "CreateLeaseReplyLost"} ->
           IF SeqGoesBack(<<c, reqNo[c]>>) THEN {n.uuid : n \in nodes} ELSE {}
      [] OTHER -> {}

\* The sessions c's next event asks to expire: those owning the lease
\* nodes it observes gone; its own when it reports its loss; the one that
\* holds the internal mutex an AcquireInternal finds taken (its client has
\* moved on, so its lock node went with the session).
ExpireFor(c) ==
    {Owner(u) : u \in GoneFor(c)}
    \cup (IF Ev(c).action = "LearnExpiry" \/ (Ev(c).action = "ListLeases" /\ Ev(c).result = "missing")
          THEN {Sem!Sess(c)} ELSE {})
    \cup (IF Ev(c).action = "AcquireInternal" /\ mutex # Sem!NoSession
          THEN {mutex} ELSE {})

\* The clients whose unreported create c's next listing shows.
CreateFor(c) ==
    IF Ev(c).action = "ListLeases"
    THEN {u[1] : u \in Range(Ev(c).children) \ {n.uuid : n \in nodes}}
    ELSE {}

Demanded(Kind(_)) == UNION {Kind(c) : c \in {d \in LogClients : Stuck(d)}}

\* With LogReduce, a silent step must be asked for by a stuck event.
Asked(x, Kind(_)) == LogReduce => x \in Demanded(Kind)

\* The server may expire session s: an abandoned one at any time; the one
\* a client uses only if that client reports the loss later, or makes no
\* more calls and the session owns lease nodes (else the trace would show
\* the loss, or the client's calls would fail).
MayExpire(s) ==
    LET c == s[1] IN
    \/ s # Sem!Sess(c)
    \/ Learns(c) = "always"
    \/ Learns(c) = "ifNodes" /\ \E n \in nodes : n.owner = s

\* A lease create whose reply the client stopped waiting for: it never
\* reports it (its next event ends the acquisition, or it has none).
UnreportedCreate(c) ==
    \* (an IF: TLC would evaluate both disjuncts of an action's \/)
    /\ IF Done(c) THEN TRUE ELSE Ev(c).action \in {"CancelAcquire", "LearnExpiry"}
    /\ Sem!CreateLeaseReplyLost(c)
    /\ Created(<<c, reqNo[c]>>)

Silent ==
    /\ UNCHANGED l
    /\ \/ \E c \in LogClients :
            \* a notification for an acquisition that does not wait, dropped
            Sem!IgnoreNotification(c) /\ UNCHANGED seqHigh
       \/ \E s \in live :
            \* the server expires a session (its lease node and its
            \* internal mutex node go with it)
            Asked(s, ExpireFor) /\ MayExpire(s) /\ Sem!ExpireSession(s) /\ UNCHANGED seqHigh
       \* the server expires a holder's session only while its process is
       \* paused (its loss timer fires first otherwise)
       \/ \E c \in LogClients :
            /\ Asked(Sem!Sess(c), ExpireFor)
            /\ pc[c] = "hold" /\ MayExpire(Sem!Sess(c))
            /\ Sem!PauseClient(c) /\ UNCHANGED seqHigh
       \/ \E c \in LogClients :
            Sem!ResumeClient(c) /\ UNCHANGED seqHigh
       \/ \E c \in LogClients :
            Asked(c, CreateFor) /\ UnreportedCreate(c)

-----------------------------------------------------------------------------
TraceInit ==
    /\ Sem!Init
    /\ LogInit

(***************************************************************************)
(* With LogReduce, steps that commute with every other are taken first,    *)
(* alone, as model/trace's search takes them (its README, "Search"):       *)
(* dropping a stale notification, and an event that writes only its own   *)
(* client's variables or reads the lease nodes (a listing's pzxid places   *)
(* it among the writes; the child watch it arms fires on the same later   *)
(* writes), when it is ready and matches; and ReleaseInternal, which only *)
(* frees the internal mutex: no step needs it held, so freeing it early    *)
(* disables nothing.  AcquireInternal takes the mutex, and creates and     *)
(* deletes write the nodes: they are tried in every order the times allow. *)
(***************************************************************************)
Eager == {"FindOwnLease", "ListLeases", "LeasesChanged", "ReleaseInternal", "LearnExpiry"}

Stale(c) == ENABLED Sem!IgnoreNotification(c)
EagerNow(c) == Ready(c) /\ Ev(c).action \in Eager /\ ENABLED Logged(c)

TraceNext ==
    IF LogReduce /\ \E c \in LogClients : Stale(c)
    THEN /\ Sem!IgnoreNotification(CHOOSE c \in LogClients : Stale(c))
         /\ UNCHANGED traceVars
    ELSE IF LogReduce /\ \E c \in LogClients : EagerNow(c)
    THEN Logged(CHOOSE c \in LogClients : EagerNow(c))
    ELSE (\E c \in LogClients : Logged(c)) \/ Silent

TraceSpec == TraceInit /\ [][TraceNext]_<<specVars, traceVars>>

\* What the future of the matching depends on: every variable but the
\* zxid and the czxids, which no guard of a matched step reads.  States
\* equal in all else are explored once.
TraceView ==
    <<{[n EXCEPT !.czxid = 0] : n \in nodes}, nextSeq, live, watches, inbox,
      pc, sess, reqNo, node, paused, mutex, faults, traceVars>>

\* The verdict (TraceUnmatched) and the progress report (TraceProgress)
\* are LogReplay's.

=============================================================================
