-------------------------- MODULE SharedLockTrace ---------------------------
(***************************************************************************)
(* Trace validation of the read/write lock: a trace of impl/zklock (one    *)
(* RWMutex lock path) replayed in SharedLock itself, by TLC.  The same     *)
(* design as PredecessorLockTrace.tla (read it first), with SharedLock's   *)
(* variables and actions: a node is named by its request and its kind     *)
(* (<<<<c, r>>, "read">>), a listing shows both, RequestLock takes the     *)
(* kind, Downgrade turns the client's write node into a read node.  Tokens *)
(* are not compared: readers holding together are granted in any order.   *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets, TLC, LogReplay

\* LogReplay's constants: LogClients, Log (records, see below), LogSeq,
\* LogReduce.  Its variables: l and seqHigh.
CONSTANTS
    LogMaxRequests, \* the most requests of one client
    LogMaxSeq,      \* a bound on the creates the trace can need
    LogMaxFaults    \* a bound on the fault steps the trace can need

(***************************************************************************)
(* An event of Log is a record:                                            *)
(*   line      its line in the trace file                                  *)
(*   client    its client (in LogClients)                                  *)
(*   action    the spec action it reports (traceevent's names)             *)
(*   req       the number r of the request it belongs to (0: LearnExpiry) *)
(*   result    its result ("" if none)                                     *)
(*   kind      the request's kind: "read" or "write"                       *)
(*   node      the node it names as its own: <<request, kind>>             *)
(*   target    the node it waits for, watches or finds                     *)
(*   chosen    WatchPredecessor: the node the client's last listing chose  *)
(*             (it must watch that one)                                    *)
(*   children  ListChildren: the nodes listed, in order                    *)
(*   token     Grant: the token's rank (not compared here)                 *)
(*   confirmed Release, Cancel: the client saw its delete land             *)
(*   learns    whether, from this event on, the client reports the loss of *)
(*             its session ("always"), makes no more ZooKeeper calls       *)
(*             ("ifNodes"), or neither ("never")                           *)
(*   need      [d |-> k]: k events of client d must be matched first      *)
(* A request is <<c, r>>, the spec's uuid; <<>> stands for no node.        *)
(***************************************************************************)

VARIABLES
    nodes, nextSeq, zxid, live, watches, inbox,
    pc, kind, sess, reqNo, node, target, soleBlocker, token, paused,
    faults, pending

specVars == <<nodes, nextSeq, zxid, live, watches, inbox,
              pc, kind, sess, reqNo, node, target, soleBlocker, token, paused,
              faults, pending>>
traceVars == <<l, seqHigh>>

\* The spec as the model of impl/zklock that model/trace uses: every fault
\* possible, downgrades, deletes land after their request
\* ends.  Sync is the same spec with deletes that land in the step that ends
\* the request: a Release or Cancel the client saw confirmed is that step
\* (Lock's step followed by DeleteLands, in one).
Lock == INSTANCE SharedLock
    WITH Clients <- LogClients, MaxRequests <- LogMaxRequests, MaxSeq <- LogMaxSeq,
         MaxFaults <- LogMaxFaults, WithExpiry <- TRUE, WithReplyLoss <- TRUE,
         WithPause <- TRUE, WithCancel <- TRUE, WithDowngrade <- TRUE,
         AsyncDelete <- TRUE
Sync == INSTANCE SharedLock
    WITH Clients <- LogClients, MaxRequests <- LogMaxRequests, MaxSeq <- LogMaxSeq,
         MaxFaults <- LogMaxFaults, WithExpiry <- TRUE, WithReplyLoss <- TRUE,
         WithPause <- TRUE, WithCancel <- TRUE, WithDowngrade <- TRUE,
         AsyncDelete <- FALSE
\* The lost calls of SharedLockConnLoss, for WatchPredecessor "lost"
\* (its step without the budget: the trace's faults are not counted there).
Loss == INSTANCE SharedLockConnLoss
    WITH Clients <- LogClients, MaxRequests <- LogMaxRequests, MaxSeq <- LogMaxSeq,
         MaxFaults <- LogMaxFaults, WithExpiry <- TRUE, WithReplyLoss <- TRUE,
         WithPause <- TRUE, WithCancel <- TRUE, WithDowngrade <- TRUE,
         AsyncDelete <- TRUE, MaxLost <- 0, lost <- 0

-----------------------------------------------------------------------------
(* LogReplay's bookkeeping (ClientLog, Done, Ev, Ready, Learns, Advance) on *)
(* the lock's nodes. *)

\* A node as the trace names it: its request and its kind.
Named(n) == <<n.uuid, n.kind>>

\* The nodes in sequence order.
Queue == LET rank(n) == Cardinality({m \in nodes : m.seq <= n.seq})
         IN  [i \in 1..Cardinality(nodes) |-> Named(CHOOSE n \in nodes : rank(n) = i)]

\* A node of request u is created (ZooKeeper deletes the empty lock path:
\* see CreatedIn).
Created(u) == CreatedIn(u, nodes = {})

\* The event changes nothing in the spec: an observation, or a step that
\* did nothing on the server.
Nothing == UNCHANGED specVars

-----------------------------------------------------------------------------
(***************************************************************************)
(* Logged steps: client c's next event, matched.                           *)
(***************************************************************************)

\* The listing shows the spec's nodes, in order.  "missing": the client's
\* own node is gone (its session is), an observation; otherwise the
\* client's ListChildren, with the outcome the event reports.
MatchListChildren(c, e) ==
    /\ Queue = e.children
    /\ CASE e.result = "missing" ->
              /\ pc[c] = "list" /\ ~Lock!OwnNodeExists(c)
              /\ Nothing /\ UNCHANGED seqHigh
         [] e.result = "grant" ->
              /\ Lock!ListChildren(c) /\ pc'[c] = "grant" /\ UNCHANGED seqHigh
         [] e.result = "wait" ->
              /\ Lock!ListChildren(c) /\ pc'[c] = "watch" /\ UNCHANGED seqHigh
              /\ Named(Lock!ZK!NodeAt(target'[c][1])) = e.target
         [] OTHER -> FALSE

\* Release or Cancel: the request ends.  While the session lives, the
\* spec's step, which leaves the delete pending, or, when the client saw the
\* delete land, lands it too.  Once the session is gone the delete fails or
\* finds nothing (the server deleted the node with the session): no step,
\* from a pc where the client may end the request (fromPC).
EndRequest(c, e, async, sync, fromPC) ==
    /\ UNCHANGED seqHigh
    /\ IF Lock!Live(c)
       THEN IF e.confirmed THEN sync ELSE async
       ELSE fromPC /\ Nothing

Acquiring(c) == pc[c] \notin {"idle", "hold"}

Logged(c) ==
    LET e == Ev(c) IN
    /\ Ready(c)
    /\ Advance(c)
    /\ CASE e.action = "RequestLock" ->
              Lock!RequestLock(c, e.kind) /\ UNCHANGED seqHigh
         [] e.action = "CreateOk" ->
              /\ e.node = <<<<c, reqNo[c]>>, e.kind>>
              /\ Lock!CreateOk(c) /\ Created(<<c, reqNo[c]>>)
         [] e.action = "CreateReplyLost" ->
              \* the create happened, or never reached the server
              /\ \/ Lock!CreateReplyLost(c) /\ Created(<<c, reqNo[c]>>)
                 \/ pc[c] = "create" /\ Nothing /\ UNCHANGED seqHigh
         [] e.action = "FindOwnNode" /\ e.result = "found" ->
              /\ e.target = <<<<c, reqNo[c]>>, e.kind>>
              /\ Lock!FindOwnNode(c) /\ pc'[c] = "list"
              /\ UNCHANGED seqHigh
         [] e.action = "FindOwnNode" /\ e.result = "absent" ->
              \* the create never reached the server: the client creates again
              pc[c] = "create" /\ Nothing /\ UNCHANGED seqHigh
         [] e.action = "ListChildren" ->
              MatchListChildren(c, e)
         [] e.action = "WatchPredecessor" /\ e.result = "lost" ->
              \* the connection was lost before the reply: nothing armed,
              \* list again, the node there or not
              /\ e.target = e.chosen
              /\ Loss!WatchPredecessorLostStep(c)
              /\ UNCHANGED seqHigh
         [] e.action = "WatchPredecessor" ->
              /\ e.target = e.chosen
              /\ Lock!WatchPredecessor(c)
              /\ \/ e.result = "exists" /\ pc'[c] = "wait"
                 \/ e.result = "gone" /\ pc'[c] = "list"
              /\ UNCHANGED seqHigh
         [] e.action = "PredecessorGone" ->
              Lock!PredecessorGone(c) /\ UNCHANGED seqHigh
         [] e.action = "GrantOnHeadGone" ->
              Lock!GrantOnHeadGone(c) /\ UNCHANGED seqHigh
         [] e.action = "Grant" ->
              Lock!Grant(c) /\ UNCHANGED seqHigh
         [] e.action = "Downgrade" ->
              /\ e.node = <<<<c, reqNo[c]>>, "read">>
              /\ Lock!Downgrade(c) /\ UNCHANGED seqHigh
         [] e.action = "Release" ->
              EndRequest(c, e, Lock!Release(c), Sync!Release(c), pc[c] = "hold")
         [] e.action = "Cancel" /\ e.result # "" ->
              \* made after the session ended: it deleted nothing
              Acquiring(c) /\ Nothing /\ UNCHANGED seqHigh
         [] e.action = "Cancel" ->
              EndRequest(c, e, Lock!Cancel(c), Sync!Cancel(c), Acquiring(c))
         [] e.action = "LearnExpiry" ->
              Lock!LearnExpiry(c) /\ UNCHANGED seqHigh
         [] OTHER -> FALSE

-----------------------------------------------------------------------------
(***************************************************************************)
(* Silent steps: what no client logs, where the trace allows it, and only  *)
(* on demand, as model/trace inserts them: when a ready event cannot be     *)
(* matched (Stuck) and the step removes a node it observes gone, or adds   *)
(* one it lists.  Such a step commutes with every step that does not       *)
(* observe it, so taking it just before the first event that does loses no *)
(* behaviour (up to the order of notifications of different requests,      *)
(* which no event shows).  Without LogReduce they may be taken anywhere.   *)
(***************************************************************************)

Stuck(c) == Ready(c) /\ ~ENABLED Logged(c)
Owner(u) == (CHOOSE n \in nodes : n.uuid = u).owner

\* The requests whose nodes c's next event observes gone.
GoneFor(c) ==
    LET e == Ev(c) IN
    CASE e.action = "ListChildren" ->
           {n.uuid : n \in {m \in nodes : Named(m) \notin Range(e.children)}}
      [] e.action \in {"WatchPredecessor", "PredecessorGone", "GrantOnHeadGone"} ->
           IF target[c] \in Lock!ZK!Names(nodes) THEN {Lock!ZK!NodeAt(target[c][1]).uuid} ELSE {}
      [] e.action \in {"CreateOk", "CreateReplyLost"} ->
           \* a sequence number that goes back: the lock path was made anew,
           \* which needs an empty queue
           IF SeqGoesBack(<<c, reqNo[c]>>)
           THEN {n.uuid : n \in nodes} ELSE {}
      [] OTHER -> {}

\* The sessions c's next event asks to expire: those owning the nodes it
\* observes gone, and its own when it reports its loss.
ExpireFor(c) ==
    {Owner(u) : u \in GoneFor(c)}
    \cup IF Ev(c).action = "LearnExpiry" \/ (Ev(c).action = "ListChildren" /\ Ev(c).result = "missing")
         THEN {Lock!Sess(c)} ELSE {}

\* The clients whose unreported create c's next listing shows.
CreateFor(c) ==
    IF Ev(c).action = "ListChildren"
    THEN {x[1][1] : x \in Range(Ev(c).children) \ {Named(n) : n \in nodes}}
    ELSE {}

Demanded(Kind(_)) == UNION {Kind(c) : c \in {d \in LogClients : Stuck(d)}}

\* The server may expire session s: an abandoned one at any time; the one
\* a client uses only if that client reports the loss later, or makes no
\* more calls and the session owns nodes (else the trace would show the
\* loss, or the client's calls would fail).
MayExpire(s) ==
    LET c == s[1] IN
    \/ s # Lock!Sess(c)
    \/ Learns(c) = "always"
    \/ Learns(c) = "ifNodes" /\ \E n \in nodes : n.owner = s

\* A create whose reply the client stopped waiting for: it never reports
\* it (its next event ends the request, or it has none).
UnreportedCreate(c) ==
    \* (an IF: TLC would evaluate both disjuncts of an action's \/)
    /\ IF Done(c) THEN TRUE ELSE Ev(c).action \in {"Cancel", "LearnExpiry"}
    /\ Lock!CreateReplyLost(c)
    /\ Created(<<c, reqNo[c]>>)

\* With LogReduce, a silent step must be asked for by a stuck event.
Asked(x, Kind(_)) == LogReduce => x \in Demanded(Kind)

Silent ==
    /\ UNCHANGED l
    /\ \/ \E c \in LogClients :
            Lock!IgnoreNotification(c) /\ UNCHANGED seqHigh
       \/ \E p \in pending :
            Asked(p[2], GoneFor) /\ Lock!DeleteLands(p[2]) /\ UNCHANGED seqHigh
       \/ \E s \in live :
            Asked(s, ExpireFor) /\ MayExpire(s) /\ Lock!ExpireSession(s) /\ UNCHANGED seqHigh
       \* the server expires a holder's session only while its process is
       \* paused (its loss timer fires first otherwise)
       \/ \E c \in LogClients :
            /\ Asked(Lock!Sess(c), ExpireFor)
            /\ pc[c] = "hold" /\ MayExpire(Lock!Sess(c))
            /\ Lock!PauseClient(c) /\ UNCHANGED seqHigh
       \/ \E c \in LogClients :
            Lock!ResumeClient(c) /\ UNCHANGED seqHigh
       \/ \E c \in LogClients :
            Asked(c, CreateFor) /\ UnreportedCreate(c)

-----------------------------------------------------------------------------
TraceInit ==
    /\ Lock!Init
    /\ LogInit

(***************************************************************************)
(* With LogReduce, steps that commute with every other are taken first,    *)
(* alone, as model/trace's search takes them (its README, "Search"):       *)
(* dropping a stale notification (it only pops its client's inbox), and   *)
(* an event that writes only its own client's variables, reads the nodes, *)
(* or arms a watch (a node never comes back), when it is ready and         *)
(* matches.  Any behaviour that matches the trace can be reordered to take *)
(* them first and still match it, so the verdict is the same; TLC explores *)
(* far fewer states.  Without LogReduce, TLC explores every interleaving.  *)
(***************************************************************************)
Eager == {"RequestLock", "PredecessorGone", "GrantOnHeadGone", "Grant", "LearnExpiry",
          "FindOwnNode", "WatchPredecessor", "ListChildren"}

\* A Release or Cancel whose delete the client never saw land writes only
\* its client's variables and the pending deletes.
Commutes(c) ==
    \/ Ev(c).action \in Eager
    \/ Ev(c).action \in {"Release", "Cancel"} /\ ~Ev(c).confirmed

Stale(c) == ENABLED Lock!IgnoreNotification(c)
EagerNow(c) == Ready(c) /\ Commutes(c) /\ ENABLED Logged(c)

TraceNext ==
    IF LogReduce /\ \E c \in LogClients : Stale(c)
    THEN /\ Lock!IgnoreNotification(CHOOSE c \in LogClients : Stale(c))
         /\ UNCHANGED traceVars
    ELSE IF LogReduce /\ \E c \in LogClients : EagerNow(c)
    THEN Logged(CHOOSE c \in LogClients : EagerNow(c))
    ELSE (\E c \in LogClients : Logged(c)) \/ Silent

TraceSpec == TraceInit /\ [][TraceNext]_<<specVars, traceVars>>

\* What the future of the matching depends on: every variable but the
\* zxids, czxids and tokens, which no guard of a matched step reads.
TraceView ==
    <<{[n EXCEPT !.czxid = 0] : n \in nodes}, nextSeq, live, watches, inbox,
      pc, kind, sess, reqNo, node, target, soleBlocker, paused, faults, pending, traceVars>>

\* TraceUnmatched (the verdict), Matched and TraceProgress (how far a
\* rejected trace got) are LogReplay's.

=============================================================================
