------------------------- MODULE PredecessorLockTrace -------------------------
(***************************************************************************)
(* Trace validation: a trace of impl/zklock (one Mutex lock path) is       *)
(* replayed in PredecessorLock itself, by TLC.                             *)
(*                                                                         *)
(* The trace is data: a module Trace_<name>.tla, generated from the JSON    *)
(* lines by cmd/tlatrace, EXTENDS this one and defines the constants below; *)
(* its .cfg binds them.  Each client's events form a log of their own,     *)
(* matched in the client's order; l[c] counts the events of c matched so   *)
(* far (that bookkeeping is LogReplay.tla's).  An event is matched by a    *)
(* step of PredecessorLock whose action is the event's action, for the     *)
(* event's client, with the event's outcome                                *)
(* (the listing's nodes, the node waited for, found or gone, ...).  The    *)
(* clients' logs interleave as the times in the trace allow: an event      *)
(* waits for the events of other clients that must come before it (`need`, *)
(* worked out from zxids and, for writes, real time, exactly as            *)
(* model/trace does).  TLC explores every such interleaving (with         *)
(* LogReduce, up to the reordering of steps that commute, see TraceNext). *)
(*                                                                         *)
(* Steps no client logs (a delete that lands after its request ended, the  *)
(* server expiring a session, a pause around a holder's expiry, a stale    *)
(* notification dropped, a create whose reply the client gave up on) are   *)
(* silent: they may be taken between logged events, where the trace allows *)
(* them (see Silent), and they do not advance l.  They are bounded by the  *)
(* spec itself: each pending delete lands once, each session expires once, *)
(* and every fault spends the budget MaxFaults, set from the trace.        *)
(*                                                                         *)
(* The trace is accepted when some behaviour matches every event:          *)
(* TraceUnmatched is then violated, and TLC prints that behaviour.  When   *)
(* TLC finishes without a violation, no interleaving matches the whole     *)
(* trace: the trace is rejected.  (The idea of a spec constrained step by  *)
(* step by a log, with silent steps between logged ones, is the one of     *)
(* etcd-io/raft's tla/Traceetcdraft.tla; this is a separate design.)       *)
(*                                                                         *)
(* The mapping of events to actions is model/trace's (its README, "Mapping *)
(* to the model"), which validates the same traces in the Go model: the    *)
(* two must agree on every pinned trace (cmd/tlatrace's tests).            *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets, TLC, LogReplay

\* LogReplay's constants: LogClients, the trace's clients; Log, the lock's
\* events (records, see below); LogSeq, the real sequence numbers of the
\* requests' nodes; LogReduce.  Its variables: l and seqHigh.
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
(*   node      the request <<c, r>> of the node it names as its own        *)
(*   target    the request of the node it waits for, watches or finds      *)
(*   chosen    WatchPredecessor: the request of the node the client's last *)
(*             listing chose (it must watch that one)                      *)
(*   children  ListChildren: the requests of the nodes listed, in order    *)
(*   token     Grant: the token (czxid), 0 if unknown                      *)
(*   confirmed Release, Cancel: the client saw its delete land             *)
(*   learns    whether, from this event on, the client reports the loss of *)
(*             its session ("always"), makes no more ZooKeeper calls       *)
(*             ("ifNodes"), or neither ("never")                           *)
(*   need      [d |-> k]: k events of client d must be matched first      *)
(* A request is <<c, r>>, the spec's uuid; <<>> stands for none.           *)
(***************************************************************************)

VARIABLES
    nodes, nextSeq, zxid, live, watches, inbox,
    pc, sess, reqNo, node, target, second, soleBlocker, token, tenure, paused,
    faults, grants, lastToken, resHigh, resTenure, pending

VARIABLE
    tokenHigh   \* the highest token a matched Grant showed (0: none)

specVars == <<nodes, nextSeq, zxid, live, watches, inbox,
              pc, sess, reqNo, node, target, second, soleBlocker, token, tenure, paused,
              faults, grants, lastToken, resHigh, resTenure, pending>>
traceVars == <<l, seqHigh, tokenHigh>>

\* The spec as the model of impl/zklock that model/trace uses: every fault
\* possible, the grant re-reads the node, deletes land after their request
\* ends.  Sync is the same spec with deletes that land in the step that ends
\* the request: a Release or Cancel the client saw confirmed is that step
\* (Lock's step followed by DeleteLands, in one).
Lock == INSTANCE PredecessorLock
    WITH Clients <- LogClients, MaxRequests <- LogMaxRequests, MaxSeq <- LogMaxSeq,
         MaxFaults <- LogMaxFaults, WithExpiry <- TRUE, WithReplyLoss <- TRUE,
         WithPause <- TRUE, WithCancel <- TRUE, Fencing <- TRUE, GrantRule <- "reread",
         AsyncDelete <- TRUE
Sync == INSTANCE PredecessorLock
    WITH Clients <- LogClients, MaxRequests <- LogMaxRequests, MaxSeq <- LogMaxSeq,
         MaxFaults <- LogMaxFaults, WithExpiry <- TRUE, WithReplyLoss <- TRUE,
         WithPause <- TRUE, WithCancel <- TRUE, Fencing <- TRUE, GrantRule <- "reread",
         AsyncDelete <- FALSE
\* The lost calls of PredecessorLockConnLoss, for WatchPredecessor and
\* WatchSecond "lost" (their steps without the budget: the trace's faults are not counted there).
Loss == INSTANCE PredecessorLockConnLoss
    WITH Clients <- LogClients, MaxRequests <- LogMaxRequests, MaxSeq <- LogMaxSeq,
         MaxFaults <- LogMaxFaults, WithExpiry <- TRUE, WithReplyLoss <- TRUE,
         WithPause <- TRUE, WithCancel <- TRUE, Fencing <- TRUE, GrantRule <- "reread",
         AsyncDelete <- TRUE, MaxLost <- 0, lost <- 0

-----------------------------------------------------------------------------
(* LogReplay's bookkeeping (ClientLog, Done, Ev, Ready, Learns, Advance) on *)
(* the lock's nodes. *)

\* The requests of the nodes in sequence order.
Queue == QueueOf(nodes)

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
    /\ UNCHANGED tokenHigh
    /\ CASE e.result = "missing" ->
              /\ pc[c] = "list" /\ ~Lock!OwnNodeExists(c)
              /\ Nothing /\ UNCHANGED seqHigh
         [] e.result = "grant" ->
              /\ Lock!ListChildren(c) /\ pc'[c] = "grant" /\ UNCHANGED seqHigh
         [] e.result = "wait" ->
              /\ Lock!ListChildren(c) /\ pc'[c] \in {"second", "watch"} /\ UNCHANGED seqHigh
              /\ Lock!ZK!NodeAt(target'[c]).uuid = e.target
         [] OTHER -> FALSE

\* Release or Cancel: the request ends.  While the session lives, the
\* spec's step, which leaves the delete pending, or, when the client saw the
\* delete land, lands it too.  Once the session is gone the delete fails or
\* finds nothing (the server deleted the node with the session): no step,
\* from a pc where the client may end the request (fromPC).
EndRequest(c, e, async, sync, fromPC) ==
    /\ UNCHANGED <<seqHigh, tokenHigh>>
    /\ IF Lock!Live(c)
       THEN IF e.confirmed THEN sync ELSE async
       ELSE fromPC /\ Nothing

Acquiring(c) == pc[c] \notin {"idle", "hold"}

\* A token, when the event shows it, is above every token granted before
\* (czxids grow, and grants follow the creates' order).
TokenInOrder(e) ==
    IF e.token > 0
    THEN e.token > tokenHigh /\ tokenHigh' = e.token
    ELSE UNCHANGED tokenHigh

Logged(c) ==
    LET e == Ev(c) IN
    /\ Ready(c)
    /\ Advance(c)
    /\ CASE e.action = "RequestLock" ->
              Lock!RequestLock(c) /\ UNCHANGED <<seqHigh, tokenHigh>>
         [] e.action = "CreateOk" ->
              /\ e.node = <<c, reqNo[c]>>
              /\ Lock!CreateOk(c) /\ Created(<<c, reqNo[c]>>) /\ UNCHANGED tokenHigh
         [] e.action = "CreateReplyLost" ->
              \* the create happened, or never reached the server
              /\ UNCHANGED tokenHigh
              /\ \/ Lock!CreateReplyLost(c) /\ Created(<<c, reqNo[c]>>)
                 \/ pc[c] = "create" /\ Nothing /\ UNCHANGED seqHigh
         [] e.action = "FindOwnNode" /\ e.result = "found" ->
              /\ e.target = <<c, reqNo[c]>>
              /\ Lock!FindOwnNode(c) /\ pc'[c] = "list"
              /\ UNCHANGED <<seqHigh, tokenHigh>>
         [] e.action = "FindOwnNode" /\ e.result = "absent" ->
              \* the create never reached the server: the client creates again
              pc[c] = "create" /\ Nothing /\ UNCHANGED <<seqHigh, tokenHigh>>
         [] e.action = "ListChildren" ->
              MatchListChildren(c, e)
         [] e.action = "WatchSecond" /\ e.result = "lost" ->
              \* the connection was lost before the reply: nothing armed,
              \* go on to the predecessor
              /\ Loss!WatchSecondLostStep(c)
              /\ UNCHANGED <<seqHigh, tokenHigh>>
         [] e.action = "WatchSecond" ->
              \* the node two ahead the last listing showed, found or gone
              /\ Lock!WatchSecond(c)
              /\ IF e.result = "exists"
                 THEN Lock!ZK!NodeExists(second[c]) /\ Lock!ZK!NodeAt(second[c]).uuid = e.target
                 ELSE e.result = "gone" /\ ~Lock!ZK!NodeExists(second[c])
              /\ UNCHANGED <<seqHigh, tokenHigh>>
         [] e.action = "WatchPredecessor" /\ e.result = "lost" ->
              \* the connection was lost before the reply: nothing armed,
              \* list again, the node there or not
              /\ e.target = e.chosen
              /\ Loss!WatchPredecessorLostStep(c)
              /\ UNCHANGED <<seqHigh, tokenHigh>>
         [] e.action = "WatchPredecessor" ->
              /\ e.target = e.chosen
              /\ Lock!WatchPredecessor(c)
              /\ \/ e.result = "exists" /\ pc'[c] = "wait"
                 \/ e.result = "gone" /\ pc'[c] = "list"
              /\ UNCHANGED <<seqHigh, tokenHigh>>
         [] e.action = "PredecessorGone" ->
              Lock!PredecessorGone(c) /\ UNCHANGED <<seqHigh, tokenHigh>>
         [] e.action = "GrantOnHeadGone" ->
              \* the notification of the node the last listing chose
              /\ e.target \in {<<>>, e.chosen}
              /\ Lock!GrantOnHeadGone(c) /\ UNCHANGED <<seqHigh, tokenHigh>>
         [] e.action = "Grant" ->
              Lock!Grant(c) /\ TokenInOrder(e) /\ UNCHANGED seqHigh
         [] e.action = "Release" ->
              EndRequest(c, e, Lock!Release(c), Sync!Release(c), pc[c] = "hold")
         [] e.action = "Cancel" /\ e.result # "" ->
              \* made after the session ended: it deleted nothing
              Acquiring(c) /\ Nothing /\ UNCHANGED <<seqHigh, tokenHigh>>
         [] e.action = "Cancel" ->
              EndRequest(c, e, Lock!Cancel(c), Sync!Cancel(c), Acquiring(c))
         [] e.action = "LearnExpiry" ->
              Lock!LearnExpiry(c) /\ UNCHANGED <<seqHigh, tokenHigh>>
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
           {n.uuid : n \in nodes} \ Range(e.children)
      [] e.action = "WatchPredecessor" ->
           IF target[c] \in Lock!Seqs(nodes) THEN {Lock!ZK!NodeAt(target[c]).uuid} ELSE {}
      [] e.action = "WatchSecond" ->
           IF second[c] \in Lock!Seqs(nodes) THEN {Lock!ZK!NodeAt(second[c]).uuid} ELSE {}
      [] e.action \in {"PredecessorGone", "GrantOnHeadGone"} ->
           \* the node whose watch fired, as the event names it (the target,
           \* the second, or an earlier target of the request)
           IF e.target # <<>>
           THEN {n.uuid : n \in {m \in nodes : m.uuid = e.target}}
           ELSE IF target[c] \in Lock!Seqs(nodes) THEN {Lock!ZK!NodeAt(target[c]).uuid} ELSE {}
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
    THEN {u[1] : u \in Range(Ev(c).children) \ {n.uuid : n \in nodes}}
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

\* The silent steps.  With LogReduce, each must be asked for by a stuck
\* event: gone holds the requests whose nodes such events observe gone,
\* expire the sessions they ask to expire, create the clients whose
\* unreported create they list.  (Sets, not operators, so that
\* ElectionTrace can add its observers' demands to its candidates'.)
SilentFor(gone, expire, create) ==
    /\ UNCHANGED <<l, tokenHigh>>
    /\ \/ \E c \in LogClients :
            Lock!IgnoreNotification(c) /\ UNCHANGED seqHigh
       \/ \E p \in pending :
            (LogReduce => p[2] \in gone) /\ Lock!DeleteLands(p[2]) /\ UNCHANGED seqHigh
       \/ \E s \in live :
            /\ LogReduce => s \in expire
            /\ MayExpire(s) /\ Lock!ExpireSession(s) /\ UNCHANGED seqHigh
       \* the server expires a holder's session only while its process is
       \* paused (its loss timer fires first otherwise)
       \/ \E c \in LogClients :
            /\ LogReduce => Lock!Sess(c) \in expire
            /\ pc[c] = "hold" /\ MayExpire(Lock!Sess(c))
            /\ Lock!PauseClient(c) /\ UNCHANGED seqHigh
       \/ \E c \in LogClients :
            Lock!ResumeClient(c) /\ UNCHANGED seqHigh
       \/ \E c \in LogClients :
            (LogReduce => c \in create) /\ UnreportedCreate(c)

Silent == SilentFor(Demanded(GoneFor), Demanded(ExpireFor), Demanded(CreateFor))

-----------------------------------------------------------------------------
TraceInit ==
    /\ Lock!Init
    /\ LogInit
    /\ tokenHigh = 0

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
          "FindOwnNode", "WatchSecond", "WatchPredecessor", "ListChildren"}

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
\* zxids, czxids, tokens and the fencing history, which no guard of a
\* matched step reads (a Grant's token is compared with the trace's, not
\* the spec's).  States equal in all else are explored once.
TraceView ==
    <<{[n EXCEPT !.czxid = 0] : n \in nodes}, nextSeq, live, watches, inbox,
      pc, sess, reqNo, node, target, second, soleBlocker, paused, faults, pending, traceVars>>

\* TraceUnmatched (the verdict), Matched and TraceProgress (how far a
\* rejected trace got) are LogReplay's.

=============================================================================
