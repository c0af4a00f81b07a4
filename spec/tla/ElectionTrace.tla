---------------------------- MODULE ElectionTrace ----------------------------
(***************************************************************************)
(* Trace validation of the election: a trace of impl/zklock (one election  *)
(* path, with a Proclaim or an observer's event) replayed in Election      *)
(* itself, by TLC.  The same design as PredecessorLockTrace.tla (read it   *)
(* first): each trace client's events form a log matched in its order,     *)
(* clients interleave as `need` allows, steps no client logs are silent    *)
(* and taken on demand, and the trace is accepted when TraceUnmatched is   *)
(* violated.                                                               *)
(*                                                                         *)
(* Most of it is PredecessorLockTrace's, instanced rather than copied:     *)
(*   Cand  PredecessorLockTrace on the candidates (LogCandidates): their   *)
(*         events are the lock's, matched by its Logged, and its silent    *)
(*         steps (SilentFor) are the lock's; Election's candidate steps    *)
(*         are the lock's with Election's own variables unchanged, so     *)
(*         Cand!Logged(c) /\ UNCHANGED ownVars is Election's step.         *)
(*   All   PredecessorLockTrace's log bookkeeping (Done, Ev, Ready,        *)
(*         Advance, TraceUnmatched, TraceProgress) on every trace client,  *)
(*         candidates and observers (its lock steps are never used).      *)
(* What this module adds is what Election adds to the lock:               *)
(*   - Proclaim, the leader's setData, with the version it wrote;          *)
(*   - a candidate's PredecessorGone that is Election's DataChanged (the   *)
(*     impl lists again on a NodeDataChanged event of a Proclaim), and     *)
(*     IgnoreDataChange silent as IgnoreNotification is;                   *)
(*   - the observers' events (ObserveList, ObserveWatch, ObserveNotified, *)
(*     ObserveNext, ObserveRefresh),                                       *)
(*     each observation (one Observe call) a trace client of its own      *)
(*     after the candidates, as model/trace's splitObservers makes them;  *)
(*   - the nodes an observer's event observes gone, or created, among the *)
(*     silent steps' demands.                                             *)
(*                                                                         *)
(* The reading of each event is model/trace's (its README, "Election"),   *)
(* which validates the same traces in the Go model (model/election): the  *)
(* two must agree on every pinned election trace (cmd/tlatrace's tests).  *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets, TLC

CONSTANTS
    LogCandidates,  \* the trace's candidates (strings): one per ZooKeeper session
    LogObservers,   \* the trace's observers (strings): one per Observe call
    Log,            \* the path's events in the file's order (records, see below)
    LogSeq,         \* request <<c, r>> -> the real sequence number of its node
    LogMaxRequests, \* the most requests of one candidate
    LogMaxSeq,      \* a bound on the creates the trace can need
    LogMaxFaults,   \* a bound on the fault steps the trace can need
    LogMaxProclaims,\* a bound on the Proclaims of one leader
    LogReduce       \* take the steps that commute with every other first

(***************************************************************************)
(* An event of Log is PredecessorLockTrace's record (see there) with two   *)
(* more fields:                                                            *)
(*   version    Proclaim: the version it wrote; ObserveWatch: the version  *)
(*              it read; -1 when the event carries none                    *)
(*   pathWatch  ObserveNotified "path": the observer holds a watch on the  *)
(*              election's path the spec's observer does not, whose event *)
(*              it has not taken yet (see MatchObserveNotified)            *)
(*   reported   ObserveWatch "exists": the observer sent what it read; it  *)
(*              may only if the head is newer than the last it read        *)
(*              (Election's known; ObservedEpochsIncrease)                 *)
(*   next       ObserveList "found", ObserveRefresh: the request of the     *)
(*              first candidate listed after the observer's head (<<>>:   *)
(*              none), when nextKnown (traces from before ObserveNext do  *)
(*              not record it): Election's Min(onext) after the listing    *)
(* An observer's req is 0 (an observation is no request of the lock), and *)
(* its target is the request of the candidate node it names.              *)
(***************************************************************************)

VARIABLES
    nodes, nextSeq, zxid, live, watches, inbox,
    pc, sess, reqNo, node, target, second, soleBlocker, token, tenure, paused,
    faults, grants, lastToken, resHigh, resTenure, pending,
    value, proclaimed, dataEvents, opc, ohead, onext, orefresh, omark, report, known

VARIABLES
    l,          \* [x |-> the number of x's events matched so far], x a candidate or observer
    seqHigh,    \* the highest real sequence number created so far (-1: none)
    tokenHigh   \* the highest token a matched Grant showed (0: none)

lockVars  == <<nodes, nextSeq, zxid, live, watches, inbox,
               pc, sess, reqNo, node, target, second, soleBlocker, token, tenure, paused,
               faults, grants, lastToken, resHigh, resTenure, pending>>
ownVars   == <<value, proclaimed, dataEvents, opc, ohead, onext, orefresh, omark, report, known>>
traceVars == <<l, seqHigh, tokenHigh>>

\* Election as the model of impl/zklock that model/trace uses: the lock's
\* constants as PredecessorLockTrace sets them, every observer watching a
\* vacancy and taking the smallest sequence number for the head (the code,
\* not the mutants).  LeadersResign is fairness only, unused here.
Elect == INSTANCE Election
    WITH Clients <- LogCandidates, MaxRequests <- LogMaxRequests, MaxSeq <- LogMaxSeq,
         MaxFaults <- LogMaxFaults, WithExpiry <- TRUE, WithReplyLoss <- TRUE,
         WithPause <- TRUE, WithCancel <- TRUE, Fencing <- TRUE, GrantRule <- "reread",
         AsyncDelete <- TRUE, Observers <- LogObservers, MaxProclaims <- LogMaxProclaims,
         WatchVacancy <- TRUE, LeadersResign <- TRUE, HeadBySeq <- TRUE,
         WithObserverLoss <- FALSE, NextOnDelete <- TRUE, ReportFilter <- TRUE

\* The candidates' events, matched as a Mutex's.
Cand == INSTANCE PredecessorLockTrace WITH LogClients <- LogCandidates

\* The log bookkeeping, on every trace client.
All == INSTANCE PredecessorLockTrace WITH LogClients <- LogCandidates \cup LogObservers

Nothing == UNCHANGED <<lockVars, ownVars>>

\* The event's version, if it carries one, is v.
VersionIs(e, v) == e.version < 0 \/ e.version = v

\* The first successor observer o's listing showed, if the event records
\* it, is the model's after the step (onext').
NextIs(o, e) ==
    e.nextKnown =>
        IF e.next = <<>> THEN onext'[o] = {}
        ELSE /\ onext'[o] # {}
             /\ Elect!PL!ZK!NodeExists(Elect!Min(onext'[o]))
             /\ Elect!PL!ZK!NodeAt(Elect!Min(onext'[o])).uuid = e.next

-----------------------------------------------------------------------------
(***************************************************************************)
(* Logged steps of a candidate.                                            *)
(***************************************************************************)

(* Proclaim "ok": Election's step (setData in a multi with the check of    *)
(* the leader's own node), writing the version the event reports.  "gone": *)
(* the multi's check failed, nothing written; the node must be gone.       *)
(* "lost": no reply was read (the connection lost, the call given up): the *)
(* multi was applied or not, either.                                       *)
MatchProclaim(c, e) ==
    CASE e.result = "gone" -> ~Elect!PL!OwnNodeExists(c) /\ Nothing
      [] e.result = "lost" -> Elect!Proclaim(c) \/ Nothing
      [] OTHER             -> Elect!Proclaim(c) /\ VersionIs(e, value'[node[c] + 1])

\* Candidate c's next event, matched: its Proclaim, its wake-up (the lock's
\* or DataChanged), or any other event as the lock's (Cand!Logged), with
\* Election's own variables unchanged.
CandLogged(c) ==
    /\ Cand!Ready(c)
    /\ CASE Cand!Ev(c).action = "Proclaim" ->
              /\ Cand!Advance(c) /\ UNCHANGED <<seqHigh, tokenHigh>>
              /\ MatchProclaim(c, Cand!Ev(c))
         [] Cand!Ev(c).action = "PredecessorGone" ->
              \* the lock's wake-up (a deletion), or a Proclaim's
              \* NodeDataChanged event: Election's DataChanged, which lists
              \* again too
              \/ Cand!Logged(c) /\ UNCHANGED ownVars
              \/ /\ Cand!Advance(c) /\ UNCHANGED <<seqHigh, tokenHigh>>
                 /\ Elect!DataChanged(c)
         [] OTHER ->
              Cand!Logged(c) /\ UNCHANGED ownVars

-----------------------------------------------------------------------------
(***************************************************************************)
(* Logged steps of an observer.  Each changes only the observer's          *)
(* variables (Election's observer steps).                                  *)
(***************************************************************************)

\* The head the spec's observer watches is the node the event names, and
\* still the head.
WatchesHead(o, t) ==
    /\ opc[o] = "watching"
    /\ Elect!PL!ZK!NodeExists(ohead[o])
    /\ Elect!PL!ZK!NodeAt(ohead[o]).uuid = t
    /\ ohead[o] = Elect!HeadSeq

(* ObserveNotified and ObserveList in one step: the impl lists again       *)
(* without reporting the notification of a watch that fired (after a       *)
(* child watch whose reply showed a candidate, or a watch the spec has no  *)
(* step for, see MatchObserveNotified).  Election's two steps, composed:   *)
(* the watch fired (Fired), and the listing from "list".                   *)
RelistFired(o) ==
    /\ Elect!Fired(o)
    /\ IF nodes = {}
       THEN /\ opc' = [opc EXCEPT ![o] = "vacant"]
            /\ omark' = [omark EXCEPT ![o] = nextSeq]
            /\ report' = [report EXCEPT ![o] = Elect!Vacancy]
            /\ ohead' = [ohead EXCEPT ![o] = Elect!NoNode]
            /\ onext' = [onext EXCEPT ![o] = {}]
            /\ orefresh' = [orefresh EXCEPT ![o] = FALSE]
       ELSE /\ opc' = [opc EXCEPT ![o] = "watch"]
            /\ ohead' = [ohead EXCEPT ![o] = Elect!HeadSeq]
            /\ onext' = [onext EXCEPT ![o] = {n.seq : n \in {m \in nodes : m.seq > Elect!HeadSeq}}]
            /\ orefresh' = [orefresh EXCEPT ![o] = FALSE]
            /\ omark' = [omark EXCEPT ![o] = Elect!NoWatch]
            /\ UNCHANGED report
    /\ UNCHANGED <<lockVars, value, proclaimed, dataEvents, known>>

(* getChildren of the path: "found" names the head (the node of the        *)
(* smallest sequence number), "vacant" none.  From "list" Election's       *)
(* ObserveList; from a watch that fired, RelistFired; from one that did    *)
(* not, a listing that shows what the observer already knows (the same     *)
(* vacancy, or the head it watches) leaves it as it is.                   *)
MatchObserveList(o, e) ==
    /\ IF e.result = "vacant" THEN nodes = {}
       ELSE e.result = "found" /\ nodes # {} /\ Cand!Queue[1] = e.target
    /\ IF opc[o] \in {"vacant", "watching"}
       THEN IF Elect!Fired(o) THEN RelistFired(o)
            ELSE /\ \/ opc[o] = "vacant" /\ e.result = "vacant"
                    \/ e.result = "found" /\ WatchesHead(o, e.target)
                 /\ Nothing
       ELSE Elect!ObserveList(o)
    /\ NextIs(o, e)

(* getData of the head with a watch: "exists", the watch armed and the     *)
(* version read, sent only if newer than the last head read; "gone", list *)
(* again (Election's ObserveWatch); or, while the observer still watches  *)
(* that head, the same read again, not sent.  Without a                   *)
(* target, the child watch on the path after a vacancy, which Election's   *)
(* ObserveList armed: an observation.                                      *)
MatchObserveWatch(o, e) ==
    CASE e.target = <<>> ->
           opc[o] = "vacant" /\ Nothing
      [] e.result = "exists" /\ WatchesHead(o, e.target) ->
           VersionIs(e, omark[o]) /\ ~e.reported /\ Nothing
      [] e.result = "exists" ->
           /\ Elect!ObserveWatch(o) /\ opc'[o] = "watching"
           /\ Elect!PL!ZK!NodeAt(ohead[o]).uuid = e.target
           /\ VersionIs(e, omark'[o])
           /\ e.reported => Elect!Newer(known'[o], known[o])
      [] e.result = "gone" ->
           Elect!ObserveWatch(o) /\ opc'[o] = "list"
      [] OTHER -> FALSE

(* The observer's watch fired: Election's ObserveNotified.  Or, with the  *)
(* result "path", the event of a watch on the path that the spec's         *)
(* observer does not hold: the impl's exists watch after a listing that    *)
(* found no path (the spec's path always exists), or its child watch of a *)
(* vacancy kept after its reply showed a candidate (it may fire on the     *)
(* deletion that fires the head's watch too, whose event then comes       *)
(* next); the observer stays as it is, and its next listing tells.        *)
MatchObserveNotified(o, e) ==
    IF e.result = "path" THEN e.pathWatch /\ Nothing ELSE Elect!ObserveNotified(o)

(* The head's watch fired with NodeDeleted and the observer reads the     *)
(* successor its listing showed next, without listing: Election's         *)
(* ObserveNext.  The event names the head gone; the read that follows     *)
(* names the successor (MatchObserveWatch checks it).                     *)
MatchObserveNext(o, e) == Elect!ObserveNext(o)

(* The listing after a head read without one: "found" names the listing's *)
(* head (the node of the smallest sequence number), "vacant" none;         *)
(* Election's ObserveRefresh.                                              *)
MatchObserveRefresh(o, e) ==
    /\ IF e.result = "vacant" THEN nodes = {}
       ELSE e.result = "found" /\ nodes # {} /\ Cand!Queue[1] = e.target
    /\ Elect!ObserveRefresh(o)
    /\ NextIs(o, e)

\* Observer o's next event, matched; the lock's variables are unchanged
\* (Election's observer steps say so), and so are seqHigh and tokenHigh.
ObsLogged(o) ==
    /\ All!Ready(o)
    /\ All!Advance(o)
    /\ UNCHANGED <<seqHigh, tokenHigh>>
    /\ CASE All!Ev(o).action = "ObserveList"     -> MatchObserveList(o, All!Ev(o))
         [] All!Ev(o).action = "ObserveWatch"    -> MatchObserveWatch(o, All!Ev(o))
         [] All!Ev(o).action = "ObserveNotified" -> MatchObserveNotified(o, All!Ev(o))
         [] All!Ev(o).action = "ObserveNext"     -> MatchObserveNext(o, All!Ev(o))
         [] All!Ev(o).action = "ObserveRefresh"  -> MatchObserveRefresh(o, All!Ev(o))
         [] OTHER -> FALSE

\* Trace client x's next event, matched.
Logged(x) == IF x \in LogCandidates THEN CandLogged(x) ELSE ObsLogged(x)

-----------------------------------------------------------------------------
(***************************************************************************)
(* Silent steps: the lock's (PredecessorLockTrace's SilentFor), on demand  *)
(* of the candidates' stuck events as there and of the observers' (as      *)
(* model/trace's observerDemand): a listing that names a head asks for    *)
(* the nodes before it gone (a vacancy, for every node), a read or a      *)
(* notification of a node for that node gone, and an event naming a node *)
(* the spec does not have for its create.  A node is gone by its pending  *)
(* delete landing or its owner's session expiring.  Stale NodeDataChanged *)
(* events are dropped as stale deletions are (IgnoreDataChange).           *)
(***************************************************************************)
StuckCands == {c \in LogCandidates : Cand!Ready(c) /\ ~ENABLED CandLogged(c)}
StuckObs   == {o \in LogObservers : All!Ready(o) /\ ~ENABLED ObsLogged(o)}

\* The requests whose nodes observer o's next event observes gone.
ObsGoneFor(o) ==
    LET e       == All!Ev(o)
        listing == e.action \in {"ObserveList", "ObserveRefresh"}
        named   == {n \in nodes : n.uuid = e.target}
        before  == IF named = {} THEN nodes
                   ELSE {n \in nodes : \A m \in named : n.seq < m.seq}
        \* a listing that records its head's successor: the nodes between
        \* them, or every node after the head when it records none
        between == IF listing /\ e.nextKnown /\ named # {}
                   THEN {n \in nodes : /\ \A m \in named : n.seq > m.seq
                                       /\ \A m \in nodes : m.uuid = e.next => n.seq < m.seq}
                   ELSE {}
    IN  {n.uuid : n \in (IF listing THEN before \cup between ELSE {})
                         \cup (IF e.result = "found" THEN {} ELSE named)}

\* The candidates whose unreported create observer o's next event names.
ObsCreateFor(o) ==
    LET e == All!Ev(o)
    IN  (IF e.target # <<>> /\ ~\E n \in nodes : n.uuid = e.target THEN {e.target[1]} ELSE {})
        \cup (IF e.action \in {"ObserveList", "ObserveRefresh"} /\ e.nextKnown /\ e.next # <<>>
                  /\ ~\E n \in nodes : n.uuid = e.next
              THEN {e.next[1]} ELSE {})

ObsGone == UNION {ObsGoneFor(o) : o \in StuckObs}

Silent ==
    \/ /\ Cand!SilentFor(UNION {Cand!GoneFor(c) : c \in StuckCands} \cup ObsGone,
                         UNION {Cand!ExpireFor(c) : c \in StuckCands} \cup {Cand!Owner(u) : u \in ObsGone},
                         UNION {Cand!CreateFor(c) : c \in StuckCands} \cup UNION {ObsCreateFor(o) : o \in StuckObs})
       /\ UNCHANGED ownVars
    \/ \E c \in LogCandidates :
         Elect!IgnoreDataChange(c) /\ UNCHANGED traceVars

-----------------------------------------------------------------------------
TraceInit ==
    /\ Elect!Init
    /\ l = [x \in LogCandidates \cup LogObservers |-> 0]
    /\ seqHigh = -1
    /\ tokenHigh = 0

(***************************************************************************)
(* With LogReduce, PredecessorLockTrace's reduction, and as model/trace's  *)
(* search: stale notifications, of deletions and of data changes, are     *)
(* dropped first; then a ready event that commutes with every other step  *)
(* is matched alone: the candidates' that PredecessorLockTrace takes so   *)
(* (Cand!Commutes; not Proclaim, a write that fires watches), and every  *)
(* observer's (it writes only its own variables, and reads the nodes or a *)
(* version that only grows).                                               *)
(***************************************************************************)
StaleData(c) == ENABLED Elect!IgnoreDataChange(c)

(* Except a read that arms a data watch on a node whose leader may still   *)
(* proclaim before it: a candidate's WatchPredecessor or WatchSecond, or   *)
(* an observer's ObserveWatch that reports no version (one that does is   *)
(* told apart by it: in the wrong order it does not match).  The node's    *)
(* owner has a Proclaim not yet matched that the trace's need does not    *)
(* place after the read: a Proclaim fires every data watch on its node,   *)
(* so the watch armed before it is gone and the one armed after it waits  *)
(* for the deletion, two different runs; both orders are explored.        *)
NeedOf(e, d) == IF d \in DOMAIN e.need THEN e.need[d] ELSE 0
ProclaimMayPrecede(x) ==
    LET e == All!Ev(x)
    IN  /\ \/ e.action \in {"WatchPredecessor", "WatchSecond"}
           \/ e.action = "ObserveWatch" /\ e.version < 0
        /\ e.target # <<>>
        /\ LET o  == e.target[1]
               ps == {k \in (l[o] + 1)..Len(All!ClientLog[o]) :
                        All!ClientLog[o][k].action = "Proclaim"}
           IN  /\ o # x /\ o \in LogCandidates
               /\ ps # {}
               /\ NeedOf(All!ClientLog[o][Elect!Min(ps)], x) <= l[x]

(* And except an observer's listing that matches only as one that shows   *)
(* what it already knows (MatchObserveList), its watch not having fired:   *)
(* a step not matched yet may fire it, and the listing be the one after.   *)
ObsGuess(x) ==
    /\ All!Ev(x).action = "ObserveList"
    /\ opc[x] \in {"vacant", "watching"}
    /\ ~Elect!Fired(x)

EagerNow(x) ==
    IF x \in LogCandidates
    THEN Cand!Ready(x) /\ Cand!Commutes(x) /\ ~ProclaimMayPrecede(x) /\ ENABLED CandLogged(x)
    ELSE All!Ready(x) /\ ~ProclaimMayPrecede(x) /\ ~ObsGuess(x) /\ ENABLED ObsLogged(x)

TraceNext ==
    IF LogReduce /\ \E c \in LogCandidates : Cand!Stale(c)
    THEN /\ Elect!IgnoreNotification(CHOOSE c \in LogCandidates : Cand!Stale(c))
         /\ UNCHANGED traceVars
    ELSE IF LogReduce /\ \E c \in LogCandidates : StaleData(c)
    THEN /\ Elect!IgnoreDataChange(CHOOSE c \in LogCandidates : StaleData(c))
         /\ UNCHANGED traceVars
    ELSE IF LogReduce /\ \E x \in LogCandidates \cup LogObservers : EagerNow(x)
    THEN Logged(CHOOSE x \in LogCandidates \cup LogObservers : EagerNow(x))
    ELSE (\E x \in LogCandidates \cup LogObservers : Logged(x)) \/ Silent

TraceSpec == TraceInit /\ [][TraceNext]_<<lockVars, ownVars, traceVars>>

\* PredecessorLockTrace's view, with Election's variables that a matched
\* step reads: the versions, the NodeDataChanged events, the observers'
\* control state, head and mark (not the reports, nor the history).
TraceView ==
    <<{[n EXCEPT !.czxid = 0] : n \in nodes}, nextSeq, live, watches, inbox,
      pc, sess, reqNo, node, target, second, soleBlocker, paused, faults, pending,
      value, dataEvents, opc, ohead, onext, orefresh, omark, traceVars>>

\* Violated when every event is matched: the trace is accepted.
TraceUnmatched == All!TraceUnmatched

\* Not a property: prints each new deepest point reached (see there).  TLC
\* does not evaluate an instanced module's ASSUME: the register is set here.
ASSUME TLCSet(1, -1)
TraceProgress == All!TraceProgress

=============================================================================
