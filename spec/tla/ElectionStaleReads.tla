------------------------- MODULE ElectionStaleReads -------------------------
(***************************************************************************)
(* Election with its observers' reads answered by a server that lags       *)
(* behind the leader: the stale-read variant of the election's observers.  *)
(* It EXTENDS Election and INSTANCEs ZooKeeperReplicas (ZR below: hist,    *)
(* seen, Readable, Read; it says what it models and abstracts: one         *)
(* snapshot per write step, the sessions the leader's, no sync), with the  *)
(* observers as its clients.  Every step is Election's step of the same    *)
(* name plus the read view's part, named as the lock recipes' stale        *)
(* modules name theirs (PredecessorLockStaleReads): "L" before a step that *)
(* reads no snapshot (LRequestLock, LProclaim, LObserveNotified, ...),     *)
(* "Stale" before a read (StaleObserveList, StaleObserveWatch).            *)
(* StaleReads itself is not INSTANCEd: its parts are a lock client's       *)
(* (pc, sess, reqNo, node, paused; Written raises the writer's seen), and  *)
(* an observer writes nothing: its reads are ZR!Read, every other step is  *)
(* logged (Logged, StaleReads' Unlogged and Written without the seen).     *)
(*                                                                         *)
(* WHAT IT MODELS.  An observer's session is connected to some server that *)
(* has applied a prefix of the leader's log; its getChildren (ObserveList) *)
(* and its getData (ObserveWatch) are answered from the snapshot of any   *)
(* write step v in ZR!Readable(o): at or after the highest zxid it has    *)
(* seen (SessionOrder: ZooKeeper's single system image, "Consistency      *)
(* Guarantees" in the Programmer's Guide: a client never sees an older     *)
(* view, even after it fails over to another server), and the read raises *)
(* its seen to v (ZR!Read).  Each read is Election's own step evaluated on *)
(* the snapshot: Snap(v), Election instanced with the leader's state as    *)
(* of v.                                                                   *)
(*                                                                         *)
(* THE DATA.  ZR's hist logs node sets only; an observer's reads also see  *)
(* what Proclaim writes (value: getData answers the version as of the      *)
(* snapshot) and, when the listing is empty, the parent's sequence counter *)
(* (nextSeq: the child watch it arms fires on the next create after the    *)
(* snapshot, ObserveList's omark).  dhist, beside hist, logs both:         *)
(* dhist[z] = <<value, nextSeq>> after the write step whose last zxid is   *)
(* z, written by the same rule as hist (LogData: a step that advances zxid *)
(* logs; no other step changes either).  Proclaim is a write step (one     *)
(* multi, one zxid), so it logs a snapshot whose nodes are the previous    *)
(* one's and whose value is new.                                           *)
(*                                                                         *)
(* WHAT IT ABSTRACTS, AND WHY IT IS CONSERVATIVE.                          *)
(*   - the candidates read the leader, as in Election (their steps are     *)
(*     Election's, logged): the candidates' safety under stale reads is    *)
(*     PredecessorLockStaleReads'; here the observers' reports are checked *)
(*     against a leader whose queue is exact, and the candidates' seen is *)
(*     not kept (ZR's clients are the observers);                         *)
(*   - an observer's watch fires on the leader's state (Election's Fired,  *)
(*     unchanged): a watch armed on a lagging server fires when that       *)
(*     server applies the change, which it will, and the observer takes   *)
(*     the event when it chooses (ZR!ArmAt's reasoning): a change the      *)
(*     leader made before the read fires the watch at once;                *)
(*   - a watch event raises no seen, and every snapshot at or after seen   *)
(*     is readable whatever server the session was on (ZR's choices): more *)
(*     behaviours than ZooKeeper has, so the safety shown here holds.      *)
(*   - no observer fault, no sync, HeadBySeq only (ASSUME: the mutant's    *)
(*     any-node listing is Election's).                                    *)
(*                                                                         *)
(* THE PROPERTIES.  ObservedIsHead still holds when the listing is stale,  *)
(* even without SessionOrder: a node the leader still has that sorts       *)
(* before the head h of snapshot v was created before h (sequence numbers  *)
(* grow), so before v, and was not deleted by v (a node never comes       *)
(* back): it is in hist[v], before h, a contradiction.  So Election's      *)
(* invariant is checked as it is.  ObservedEpochsIncrease holds with       *)
(* SessionOrder (reads at or after seen: versions only grow, and a node    *)
(* gone from a snapshot is gone from every later one) and fails without    *)
(* it (NoSessionOrder: a read from an older snapshot than one the observer *)
(* already saw reports a stale head, or a stale version, after a newer    *)
(* one).                                                                   *)
(***************************************************************************)
EXTENDS Election, TLC

CONSTANTS
    SessionOrder    \* an observer's read is answered from a snapshot >= seen[o]
ASSUME SessionOrder \in BOOLEAN
ASSUME HeadBySeq    \* the stale listing's head is the smallest seq (the mutant is Election's)
ASSUME ~WithObserverLoss \* no observer fault (ObserverSessionLost is Election's)

VARIABLES
    hist,   \* the leader's log of node sets, per write step (ZR)
    seen,   \* per observer, the highest zxid it has seen (ZR)
    dhist   \* dhist[z]: <<value, nextSeq>> after the write step whose last zxid is z

staleVars == <<hist, seen, dhist>>
allVars   == <<vars, staleVars>>

(* ZR's names for the candidates' node records: PredecessorLock's.         *)
Name(n) == PL!Name(n)
NameLess(a, b) == PL!NameLess(a, b)
Parent == PL!Parent

(* The read view, its clients the observers; no duplicates (observers      *)
(* create nothing).                                                        *)
ZR == INSTANCE ZooKeeperReplicas
        WITH Clients <- Observers, dupes <- {}, DeleteDuplicates <- FALSE

(* Election's steps evaluated on snapshot v: the node set, the values and  *)
(* the sequence counter as of v; every other variable is the same         *)
(* (Snap(v)!ObserveWatch(o)).                                              *)
Snap(v) == INSTANCE Election WITH nodes <- hist[v], value <- dhist[v][1], nextSeq <- dhist[v][2]

StaleTypeOK ==
    /\ TypeOK
    /\ ZR!TypeOK
    /\ DOMAIN dhist = DOMAIN hist
    /\ dhist[zxid] = <<value, nextSeq>>

StaleInit == Init /\ ZR!Init /\ dhist = (0 :> <<value, nextSeq>>)

-----------------------------------------------------------------------------
(* Parts of a step.                                                        *)

(* A step that reads no snapshot: what it wrote (if it advanced zxid) is   *)
(* logged, in hist (ZR!Log) and in dhist; no observer's seen changes (the  *)
(* candidates' writes raise the candidates' lastZxid, which is not kept:   *)
(* they read the leader).                                                  *)
LogData == dhist' = IF zxid' = zxid THEN dhist ELSE dhist @@ (zxid' :> <<value', nextSeq'>>)
Logged == ZR!Log /\ LogData /\ UNCHANGED seen

(* A read of observer o answered from snapshot v: ZR!Read (hist' = hist,   *)
(* seen[o] = v) and dhist' = dhist first, so that the Election step on     *)
(* Snap(v) finds its UNCHANGED nodes, value and nextSeq checks on the      *)
(* snapshot, not assignments; the leader's own are unchanged.              *)
ReadAt(o, v) == ZR!Read(o, v) /\ UNCHANGED dhist
LeaderUnchanged == UNCHANGED <<nodes, nextSeq, value>>

-----------------------------------------------------------------------------
(***************************************************************************)
(* Candidate steps: Election's (the lock's, and its own DataChanged,       *)
(* IgnoreDataChange and Proclaim; Election.tla says what each models),     *)
(* logged.  Only Proclaim and the lock's writes advance zxid.              *)
(***************************************************************************)
LRequestLock(c)        == RequestLock(c) /\ Logged          \* Campaign called
LCreateOk(c)           == CreateOk(c) /\ Logged             \* candidate node created
LCreateReplyLost(c)    == CreateReplyLost(c) /\ Logged      \* created, its reply lost (a fault)
LFindOwnNode(c)        == FindOwnNode(c) /\ Logged          \* looked up by uuid
LListChildren(c)       == ListChildren(c) /\ Logged         \* the queue listed (at the leader)
LWatchSecond(c)        == WatchSecond(c) /\ Logged          \* the node two ahead watched
LWatchPredecessor(c)   == WatchPredecessor(c) /\ Logged     \* the predecessor watched
LPredecessorGone(c)    == PredecessorGone(c) /\ Logged      \* woken: list again
LGrantOnHeadGone(c)    == GrantOnHeadGone(c) /\ Logged      \* the sole blocker gone
LIgnoreNotification(c) == IgnoreNotification(c) /\ Logged   \* an old request's event
LGrant(c)              == Grant(c) /\ Logged                \* leads (epoch: its czxid)
LWrite(c)              == Write(c) /\ Logged                \* the fenced resource written
LRelease(c)            == Release(c) /\ Logged              \* Resign: its node deleted
LCancel(c)             == Cancel(c) /\ Logged               \* Campaign's context ended
LLearnExpiry(c)        == LearnExpiry(c) /\ Logged          \* session lost
LExpireSession(s)      == ExpireSession(s) /\ Logged        \* the server expires s
LPauseClient(c)        == PauseClient(c) /\ Logged          \* a process pause
LResumeClient(c)       == ResumeClient(c) /\ Logged         \* the pause ends
LDeleteLands(u)        == DeleteLands(u) /\ Logged          \* a pending delete lands
LDataChanged(c)        == DataChanged(c) /\ Logged          \* woken by NodeDataChanged: list again
LIgnoreDataChange(c)   == IgnoreDataChange(c) /\ Logged     \* an old request's data events
LProclaim(c)           == Proclaim(c) /\ Logged             \* the leader's setData: a write step

-----------------------------------------------------------------------------
(***************************************************************************)
(* Observer steps.                                                         *)
(***************************************************************************)

(* getChildren(<election>) answered from snapshot v (Election's            *)
(* ObserveList on it): the head is the smallest seq listed there, or the   *)
(* listing is empty, the vacancy is reported, and the child watch armed at *)
(* that server fires on the first create after v (omark: v's nextSeq).     *)
StaleObserveList(o) ==
    \E v \in ZR!Readable(o) : ReadAt(o, v) /\ Snap(v)!ObserveList(o) /\ LeaderUnchanged

(* getData(<head>, watch=true) answered from snapshot v (Election's        *)
(* ObserveWatch on it): the node exists there: the observer reports its    *)
(* epoch and its version as of v, and its data watch fires when the        *)
(* version moves past that or the node goes (at once if the leader already *)
(* moved it: Fired reads the leader); NoNode there: list again.            *)
StaleObserveWatch(o) ==
    \E v \in ZR!Readable(o) : ReadAt(o, v) /\ Snap(v)!ObserveWatch(o) /\ LeaderUnchanged

(* The observer takes its watch's event and lists again (Election's        *)
(* ObserveNotified): no read, no seen (a watch event raises none).         *)
LObserveNotified(o) == ObserveNotified(o) /\ Logged

(* The head's node is gone and the observer reads its listed successor    *)
(* next (Election's ObserveNext): no read yet, no seen.  The read that    *)
(* follows (StaleObserveWatch) may come from a snapshot before the        *)
(* deletion (the event raises no seen); the successor it finds there      *)
(* stands after the head, so it is the head now if it stands at the       *)
(* leader, and is newer than the head either way.                         *)
LObserveNext(o) == ObserveNext(o) /\ Logged

(* getChildren(<election>) answered from snapshot v after a head read     *)
(* without a listing (Election's ObserveRefresh on it): the successors of *)
(* the head as of v.                                                      *)
StaleObserveRefresh(o) ==
    \E v \in ZR!Readable(o) : ReadAt(o, v) /\ Snap(v)!ObserveRefresh(o) /\ LeaderUnchanged

-----------------------------------------------------------------------------
(* Election's Next with the observers' reads made stale, in the Go model's *)
(* order (model/electionstale): each candidate's lock steps in             *)
(* PredecessorLock's order, the environment's, each candidate's own        *)
(* steps, each observer's.                                                 *)
StaleLockNext(c) ==
    \/ LRequestLock(c)
    \/ LCreateOk(c)
    \/ LCreateReplyLost(c)
    \/ LFindOwnNode(c)
    \/ LListChildren(c)
    \/ LWatchSecond(c)
    \/ LWatchPredecessor(c)
    \/ LPredecessorGone(c)
    \/ LGrantOnHeadGone(c)
    \/ LIgnoreNotification(c)
    \/ LGrant(c)
    \/ LWrite(c)
    \/ LRelease(c)
    \/ LCancel(c)
    \/ LLearnExpiry(c)

StaleEnvNext ==
    \/ \E s \in PL!Sessions : LExpireSession(s)
    \/ \E c \in Clients : LPauseClient(c) \/ LResumeClient(c)
    \/ \E u \in Clients \X (1..MaxRequests) : LDeleteLands(u)

StaleCandidateOwn(c) == LDataChanged(c) \/ LIgnoreDataChange(c) \/ LProclaim(c)

StaleObserve(o) ==
    StaleObserveList(o) \/ StaleObserveWatch(o) \/ LObserveNotified(o) \/ LObserveNext(o) \/ StaleObserveRefresh(o)

StaleNext ==
    \/ \E c \in Clients : StaleLockNext(c)
    \/ StaleEnvNext
    \/ \E c \in Clients : StaleCandidateOwn(c)
    \/ \E o \in Observers : StaleObserve(o)

StaleSpec == StaleInit /\ [][StaleNext]_allVars

=============================================================================
