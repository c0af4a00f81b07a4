------------------------------ MODULE LogReplay ------------------------------
(***************************************************************************)
(* The log bookkeeping every trace module shares (PredecessorLockTrace,    *)
(* SharedLockTrace, SemaphoreTrace EXTEND it): each client's events of the *)
(* constant Log, matched in the client's order; l[c] counts the events of  *)
(* c matched so far; an event is ready when the events of other clients   *)
(* it needs are matched; the sequence numbers the trace shows must grow;   *)
(* and the invariants that report the verdict.  What an event means, and   *)
(* which silent steps may come between events, is each trace module's own  *)
(* (PredecessorLockTrace's header comment explains the design).           *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets, TLC

CONSTANTS
    LogClients,     \* the trace's clients (strings): one per ZooKeeper session
    Log,            \* the events in the file's order (records; each trace
                    \* module lists their fields)
    LogSeq,         \* request <<c, r>> -> the real sequence number of its node
                    \* (only requests whose node the trace names, once)
    LogReduce       \* take the steps that commute with every other first

VARIABLES
    l,          \* [c |-> the number of c's events matched so far]
    seqHigh     \* the highest real sequence number created so far (-1: none)

LogInit ==
    /\ l = [c \in LogClients |-> 0]
    /\ seqHigh = -1

(* Each client's log, worked out once. *)
ClientLog == TLCEval([c \in LogClients |-> SelectSeq(Log, LAMBDA e : e.client = c)])

Done(c) == l[c] = Len(ClientLog[c])
Ev(c) == ClientLog[c][l[c] + 1]      \* c's next event (when not Done(c))

\* The action of c's last matched event ("" before its first).
Prev(c) == IF l[c] = 0 THEN "" ELSE ClientLog[c][l[c]].action

\* c's next event may be matched now: the events it needs are.
Ready(c) ==
    /\ ~Done(c)
    /\ \A d \in DOMAIN Ev(c).need : l[d] >= Ev(c).need[d]

\* Whether, from c's next event on, c reports the loss of its session
\* ("always"), makes no more ZooKeeper calls ("ifNodes"), or neither.
Learns(c) == IF Done(c) THEN "ifNodes" ELSE Ev(c).learns

Advance(c) == l' = [l EXCEPT ![c] = @ + 1]

Range(s) == {s[i] : i \in 1..Len(s)}

\* A node of request u is created: its real sequence number, when the trace
\* shows it, comes after every one created so far, unless the queue is
\* empty (emptyQueue: ZooKeeper deletes the empty parent, a container; the
\* next create makes it anew and numbers from 0 again).
CreatedIn(u, emptyQueue) ==
    IF u \in DOMAIN LogSeq
    THEN /\ LogSeq[u] > seqHigh \/ emptyQueue
         /\ seqHigh' = LogSeq[u]
    ELSE UNCHANGED seqHigh

\* A sequence number that goes back: request u's node can only be created
\* in a parent made anew, which needs an empty queue.
SeqGoesBack(u) == u \in DOMAIN LogSeq /\ LogSeq[u] <= seqHigh

\* The requests of a set of nodes (records with seq and uuid) in sequence
\* order: a listing of them.
QueueOf(ns) ==
    LET rank(n) == Cardinality({m \in ns : m.seq <= n.seq})
    IN  [i \in 1..Cardinality(ns) |-> (CHOOSE n \in ns : rank(n) = i).uuid]

-----------------------------------------------------------------------------
\* Violated when every event is matched: the trace is accepted.
TraceUnmatched == \E c \in LogClients : ~Done(c)

\* How far a behaviour got: the events matched.
Matched == LET RECURSIVE sum(_)
               sum(S) == IF S = {} THEN 0
                         ELSE LET c == CHOOSE x \in S : TRUE IN l[c] + sum(S \ {c})
           IN  sum(LogClients)

\* Not a property (always true): prints each new deepest point reached, so
\* that a rejection can say how far the trace matched and which events
\* were next (TLC's register 1 holds the deepest so far; one worker).
ASSUME TLCSet(1, -1)
TraceProgress ==
    Matched > TLCGet(1) => TLCSet(1, Matched) /\ PrintT(<<"TraceProgress", Matched, l>>)

=============================================================================
