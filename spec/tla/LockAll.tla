------------------------------- MODULE LockAll -------------------------------
(***************************************************************************)
(* impl/zklock's LockAll(ctx, lockers...): take every lock or none.  It   *)
(* locks the parts one after another in one canonical order (by lock      *)
(* path), whatever order the caller gives; when a part's Lock fails (its  *)
(* context ended, its session was lost) it releases the parts it took,    *)
(* last first, and returns the error; a MultiLease ends when any part     *)
(* ends, and its Unlock releases the parts last first.                    *)
(*                                                                         *)
(* Each lock is abstracted to its ZooKeeper queue: the sequence of its     *)
(* lock nodes in sequence-number order.  Lock(part) appends our node      *)
(* (Enqueue: the sequential create), is granted when our node is first    *)
(* (Grant), and a release, a cancelled Lock or a lost session removes it. *)
(* That is sound for what this module asks because PredecessorLock.tla    *)
(* checks the single lock's protocol (watching the predecessor, lost      *)
(* replies, the loss timer, the grant rule) against exactly this          *)
(* contract: a lease is granted only to the first node, a lease ends no   *)
(* later than its node goes, and a failed or cancelled Lock leaves no     *)
(* node.  LockAll only composes grants: it never looks inside a lock.     *)
(* The end of a lease and the removal of its node are one step here       *)
(* (LoseSession); in the code the lease ends first (the loss timer fires  *)
(* before the server expires the session), which only makes a lock free   *)
(* later.                                                                 *)
(*                                                                         *)
(* Each part may live in a session of its own (LockAll accepts lockers of *)
(* different sessions), so a part's session may be lost while LockAll     *)
(* waits for another part.  LostPart says what LockAll does then:         *)
(*  "checked": the wait for the next part ends as soon as a part it took  *)
(*             has ended (Abandon), and after the last grant it checks    *)
(*             that every part still holds (Grant), releasing all if not; *)
(*  "watched": only the first of the two (a control: the last grant can   *)
(*             race the end of a part taken earlier);                     *)
(*  "ignored": neither (impl/zklock before this module): LockAll waits on *)
(*             and returns a MultiLease with a part that already ended.   *)
(* Order "given" (a control) locks in the caller's order; ReleaseOnFailure *)
(* FALSE (a control) returns the error keeping the parts taken.           *)
(*                                                                         *)
(* Two locks, numbered 1 and 2 in the order of their paths (so the        *)
(* canonical order is the order of the numbers).  Clients 1..Pairs call   *)
(* LockAll with both locks, odd clients giving them as <<1, 2>>, even ones *)
(* as <<2, 1>>; the Singles clients after them call it with lock 2 alone  *)
(* (the lock a LockAll holding lock 1 waits for).                         *)
(* spec/tla/README.md describes the module; model/lockall is its Go       *)
(* mirror: keep them in step.                                             *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets, TLC

CONSTANTS
    Pairs,            \* clients taking both locks
    Singles,          \* clients taking lock 2 alone
    MaxRequests,      \* LockAll calls per client
    MaxFaults,        \* fault budget: a part's Lock fails, a taken part's session is lost
    Order,            \* "path" (impl/zklock) or "given" (the caller's order)
    LostPart,         \* "checked" (impl/zklock), "watched" or "ignored"
    ReleaseOnFailure  \* TRUE (impl/zklock): a failed LockAll releases what it took

Range(s) == {s[i] : i \in DOMAIN s}

Clients == 1..(Pairs + Singles)
Locks == {1, 2}

\* The locks client c passes to LockAll, in the caller's order.
Wants(c) == IF c > Pairs THEN <<2>> ELSE IF c % 2 = 1 THEN <<1, 2>> ELSE <<2, 1>>

ASSUME /\ {Pairs, Singles, MaxRequests, MaxFaults} \subseteq Nat
       /\ Pairs + Singles >= 1
       /\ Order \in {"path", "given"}
       /\ LostPart \in {"checked", "watched", "ignored"}
       /\ ReleaseOnFailure \in BOOLEAN

VARIABLES
    queue,   \* queue[l]: lock l's nodes in sequence order, each <<client, request>>
    pc,      \* "idle", "locking", "holding" (LockAll returned a MultiLease),
             \* "releasing" (LockAll failed, releasing), "unlocking" (MultiLease.Unlock)
    reqs,    \* LockAll calls each client has started
    taken,   \* the parts LockAll took, in the order it took them
    ended,   \* the parts taken whose lease has ended (session lost)
    faults   \* faults so far

vars == <<queue, pc, reqs, taken, ended, faults>>

\* The order in which each client locks its parts (a constant: TLC
\* evaluates it once).
Plans == [c \in Clients |-> IF Order = "path" THEN SortSeq(Wants(c), LAMBDA x, y : x < y)
                                              ELSE Wants(c)]
Plan(c) == Plans[c]

\* Client c's node in a queue, for its current LockAll call.
Node(c) == <<c, reqs[c]>>

\* The part client c is locking (while pc[c] = "locking").
Pending(c) == Plan(c)[Len(taken[c]) + 1]

Queued(c, l) == \E i \in DOMAIN queue[l] : queue[l][i] = Node(c)

Remove(q, n) == SelectSeq(q, LAMBDA m : m # n)

\* Client c holds lock l: a lease of its LockAll call that has not ended.
Holds(c, l) == l \in Range(taken[c]) /\ l \notin ended[c]

TypeOK ==
    /\ queue \in [Locks -> Seq(Clients \X (1..MaxRequests))]
    /\ pc \in [Clients -> {"idle", "locking", "holding", "releasing", "unlocking"}]
    /\ reqs \in [Clients -> 0..MaxRequests]
    /\ \A c \in Clients : /\ Len(taken[c]) <= Len(Plan(c))
                          /\ Range(taken[c]) \subseteq Locks
                          /\ ended[c] \subseteq Range(taken[c])
    /\ faults \in 0..MaxFaults

Init ==
    /\ queue = [l \in Locks |-> <<>>]
    /\ pc = [c \in Clients |-> "idle"]
    /\ reqs = [c \in Clients |-> 0]
    /\ taken = [c \in Clients |-> <<>>]
    /\ ended = [c \in Clients |-> {}]
    /\ faults = 0

\* The caller calls LockAll.
Start(c) ==
    /\ pc[c] = "idle"
    /\ reqs[c] < MaxRequests
    /\ pc' = [pc EXCEPT ![c] = "locking"]
    /\ reqs' = [reqs EXCEPT ![c] = @ + 1]
    /\ UNCHANGED <<queue, taken, ended, faults>>

\* Lock(part): the sequential create of our node at the end of the queue.
Enqueue(c) ==
    /\ pc[c] = "locking"
    /\ ~Queued(c, Pending(c))
    /\ queue' = [queue EXCEPT ![Pending(c)] = Append(@, Node(c))]
    /\ UNCHANGED <<pc, reqs, taken, ended, faults>>

\* Lock(part) returns a lease: our node is first.  After the last part,
\* LockAll returns the MultiLease, unless (rule "checked") a part taken
\* earlier has ended meanwhile: then it releases everything.
Grant(c) ==
    /\ pc[c] = "locking"
    /\ queue[Pending(c)] # <<>>
    /\ Head(queue[Pending(c)]) = Node(c)
    /\ taken' = [taken EXCEPT ![c] = Append(@, Pending(c))]
    /\ pc' = [pc EXCEPT ![c] =
                IF Len(taken[c]) + 1 < Len(Plan(c)) THEN "locking"
                ELSE IF LostPart = "checked" /\ ended[c] # {} THEN "releasing"
                ELSE "holding"]
    /\ UNCHANGED <<queue, reqs, ended, faults>>

\* A Lock that fails: its node is gone (deleted on the context's end, or
\* with its lost session).  LockAll releases what it took, or (the
\* control ReleaseOnFailure = FALSE) returns the error and keeps it.
FailLock(c) ==
    /\ queue' = [queue EXCEPT ![Pending(c)] = Remove(@, Node(c))]
    /\ IF ReleaseOnFailure
          THEN /\ pc' = [pc EXCEPT ![c] = "releasing"]
               /\ UNCHANGED <<taken, ended>>
          ELSE /\ pc' = [pc EXCEPT ![c] = "idle"]
               /\ taken' = [taken EXCEPT ![c] = <<>>]
               /\ ended' = [ended EXCEPT ![c] = {}]

\* Rules "checked" and "watched": a part taken earlier has ended, which
\* cancels the pending Lock's context.
Abandon(c) ==
    /\ LostPart \in {"checked", "watched"}
    /\ pc[c] = "locking"
    /\ ended[c] # {}
    /\ FailLock(c)
    /\ UNCHANGED <<reqs, faults>>

\* Fault: the pending Lock fails (the caller's context ends, or the part's
\* session is lost).
PartFails(c) ==
    /\ pc[c] = "locking"
    /\ faults < MaxFaults
    /\ faults' = faults + 1
    /\ FailLock(c)
    /\ UNCHANGED reqs

\* Fault: the session of a part c holds is lost: the lease ends and the
\* node goes (one step; see the module comment).
LoseSession(c, l) ==
    /\ pc[c] \in {"locking", "holding"}
    /\ Holds(c, l)
    /\ faults < MaxFaults
    /\ faults' = faults + 1
    /\ ended' = [ended EXCEPT ![c] = @ \cup {l}]
    /\ queue' = [queue EXCEPT ![l] = Remove(@, Node(c))]
    /\ UNCHANGED <<pc, reqs, taken>>

\* The caller is done (or its MultiLease ended): MultiLease.Unlock.
Unlock(c) ==
    /\ pc[c] = "holding"
    /\ pc' = [pc EXCEPT ![c] = "unlocking"]
    /\ UNCHANGED <<queue, reqs, taken, ended, faults>>

\* The part taken last is released: its node deleted (if its session
\* still has it).
ReleasePart(c) ==
    /\ pc[c] \in {"releasing", "unlocking"}
    /\ taken[c] # <<>>
    /\ LET l == taken[c][Len(taken[c])] IN
          /\ queue' = [queue EXCEPT ![l] = Remove(@, Node(c))]
          /\ taken' = [taken EXCEPT ![c] = SubSeq(@, 1, Len(@) - 1)]
          /\ ended' = [ended EXCEPT ![c] = @ \ {l}]
    /\ UNCHANGED <<pc, reqs, faults>>

\* Every part released: LockAll returns its error, or Unlock returns.
Return(c) ==
    /\ pc[c] \in {"releasing", "unlocking"}
    /\ taken[c] = <<>>
    /\ pc' = [pc EXCEPT ![c] = "idle"]
    /\ UNCHANGED <<queue, reqs, taken, ended, faults>>

\* Every client made all its calls: stutter, so that a deadlock is a real one.
Terminated ==
    /\ \A c \in Clients : pc[c] = "idle" /\ reqs[c] = MaxRequests
    /\ UNCHANGED vars

ClientNext(c) ==
    \/ Start(c)
    \/ Enqueue(c)
    \/ Grant(c)
    \/ Abandon(c)
    \/ PartFails(c)
    \/ \E l \in Locks : LoseSession(c, l)
    \/ Unlock(c)
    \/ ReleasePart(c)
    \/ Return(c)

Next ==
    \/ \E c \in Clients : ClientNext(c)
    \/ Terminated

\* What a client does unprompted once called: Start and the faults are
\* not forced to happen.
Progress(c) ==
    \/ Enqueue(c)
    \/ Grant(c)
    \/ Abandon(c)
    \/ Unlock(c)
    \/ ReleasePart(c)
    \/ Return(c)

Spec == Init /\ [][Next]_vars
FairSpec == Spec /\ \A c \in Clients : WF_vars(Progress(c))

-----------------------------------------------------------------------------
\* Properties.

\* No lock has two holders.
MutualExclusion ==
    \A l \in Locks : \A c, d \in Clients : Holds(c, l) /\ Holds(d, l) => c = d

\* Every node in a queue is a part its client holds, or the part its
\* LockAll is waiting for.
NoOrphans ==
    \A l \in Locks : \A i \in DOMAIN queue[l] :
        LET c == queue[l][i][1] IN
        /\ queue[l][i] = Node(c)
        /\ \/ Holds(c, l)
           \/ pc[c] = "locking" /\ l = Pending(c)

\* LockAll returns a MultiLease only when every part holds; a failed
\* LockAll returns holding nothing and leaving no node.
AllOrNothing ==
    [][\A c \in Clients :
        /\ (pc[c] = "locking" /\ pc'[c] = "holding") =>
              (\A l \in Range(Wants(c)) : Holds(c, l))'
        /\ (pc[c] \in {"locking", "releasing"} /\ pc'[c] = "idle") =>
              (\A l \in Locks : ~Holds(c, l) /\ ~Queued(c, l))'
      ]_vars

\* Every LockAll call returns (with a MultiLease or an error).
InLockAll(c) == pc[c] \in {"locking", "releasing"}
LockAllReturns == \A c \in Clients : InLockAll(c) ~> ~InLockAll(c)

=============================================================================
