------------------------------ MODULE KazooQueue ------------------------------
(***************************************************************************)
(* One lock path shared by zklock's clients and kazoo's (the Python       *)
(* client: Lock and WriteLock name their nodes <hex>__lock__<seq>,        *)
(* ReadLock <hex>__rlock__<seq>).  Does zklock need another protocol to   *)
(* share a lock with kazoo, or only a wider set of names it counts?       *)
(*                                                                         *)
(* The two rules of who waits for whom are one rule: every node is a      *)
(* reader's or an exclusive one (zklock's Mutex and RWMutex writer,       *)
(* Curator's lock- and __WRIT__, kazoo's __lock__); a reader waits for    *)
(* every exclusive node with a lower sequence number, anyone else for     *)
(* every node with a lower one (impl/zklock decide; kazoo's               *)
(* _get_predecessor, whose contenders of a ReadLock are the __lock__      *)
(* names, of a Lock or WriteLock all of them).  A client holds when       *)
(* nothing it counts is ahead of it.  The sequence number is the          *)
(* server's, one counter for every sequential child of the path, so the   *)
(* order is the same whoever made the node.  Nothing else changes: the    *)
(* protocol's steps (the listing, the watch, the hand-off, lost replies,  *)
(* the loss timer) are SharedLock.tla's, which takes a stranger's counted *)
(* node for a client that holds or waits as it likes.  So this module     *)
(* abstracts each client's listing, decision and grant to one step        *)
(* (Grant) and asks only whether the union of the two name sets, counted  *)
(* by both sides, keeps the invariant; it is the same ordering rule as    *)
(* Curator's, sequence-suffix order.                                      *)
(*                                                                         *)
(* CountKazoo TRUE: zklock counts kazoo's names (impl/zklock parseNode).  *)
(* CountKazoo FALSE: zklock takes them for strangers and ignores them     *)
(* (impl/zklock before issue 35; the mutant ignore-kazoo-nodes): a zklock *)
(* client holds beside a kazoo holder.  kazoo counts zklock's names       *)
(* (Curator's) when given them as extra_lock_patterns, which this module  *)
(* assumes: without them kazoo would be the one to grant twice, and no    *)
(* zklock change could prevent that.                                      *)
(*                                                                         *)
(* Clients 1..ZReaders are zklock readers, then ZWriters zklock writers,  *)
(* KReaders kazoo ReadLocks and KWriters kazoo Locks or WriteLocks; one   *)
(* request each.  model/kazooqueue is its Go mirror: keep them in step.   *)
(***************************************************************************)
EXTENDS Naturals

CONSTANTS
    ZReaders,    \* zklock RWMutex.RLock clients
    ZWriters,    \* zklock Mutex.Lock or RWMutex.Lock clients
    KReaders,    \* kazoo ReadLock clients
    KWriters,    \* kazoo Lock or WriteLock clients
    CountKazoo   \* TRUE (impl/zklock): zklock counts kazoo's node names

ASSUME /\ {ZReaders, ZWriters, KReaders, KWriters} \subseteq Nat
       /\ CountKazoo \in BOOLEAN

N == ZReaders + ZWriters + KReaders + KWriters
Clients == 1..N

IsKazoo(c) == c > ZReaders + ZWriters
IsReader(c) == c <= ZReaders \/ (IsKazoo(c) /\ c <= ZReaders + ZWriters + KReaders)

VARIABLES
    pc,      \* "idle", "waiting" (its node made), "holding", "done" (released)
    node,    \* node[c]: the sequence number of c's node, 0 when it has none
    next     \* the parent's sequence counter: the next node's number

vars == <<pc, node, next>>

\* Client c counts d's node: kazoo counts every name it is given (zklock's
\* as extra_lock_patterns); zklock counts its own and, if CountKazoo,
\* kazoo's.
Counts(c, d) == IsKazoo(c) \/ ~IsKazoo(d) \/ CountKazoo

\* The nodes c waits for: counted, ahead of c's, and in conflict with c.
Blocks(c, d) ==
    /\ d # c
    /\ node[d] # 0
    /\ node[d] < node[c]
    /\ Counts(c, d)
    /\ ~(IsReader(c) /\ IsReader(d))

TypeOK ==
    /\ pc \in [Clients -> {"idle", "waiting", "holding", "done"}]
    /\ node \in [Clients -> 0..N]
    /\ next \in 1..(N + 1)

Init ==
    /\ pc = [c \in Clients |-> "idle"]
    /\ node = [c \in Clients |-> 0]
    /\ next = 1

\* The sequential create of c's node.
Enqueue(c) ==
    /\ pc[c] = "idle"
    /\ node' = [node EXCEPT ![c] = next]
    /\ next' = next + 1
    /\ pc' = [pc EXCEPT ![c] = "waiting"]

\* c lists the path and finds nothing it counts in its way.
Grant(c) ==
    /\ pc[c] = "waiting"
    /\ \A d \in Clients : ~Blocks(c, d)
    /\ pc' = [pc EXCEPT ![c] = "holding"]
    /\ UNCHANGED <<node, next>>

\* c releases: its node is deleted.
Release(c) ==
    /\ pc[c] = "holding"
    /\ node' = [node EXCEPT ![c] = 0]
    /\ pc' = [pc EXCEPT ![c] = "done"]
    /\ UNCHANGED next

Next == \E c \in Clients : Enqueue(c) \/ Grant(c) \/ Release(c)

Spec == Init /\ [][Next]_vars

\* Never a holder beside an exclusive holder, whichever library each uses.
MutualExclusion ==
    \A c, d \in Clients :
        (c # d /\ pc[c] = "holding" /\ pc[d] = "holding") => (IsReader(c) /\ IsReader(d))

\* Readers of the two libraries do share: a control that must fail.
ReadersNeverShare ==
    \A c, d \in Clients :
        (c # d /\ pc[c] = "holding" /\ pc[d] = "holding") => FALSE
===============================================================================
