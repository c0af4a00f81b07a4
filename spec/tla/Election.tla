------------------------------ MODULE Election ------------------------------
(***************************************************************************)
(* Leader election on the lock (impl/zklock's election): candidates queue  *)
(* exactly as lock contenders do, the candidate that holds the lock leads, *)
(* and observers, processes that do not campaign, report who leads.        *)
(*                                                                         *)
(* The candidates are PredecessorLock's clients, their steps the lock's:  *)
(* PL below is an INSTANCE of the lock (through its NotifyIsGrant mutant,  *)
(* which EXTENDS it and adds only PredecessorGoneIsGrant) on this module's *)
(* constants and variables, and every candidate step is the lock's step of *)
(* the same name with this module's own variables unchanged.  Campaign is *)
(* the lock's acquisition, Resign is Release, the holder is the leader,    *)
(* and its epoch is the lock's fencing token: its node's czxid.            *)
(*                                                                         *)
(* What the module adds:                                                   *)
(*   value       the data of each lock node, as its version: the number   *)
(*               of Proclaims it took (a sequence indexed by seq + 1;      *)
(*               sequence numbers are never reused here)                  *)
(*   proclaimed  history: <<epoch, version>> of every Proclaim, written    *)
(*               by a leader with that epoch                              *)
(*   dataEvents  the candidates' data watches a Proclaim fired, delivered *)
(*               and not yet taken (NodeDataChanged events)                *)
(*   observers   opc, ohead, onext, orefresh, omark, report, known         *)
(*                                                                         *)
(* An observer's session may be lost (WithObserverLoss: ObserverSession-  *)
(* Lost, the observer stops for good), and otherwise stays live; an       *)
(* observer holds at most one watch, which it does not keep in the     *)
(* server's watches (their events go to the candidates' inboxes and name  *)
(* a candidate's request).  It need not: an observer's only step after its *)
(* watch fires is to list again, so the event's arrival is the change that *)
(* fires the watch, which the state shows: a data watch fires when its    *)
(* node is gone or its version moved (seqs are never reused, versions only *)
(* grow), a child watch armed on an empty parent when the sequence counter *)
(* moved (every create moves it, and every delete needs a create first).   *)
(* Fired(o) is that change.                                                *)
(*                                                                         *)
(* A Proclaim is a setData on the leader's node, which fires every data   *)
(* watch on it: the observers' (Fired) and the candidates' (the one behind *)
(* the leader watches it with getData, and with three or more the one two  *)
(* behind too, WatchSecond).  A candidate's fired watch is a              *)
(* NodeDataChanged event, not a deletion: the lock spec's events carry no  *)
(* type (its GrantOnHeadGone takes any event of its target for the         *)
(* target's deletion), so this module keeps these events apart, in         *)
(* dataEvents, where they can only wake their candidate to list again      *)
(* (DataChanged, the code's PredecessorGone).  The mutant HandOffSpec      *)
(* takes one for the hand-off (HandOffOnDataChange): two leaders.  (The    *)
(* events of dataEvents are not ordered with the inbox's: a candidate may  *)
(* take either first, which only adds interleavings; every event that     *)
(* wakes a candidate to list again is safe in any order.)                  *)
(*                                                                         *)
(* Sources: the ZooKeeper recipes page, "Leader Election" (candidates are  *)
(* sequential ephemeral nodes, the smallest leads, each watches the next   *)
(* smaller); ZooKeeper Programmer's Guide, "ZooKeeper Watches" (getData   *)
(* sets a data watch: setData and delete fire it; getChildren a child     *)
(* watch); the ZooKeeper Java API, ZooKeeper.multi and Op.check (a multi  *)
(* applies all its operations or none).                                    *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets

CONSTANTS
    Clients, MaxRequests, MaxSeq, MaxFaults, WithExpiry, WithReplyLoss, WithPause,
    WithCancel, Fencing, GrantRule, AsyncDelete,   \* PredecessorLock's, for the candidates
    Observers,      \* processes that report who leads and never campaign (model values)
    MaxProclaims,   \* bound on a node's value version: Proclaims per leader node
    WatchVacancy,   \* an observer that lists no candidate arms a child watch (FALSE: the mutant)
    LeadersResign,  \* fairness: a leader eventually resigns (StarvationFree needs it);
                    \* FALSE: a leader may lead forever (ObserversLearn's stronger case)
    HeadBySeq,      \* an observer takes the listed node of the smallest sequence number
                    \* for the head (FALSE: the mutant, any listed node)
    WithObserverLoss, \* an observer's session may be lost (ObserverSessionLost)
    NextOnDelete,   \* an observer advances to its listed successor only when its
                    \* head's node is gone (FALSE: the mutant, on any event of its watch)
    ReportFilter    \* an observer reports a head only if newer than the last it
                    \* reported (FALSE: the mutant, every read)

ASSUME MaxProclaims \in Nat
ASSUME {WatchVacancy, LeadersResign, HeadBySeq, WithObserverLoss, NextOnDelete, ReportFilter} \subseteq BOOLEAN

VARIABLES
    \* ---- PredecessorLock's (see there) ----
    nodes, nextSeq, zxid, live, watches, inbox,
    pc, sess, reqNo, node, target, second, soleBlocker, token, tenure, paused,
    faults, grants, lastToken, resHigh, resTenure, pending,
    \* ---- the leader's data ----
    value,      \* value[s + 1]: the version of node s's data (Proclaims it took)
    proclaimed, \* <<epoch, version>> of every Proclaim so far (history)
    dataEvents, \* NodeDataChanged events delivered to candidates, not yet taken:
                \* the records of the watches a Proclaim fired, [node, req]
    \* ---- observers ----
    opc,        \* the observer's control state: "list", "watch", "watching", "vacant",
                \* "lost" (its session lost: it has stopped for good)
    ohead,      \* seq of the head the observer reads or watches, NoNode if none
    onext,      \* the seqs its last listing showed after that head (its successors,
                \* read in turn as each head goes, without listing again); {} if none
    orefresh,   \* the head was read without a listing (after ObserveNext): list once
                \* more after the report, for the new head's successors (ObserveRefresh)
    omark,      \* "watching": the version it read; "vacant": nextSeq at its listing;
                \* NoWatch when no watch is armed
    report,     \* the observer's last report: <<epoch, version>>, or Vacancy
    known       \* the last head it reported, Vacancy before the first

PL == INSTANCE PredecessorLockNotifyIsGrant

\* The lock's variable groups (PredecessorLock's zkVars ... vars), spelled
\* out: TLC does not evaluate UNCHANGED lockVars (an instance's tuple of
\* variables) in this module's steps.
zkVars     == <<nodes, nextSeq, zxid, live, watches, inbox>>
clientVars == <<pc, sess, reqNo, node, target, second, soleBlocker, token, tenure, paused>>
histVars   == <<faults, grants, lastToken, resHigh, resTenure>>
lockVars   == <<zkVars, clientVars, histVars, pending>>
obsVars    == <<opc, ohead, onext, orefresh, omark, report, known>>
ownVars    == <<value, proclaimed, dataEvents, obsVars>>
vars       == <<lockVars, ownVars>>

NoNode  == PL!NoNode
NoWatch == -1          \* omark of an observer with no watch armed
Vacancy == <<0, 0>>    \* the report "nobody leads" (a czxid is at least 1)
OPCs    == {"list", "watch", "watching", "vacant", "lost"}

\* The version of node s's data; a leader report read from node n.
ValueOf(s) == value[s + 1]
Min(S) == CHOOSE x \in S : \A y \in S : x <= y
HeadSeq == Min({n.seq : n \in nodes})

(* What an observer reads from node n, the head of its listing: the        *)
(* candidate's epoch (its czxid) and its value's version, 0 before its     *)
(* first Proclaim (impl/zklock's observer reports the head as soon as it   *)
(* reads it, as Curator's LeaderLatch.getLeader and etcd's Observe do: the *)
(* head leads, or will once it lists the queue, unless it gives up first;  *)
(* no node can ever sort before it).                                       *)
Reading(n) == <<n.czxid, ValueOf(n.seq)>>

\* Report a is newer than b: a newer epoch, or the same with a newer version.
Newer(a, b) == a[1] > b[1] \/ (a[1] = b[1] /\ a[2] > b[2])

\* Who leads, as a read of the leader's server now would report it.
Truth == IF nodes = {} THEN Vacancy ELSE Reading(PL!ZK!NodeAt(HeadSeq))

-----------------------------------------------------------------------------
TypeOK ==
    /\ PL!TypeOK
    /\ value \in [1..MaxSeq -> 0..MaxProclaims]
    /\ proclaimed \subseteq Nat \X (1..MaxProclaims)
    /\ dataEvents \subseteq [node : 0..MaxSeq, req : Clients \X (1..MaxRequests)]
    /\ opc \in [Observers -> OPCs]
    /\ ohead \in [Observers -> 0..MaxSeq \cup {NoNode}]
    /\ onext \in [Observers -> SUBSET (0..MaxSeq)]
    /\ orefresh \in [Observers -> BOOLEAN]
    /\ omark \in [Observers -> Nat \cup {NoWatch}]
    /\ report \in [Observers -> Nat \X (0..MaxProclaims)]
    /\ known \in [Observers -> Nat \X (0..MaxProclaims)]

Init ==
    /\ PL!Init
    /\ value = [i \in 1..MaxSeq |-> 0]
    /\ proclaimed = {}
    /\ dataEvents = {}
    /\ opc = [o \in Observers |-> "list"]
    /\ ohead = [o \in Observers |-> NoNode]
    /\ onext = [o \in Observers |-> {}]
    /\ orefresh = [o \in Observers |-> FALSE]
    /\ omark = [o \in Observers |-> NoWatch]
    /\ report = [o \in Observers |-> Vacancy]
    /\ known = [o \in Observers |-> Vacancy]

-----------------------------------------------------------------------------
(***************************************************************************)
(* Candidate steps: the lock's (PredecessorLock.tla says what each         *)
(* models), this module's variables unchanged.  Campaign = RequestLock    *)
(* and the acquisition; Resign = Release; leading = pc "hold".             *)
(***************************************************************************)
Keep == UNCHANGED ownVars

RequestLock(c)            == PL!RequestLock(c) /\ Keep            \* Campaign called
CreateOk(c)               == PL!CreateOk(c) /\ Keep               \* candidate node created
CreateReplyLost(c)        == PL!CreateReplyLost(c) /\ Keep        \* its reply lost (a fault)
FindOwnNode(c)            == PL!FindOwnNode(c) /\ Keep            \* looked up by uuid
ListChildren(c)           == PL!ListChildren(c) /\ Keep           \* the queue listed
WatchSecond(c)            == PL!WatchSecond(c) /\ Keep            \* the node two ahead watched
WatchPredecessor(c)       == PL!WatchPredecessor(c) /\ Keep       \* the predecessor watched
PredecessorGone(c)        == PL!PredecessorGone(c) /\ Keep        \* woken: list again
GrantOnHeadGone(c)        == PL!GrantOnHeadGone(c) /\ Keep        \* the sole blocker gone
IgnoreNotification(c)     == PL!IgnoreNotification(c) /\ Keep     \* an old request's event
Grant(c)                  == PL!Grant(c) /\ Keep                  \* leads (epoch: its czxid)
Write(c)                  == PL!Write(c) /\ Keep                  \* the fenced resource written
Release(c)                == PL!Release(c) /\ Keep                \* Resign: its node deleted
Cancel(c)                 == PL!Cancel(c) /\ Keep                 \* Campaign's context ended
LearnExpiry(c)            == PL!LearnExpiry(c) /\ Keep            \* session lost
ExpireSession(s)          == PL!ExpireSession(s) /\ Keep          \* the server expires s
PauseClient(c)            == PL!PauseClient(c) /\ Keep            \* a process pause
ResumeClient(c)           == PL!ResumeClient(c) /\ Keep           \* the pause ends
DeleteLands(u)            == PL!DeleteLands(u) /\ Keep            \* a pending delete lands

(* MUTANT step (NotifySpec): a watch notification taken for leadership,    *)
(* the lock's PredecessorLockNotifyIsGrant.  The bug of an election that  *)
(* treats "my predecessor's node changed" as "I lead": when a candidate in *)
(* the middle of the queue resigns or cancels, the one behind it leads     *)
(* while the leader in front still does.                                   *)
PredecessorGoneIsGrant(c) == PL!PredecessorGoneIsGrant(c) /\ Keep

(* The leader publishes a new value: setData on its own node in one multi  *)
(* with check(own node), on its session (the ZooKeeper Java API,           *)
(* ZooKeeper.multi, Op.check: all or nothing).  The check fails when the   *)
(* node is gone, and then nothing is written: no step (on an expired       *)
(* session the call fails with SESSIONEXPIRED; LearnExpiry is the step).   *)
(* One write transaction: a zxid.  Every data watch on the node fires      *)
(* (Programmer's Guide, "ZooKeeper Watches": setData triggers the data     *)
(* watches on the node): the observers' (Fired: its version moved), and    *)
(* the candidates', which leave the server's watches and are delivered as  *)
(* NodeDataChanged events (dataEvents).  The history records the epoch and *)
(* version written.                                                        *)
Proclaim(c) ==
    /\ ~paused[c]
    /\ pc[c] = "hold"
    /\ PL!Live(c)
    /\ PL!OwnNodeExists(c)
    /\ ValueOf(node[c]) < MaxProclaims
    /\ LET fired == {w \in watches : w.node = node[c]}
       IN  /\ watches' = watches \ fired
           /\ dataEvents' = dataEvents \cup fired
    /\ value' = [value EXCEPT ![node[c] + 1] = @ + 1]
    /\ zxid' = zxid + 1
    /\ proclaimed' = proclaimed \cup {<<token[c], ValueOf(node[c]) + 1>>}
    /\ UNCHANGED <<nodes, nextSeq, live, inbox, pending, clientVars, histVars,
                   obsVars>>

(* A NodeDataChanged event of candidate c's current request while it waits *)
(* (its predecessor, or the node two ahead, proclaimed): impl/zklock's     *)
(* contender takes only NodeDeleted as the hand-off, and any other wake-up *)
(* lists again, as PredecessorGone (the lock's step, whose event is a      *)
(* deletion) does: its target and second forgotten.                        *)
(* The next of them is the one of the smallest node: Proclaims fire in    *)
(* the order leaders lead, which is the queue's.                           *)
DataEventFor(c) == {e \in dataEvents : e.req = PL!Uuid(c)}
NextDataEvent(c) == CHOOSE e \in DataEventFor(c) : \A f \in DataEventFor(c) : e.node <= f.node
Woken(c) ==
    /\ ~paused[c]
    /\ pc[c] = "wait"
    /\ DataEventFor(c) # {}
    /\ dataEvents' = dataEvents \ {NextDataEvent(c)}
    /\ target' = [target EXCEPT ![c] = NoNode]
    /\ second' = [second EXCEPT ![c] = NoNode]
    /\ soleBlocker' = [soleBlocker EXCEPT ![c] = FALSE]
    /\ UNCHANGED <<zkVars, sess, reqNo, node, token, tenure, paused, histVars, pending,
                   value, proclaimed, obsVars>>
DataChanged(c) == Woken(c) /\ pc' = [pc EXCEPT ![c] = "list"]

(* Internal: NodeDataChanged events for requests the candidate no longer   *)
(* waits on (a watch of a cancelled or granted request, or of an earlier   *)
(* session): dropped, as IgnoreNotification drops a deletion's (all of     *)
(* them in one step: none changes anything).                               *)
StaleDataEvents(c) ==
    {e \in dataEvents : e.req[1] = c /\ ~(e.req = PL!Uuid(c) /\ pc[c] = "wait")}
IgnoreDataChange(c) ==
    /\ ~paused[c]
    /\ StaleDataEvents(c) # {}
    /\ dataEvents' = dataEvents \ StaleDataEvents(c)
    /\ UNCHANGED <<lockVars, value, proclaimed, obsVars>>

(* MUTANT step (HandOffSpec, in place of DataChanged): the hand-off that   *)
(* does not look at the event's type.  A NodeDataChanged event of the      *)
(* target that was alone before the candidate is taken as its deletion     *)
(* (GrantOnHeadGone's rule without impl/zklock's ev.Type ==                 *)
(* zk.EventNodeDeleted check); any other one lists again.  The leader's    *)
(* first Proclaim makes the candidate behind it lead beside it.            *)
HandOffOnDataChange(c) ==
    /\ Woken(c)
    /\ pc' = [pc EXCEPT ![c] = IF NextDataEvent(c).node = target[c] /\ soleBlocker[c]
                               THEN "grant" ELSE "list"]

(* MUTANT step (KeepSpec, in place of Release): Resign that leaves its     *)
(* node.  The leader stops leading locally but its delete is never sent   *)
(* (an error of the delete swallowed, or Resign that only closes the      *)
(* local state): the node stays at the head of the queue while the        *)
(* session lives, and the candidate behind it never leads.                 *)
ResignKeepNode(c) ==
    /\ ~paused[c]
    /\ pc[c] = "hold"
    /\ PL!Live(c)
    /\ PL!Idle(c)
    /\ UNCHANGED <<zkVars, sess, reqNo, paused, histVars, pending, ownVars>>

-----------------------------------------------------------------------------
(***************************************************************************)
(* Observer steps.                                                         *)
(***************************************************************************)

(* getChildren(<election>) without a watch.  Candidates queued: the head   *)
(* (smallest seq) is the one to read next (with HeadBySeq = FALSE, the     *)
(* mutant, any listed node: the bug of an observer that sorts the listing  *)
(* by the whole name, whose protection prefix (a random uuid) comes before *)
(* the sequence number), and the nodes listed after it are its successors *)
(* (onext, read in turn by ObserveNext).  None: nobody leads; report the  *)
(* vacancy and arm a child watch on the parent instead (getChildren        *)
(* with the watch flag; the spec's one step stands for the re-read that    *)
(* sets it, equivalent while the parent stays empty and otherwise the      *)
(* watch fires at once).  With WatchVacancy = FALSE (the mutant) no watch *)
(* is armed: the observer waits for an event that never comes.             *)
ObserveList(o) ==
    /\ opc[o] = "list"
    /\ IF nodes = {}
       THEN /\ opc' = [opc EXCEPT ![o] = "vacant"]
            /\ omark' = [omark EXCEPT ![o] = IF WatchVacancy THEN nextSeq ELSE NoWatch]
            /\ report' = [report EXCEPT ![o] = Vacancy]
            /\ UNCHANGED <<ohead, onext>>
       ELSE /\ opc' = [opc EXCEPT ![o] = "watch"]
            /\ \E h \in IF HeadBySeq THEN {HeadSeq} ELSE {n.seq : n \in nodes} :
                  /\ ohead' = [ohead EXCEPT ![o] = h]
                  /\ onext' = [onext EXCEPT ![o] = {n.seq : n \in {m \in nodes : m.seq > h}}]
            /\ UNCHANGED <<omark, report>>
    /\ UNCHANGED <<lockVars, value, proclaimed, dataEvents, known, orefresh>>

(* getData(<head>, watch=true): the read and the data watch in one server  *)
(* step.  The node exists: the watch is armed on it, and the observer      *)
(* reports what it read (Reading: the head's epoch and version, 0 before   *)
(* it proclaims) if it is newer than the last head it reported (the       *)
(* code's monotonic filter; with ReportFilter = FALSE, the mutant, every   *)
(* read); a report equal to the last changes nothing.  NoNode: no watch;   *)
(* list again.  (The filter matters once reads may be stale: the read     *)
(* after ObserveNext may come from a server, reached by a reconnection,   *)
(* that has not yet applied the deletion that woke the observer, since a  *)
(* notification raises no session's zxid; a later listing there may show *)
(* the old head again, ElectionStaleReads.NoFilter.)                       *)
ObserveWatch(o) ==
    /\ opc[o] = "watch"
    /\ IF PL!ZK!NodeExists(ohead[o])
       THEN LET r    == Reading(PL!ZK!NodeAt(ohead[o]))
                send == ~ReportFilter \/ Newer(r, known[o])
            IN  /\ opc' = [opc EXCEPT ![o] = "watching"]
                /\ omark' = [omark EXCEPT ![o] = ValueOf(ohead[o])]
                /\ report' = [report EXCEPT ![o] = IF send THEN r ELSE @]
                /\ known' = [known EXCEPT ![o] = IF send THEN r ELSE @]
                /\ UNCHANGED <<ohead, onext, orefresh>>
       ELSE /\ opc' = [opc EXCEPT ![o] = "list"]
            /\ ohead' = [ohead EXCEPT ![o] = NoNode]
            /\ onext' = [onext EXCEPT ![o] = {}]
            /\ orefresh' = [orefresh EXCEPT ![o] = FALSE]
            /\ UNCHANGED <<omark, report, known>>
    /\ UNCHANGED <<lockVars, value, proclaimed, dataEvents>>

(* The observer's armed watch has fired: a data watch when its node was    *)
(* deleted (NodeDeleted) or written (NodeDataChanged), the child watch of *)
(* a vacancy when a candidate's node was created (NodeChildrenChanged).    *)
\* (An IF, not ~NodeExists \/ ValueOf # omark: TLC makes one successor per
\* true disjunct of a guard, and a node written and then deleted makes both
\* true.)
Fired(o) ==
    CASE opc[o] = "watching" -> IF PL!ZK!NodeExists(ohead[o]) THEN ValueOf(ohead[o]) # omark[o] ELSE TRUE
      [] opc[o] = "vacant"   -> omark[o] # NoWatch /\ nextSeq # omark[o]
      [] OTHER               -> FALSE

(* The observer takes the event of its watch and lists again (an           *)
(* implementation may re-read the node it watched first: the same reports, *)
(* since a listing that finds that node at the head reads it next).  This  *)
(* is the step for every event but the head's NodeDeleted with a          *)
(* successor listed (ObserveNext), and for that one too when the code      *)
(* took it as another (a NodeDataChanged delivered before the deletion).   *)
ObserveNotified(o) ==
    /\ Fired(o)
    /\ opc' = [opc EXCEPT ![o] = "list"]
    /\ ohead' = [ohead EXCEPT ![o] = NoNode]
    /\ onext' = [onext EXCEPT ![o] = {}]
    /\ orefresh' = [orefresh EXCEPT ![o] = FALSE]
    /\ omark' = [omark EXCEPT ![o] = NoWatch]
    /\ UNCHANGED <<lockVars, value, proclaimed, dataEvents, report, known>>

(* The head's node is gone (its watch's NodeDeleted) and the last listing  *)
(* showed a node after it: the first of those is read next, without       *)
(* listing again (one read from the deletion to the next report, not two). *)
(* If it still stands it is the head: every node that sorted before it in *)
(* the listing is gone (the head by this event, the ones between by       *)
(* earlier steps of the same kind, or they were never there), and no node *)
(* made later can sort before it (sequence numbers only grow).  If it is  *)
(* gone, ObserveWatch's NoNode lists again.  Its own successors, which    *)
(* may have queued since the listing, it learns after its report          *)
(* (orefresh, ObserveRefresh).  With NextOnDelete = FALSE                 *)
(* (the mutant) the observer advances on any event of its watch, a         *)
(* NodeDataChanged from the leader's Proclaim too: it reports the next     *)
(* candidate while the leader's node stands before it.                     *)
ObserveNext(o) ==
    /\ Fired(o)
    /\ opc[o] = "watching"
    /\ onext[o] # {}
    /\ NextOnDelete => ~PL!ZK!NodeExists(ohead[o])
    /\ opc' = [opc EXCEPT ![o] = "watch"]
    /\ ohead' = [ohead EXCEPT ![o] = Min(onext[o])]
    /\ onext' = [onext EXCEPT ![o] = onext[o] \ {Min(onext[o])}]
    /\ orefresh' = [orefresh EXCEPT ![o] = TRUE]
    /\ omark' = [omark EXCEPT ![o] = NoWatch]
    /\ UNCHANGED <<lockVars, value, proclaimed, dataEvents, report, known>>

(* getChildren(<election>) without a watch, once, while the observer      *)
(* watches a head it read without a listing (after ObserveNext, and after *)
(* its report: off the path from the deletion to the report): the nodes   *)
(* listed after that head are its successors.  Sound for the same reason  *)
(* as ObserveNext: a node listed after the head has no node before it but *)
(* the head and nodes gone by the listing, and no node made later sorts   *)
(* before it.  (If the head is gone by the listing, its watch has fired;  *)
(* the listing's nodes after it are still its successors.)                *)
ObserveRefresh(o) ==
    /\ opc[o] = "watching"
    /\ orefresh[o]
    /\ onext' = [onext EXCEPT ![o] = {n.seq : n \in {m \in nodes : m.seq > ohead[o]}}]
    /\ orefresh' = [orefresh EXCEPT ![o] = FALSE]
    /\ UNCHANGED <<lockVars, value, proclaimed, dataEvents, opc, ohead, omark, report, known>>

(* The observer's session is lost (WithObserverLoss; a fault, so no        *)
(* fairness): impl/zklock's observation ends for good, its channel closed *)
(* with the session's error readable via Err.  It takes no more steps and *)
(* makes no more reports; what it held is dropped (the head it read, its  *)
(* watch, which ZooKeeper drops with the session); its last report stays  *)
(* the last the receiver saw.  Connection loss alone, with the session    *)
(* live, is not this step: the code retries a failed call (a read lost to *)
(* the connection backs off and lists again, a watch survives the         *)
(* reconnection), which the steps above cover but for the read of a node  *)
(* that still exists given up to list again (not modeled: it reports     *)
(* nothing and only delays the read).                                     *)
ObserverSessionLost(o) ==
    /\ WithObserverLoss
    /\ opc[o] # "lost"
    /\ opc' = [opc EXCEPT ![o] = "lost"]
    /\ ohead' = [ohead EXCEPT ![o] = NoNode]
    /\ onext' = [onext EXCEPT ![o] = {}]
    /\ orefresh' = [orefresh EXCEPT ![o] = FALSE]
    /\ omark' = [omark EXCEPT ![o] = NoWatch]
    /\ UNCHANGED <<lockVars, value, proclaimed, dataEvents, report, known>>

-----------------------------------------------------------------------------
CandidateNext(c) ==
    \/ RequestLock(c)
    \/ CreateOk(c)
    \/ CreateReplyLost(c)
    \/ FindOwnNode(c)
    \/ ListChildren(c)
    \/ WatchSecond(c)
    \/ WatchPredecessor(c)
    \/ PredecessorGone(c)
    \/ GrantOnHeadGone(c)
    \/ DataChanged(c)
    \/ IgnoreNotification(c)
    \/ IgnoreDataChange(c)
    \/ Grant(c)
    \/ Write(c)
    \/ Release(c)
    \/ Cancel(c)
    \/ LearnExpiry(c)

\* CandidateNext with HandOffOnDataChange in place of DataChanged.
HandOffCandidateNext(c) ==
    \/ RequestLock(c)
    \/ CreateOk(c)
    \/ CreateReplyLost(c)
    \/ FindOwnNode(c)
    \/ ListChildren(c)
    \/ WatchSecond(c)
    \/ WatchPredecessor(c)
    \/ PredecessorGone(c)
    \/ GrantOnHeadGone(c)
    \/ HandOffOnDataChange(c)
    \/ IgnoreNotification(c)
    \/ IgnoreDataChange(c)
    \/ Grant(c)
    \/ Write(c)
    \/ Release(c)
    \/ Cancel(c)
    \/ LearnExpiry(c)

\* The lock's NotifyClientNext: PredecessorGoneIsGrant replaces
\* PredecessorGone and GrantOnHeadGone (data events still only list again).
NotifyCandidateNext(c) ==
    \/ RequestLock(c)
    \/ CreateOk(c)
    \/ CreateReplyLost(c)
    \/ FindOwnNode(c)
    \/ ListChildren(c)
    \/ WatchSecond(c)
    \/ WatchPredecessor(c)
    \/ PredecessorGoneIsGrant(c)
    \/ DataChanged(c)
    \/ IgnoreNotification(c)
    \/ IgnoreDataChange(c)
    \/ Grant(c)
    \/ Write(c)
    \/ Release(c)
    \/ Cancel(c)
    \/ LearnExpiry(c)

\* CandidateNext with ResignKeepNode in place of Release.
KeepCandidateNext(c) ==
    \/ RequestLock(c)
    \/ CreateOk(c)
    \/ CreateReplyLost(c)
    \/ FindOwnNode(c)
    \/ ListChildren(c)
    \/ WatchSecond(c)
    \/ WatchPredecessor(c)
    \/ PredecessorGone(c)
    \/ GrantOnHeadGone(c)
    \/ DataChanged(c)
    \/ IgnoreNotification(c)
    \/ IgnoreDataChange(c)
    \/ Grant(c)
    \/ Write(c)
    \/ ResignKeepNode(c)
    \/ Cancel(c)
    \/ LearnExpiry(c)

EnvNext ==
    \/ \E s \in PL!Sessions : ExpireSession(s)
    \/ \E c \in Clients : PauseClient(c) \/ ResumeClient(c)
    \/ \E u \in Clients \X (1..MaxRequests) : DeleteLands(u)

Observe(o) == ObserveList(o) \/ ObserveWatch(o) \/ ObserveNotified(o) \/ ObserveNext(o) \/ ObserveRefresh(o)

OwnNext ==
    \/ \E c \in Clients : Proclaim(c)
    \/ \E o \in Observers : Observe(o) \/ ObserverSessionLost(o)

Next       == (\E c \in Clients : CandidateNext(c)) \/ EnvNext \/ OwnNext
NotifyNext == (\E c \in Clients : NotifyCandidateNext(c)) \/ EnvNext \/ OwnNext
KeepNext   == (\E c \in Clients : KeepCandidateNext(c)) \/ EnvNext \/ OwnNext
HandOffNext == (\E c \in Clients : HandOffCandidateNext(c)) \/ EnvNext \/ OwnNext

Spec       == Init /\ [][Next]_vars
NotifySpec == Init /\ [][NotifyNext]_vars   \* mutant: must fail AtMostOneLeader
KeepSpec   == Init /\ [][KeepNext]_vars
HandOffSpec == Init /\ [][HandOffNext]_vars \* mutant: must fail AtMostOneLeader

(***************************************************************************)
(* Fairness: the lock's (a candidate keeps taking the steps of its         *)
(* campaign, and with LeadersResign its leader eventually resigns; pauses *)
(* end; abandoned sessions expire; pending deletes land), and every        *)
(* observer keeps taking its steps.  Proclaim is the leader's choice: no   *)
(* fairness.  Without LeadersResign a leader may lead forever: under the   *)
(* lock's fairness every leader resigns, so the last truth is always a     *)
(* vacancy, which an observer that stopped watching reports too.           *)
(***************************************************************************)
Progress(c) ==
    \/ CreateOk(c) \/ CreateReplyLost(c) \/ FindOwnNode(c) \/ ListChildren(c)
    \/ WatchSecond(c) \/ WatchPredecessor(c) \/ PredecessorGone(c) \/ GrantOnHeadGone(c)
    \/ DataChanged(c) \/ IgnoreNotification(c) \/ IgnoreDataChange(c) \/ Grant(c)
    \/ (LeadersResign /\ Release(c)) \/ LearnExpiry(c)

KeepProgress(c) ==
    \/ CreateOk(c) \/ CreateReplyLost(c) \/ FindOwnNode(c) \/ ListChildren(c)
    \/ WatchSecond(c) \/ WatchPredecessor(c) \/ PredecessorGone(c) \/ GrantOnHeadGone(c)
    \/ DataChanged(c) \/ IgnoreNotification(c) \/ IgnoreDataChange(c) \/ Grant(c)
    \/ (LeadersResign /\ ResignKeepNode(c))
    \/ LearnExpiry(c)

OtherFairness ==
    /\ \A c \in Clients : WF_vars(ResumeClient(c))
    /\ WF_vars(\E s \in PL!Sessions : PL!Abandoned(s) /\ ExpireSession(s))
    /\ \A c \in Clients : WF_vars(\E r \in 1..MaxRequests : DeleteLands(<<c, r>>))
    /\ \A o \in Observers : WF_vars(Observe(o))

FairSpec     == Spec /\ (\A c \in Clients : WF_vars(Progress(c))) /\ OtherFairness
KeepFairSpec == KeepSpec /\ (\A c \in Clients : WF_vars(KeepProgress(c))) /\ OtherFairness

-----------------------------------------------------------------------------
(***************************************************************************)
(* Properties.                                                             *)
(***************************************************************************)

\* At most one candidate leads while its node stands: the lock's
\* MutualExclusion.
AtMostOneLeader == PL!MutualExclusion

\* With pauses a deposed leader may still believe it leads; what stays
\* safe is the resource it writes with its epoch: it accepts no write of an
\* older leadership after a newer one's.  (The lock's FencedSafety, stated
\* here rather than through PL! so that TLC names a violation after this
\* module's property.)
FencedLeadership == [][resTenure' >= resTenure]_resTenure

\* No candidate's node is watched by more than its successor and the one
\* after (the lock's NoHerd): a resignation wakes one candidate, not all.
NoHerd == PL!NoHerd

\* The last candidate an observer reported (its epoch is its node's czxid,
\* which no other node has) is gone, or no candidate's node is before it:
\* it leads, or will once it lists the queue unless it gives up first.
\* True of a node read at the head of a listing because sequence numbers
\* only grow: no node created later sorts before it.
ObservedIsHead ==
    \A o \in Observers : \A n \in nodes :
        (known[o] # Vacancy /\ n.czxid = known[o][1]) => n.seq = HeadSeq

\* Reports only move forward: each head an observer reports has a newer
\* epoch than the last head it reported, or the same epoch with a newer
\* value version (vacancies in between are allowed).
ObservedEpochsIncrease ==
    [][\A o \in Observers :
         (report'[o] # report[o] /\ report'[o] # Vacancy) => Newer(report'[o], known[o])]_vars

\* Liveness (FairSpec): once who leads (or the vacancy) stays put, every
\* live observer comes to report it, or loses its session (a lost one
\* never learns).  (The leader, the queue and the versions change finitely
\* often here, so this is that promise.)  Checked with LeadersResign = FALSE
\* too, where a leader may stay for good.  Without WithObserverLoss no
\* observer is lost and this is the promise for every observer.
Lost(o) == opc[o] = "lost"
ObserversLearn ==
    \A o \in Observers : (report[o] # Truth /\ ~Lost(o)) ~> (report[o] = Truth \/ Lost(o))

\* ObserversLearn without the guard, for every observer, lost or not: fails
\* once an observer's session is lost and the leader changes after
\* (Election.ObserverLossLearnsAll, must fail).
ObserversLearnEvenLost == \A o \in Observers : (report[o] # Truth) ~> (report[o] = Truth)

\* Liveness (FairSpec with LeadersResign, no faults): every campaign leads
\* (the lock's).
StarvationFree == PL!StarvationFree

\* The lock's other invariants, under their names.
NoOrphans == PL!NoOrphans
KnownNodeExists == PL!KnownNodeExists

=============================================================================
