----------------------- MODULE PredecessorLockAdaptive -----------------------
(***************************************************************************)
(* Issue 38, the ADAPTIVE marker: one client program that chooses its      *)
(* hand-off rule per predecessor at run time (docs/QUEUES.md, "The         *)
(* adaptive marker").  The marker (PredecessorLockMarked) makes every      *)
(* acquisition pay a third quorum write and wins only in long queues; an   *)
(* adaptive client marks only where the queue is long and otherwise keeps  *)
(* today's rule (PredecessorLock).                                         *)
(*                                                                         *)
(* Holder side.  At its grant an adaptive holder marks its node or not:    *)
(* the code will mark only if its join listing showed at least K nodes     *)
(* ahead of it; the spec makes the choice nondeterministic per grant       *)
(* (Mark, or SkipMark), so every property is shown for any policy and any  *)
(* K.  Either way it then arms its own-node watch (WatchOwn, after the     *)
(* choice, as the marker's holder does): the own watch is never armed      *)
(* before the holder's own setData, so a holder that marks never wakes     *)
(* itself (OwnWriteSilent checks the order), and a holder that skips arms  *)
(* the same watch at the same point: one order for both branches.          *)
(*                                                                         *)
(* Waiter side.  An adaptive waiter waits by today's rule: it lists        *)
(* (AListChildren), watches the node two ahead, S (AWatchSecond), and its  *)
(* predecessor, P (AWatchPredecessor), both with getData (data watches,    *)
(* which fire on setData and on delete), takes P's deletion as the grant   *)
(* when the listing showed P alone before its node (AGrantOnHeadGone), and *)
(* lists again on any other event (APredecessorGone).  Plus, since it      *)
(* reads data:                                                             *)
(*   - AWatchPredecessor reads P's data: a mark there is a read mark;      *)
(*   - P's NodeDataChanged: P marked, so P holds; not the grant: re-arm    *)
(*     getData(P), which reads the mark (the marker's MarkSeen, Rearm);    *)
(*     P's deletion after a read mark is the grant without listing (the   *)
(*     marker's GrantOnMarkedGone);                                        *)
(*   - S's NodeDataChanged: S marked, so S holds and P is next.  NEW:      *)
(*     SecondMarked drops the watch on S (spent; no re-arm, no listing)    *)
(*     and keeps waiting on P.  This is what lets a long queue drain with  *)
(*     O(1) bytes per hand-off: today's rule lists again on that event.    *)
(*     P is NOT known head: S still stands before it, so P's deletion      *)
(*     unmarked (a cancel, an expiry) is no grant (secondChangeIsHead).    *)
(*   - P deleted with no mark read and P not known head: list again.       *)
(* The marker's MarkSeen, Rearm and GrantOnMarkedGone are reused as they   *)
(* are (an adaptive client is in Marking); today's steps of an adaptive    *)
(* client are PredecessorLock's own under wrappers named A... (TLC names a *)
(* step by its definition, as PredecessorLockMarked's P... and M...): the  *)
(* base step with the marker's variables unchanged, guarded so that the    *)
(* events the marker's steps and SecondMarked take are not taken again.    *)
(* Beyond the rules of issue 38's adaptive protocol this module invents    *)
(* only that AWatchPredecessor records a mark it reads (the getData reply  *)
(* carries the data: a predecessor already marked when armed needs no      *)
(* re-arm), and that AGrantOnHeadGone yields to GrantOnMarkedGone when     *)
(* both apply (both are the grant; one name per step).                     *)
(*                                                                         *)
(* The mixed queue: Plain clients (Curator, zklock today) never mark and   *)
(* list again on any event; pure marking clients (Clients \ Plain \        *)
(* Adaptive) are PredecessorLockMarked's.  Behind an adaptive holder that  *)
(* skipped, a marking waiter sees an unmarked deletion and lists again;    *)
(* behind one that marked, a Plain waiter lists again on the mark.         *)
(*                                                                         *)
(* AdaptRule selects the protocol or one of its must-fail mutants:         *)
(*   "sound"               the rules above                                 *)
(*   "secondChangeIsHead"  S's NodeDataChanged taken to mean "P is head    *)
(*                         now": P's later deletion is the grant without a *)
(*                         mark read (must fail MutualExclusion: P cancels *)
(*                         while S holds)                                  *)
(*   "secondDropsTarget"   SecondMarked stops listening on P's watch too   *)
(*                         (modelled as the watch removed): nothing wakes  *)
(*                         the waiter any more (must fail StarvationFree)  *)
(* (Listing again on S's change, today's rule, is safe and no mutant.)     *)
(***************************************************************************)
EXTENDS PredecessorLockMarked

CONSTANTS
    Adaptive,   \* clients that choose their rule per predecessor (not in Plain)
    AdaptRule   \* "sound" or a must-fail mutant, see above

ASSUME Adaptive \subseteq Clients \ Plain
ASSUME AdaptRule \in {"sound", "secondChangeIsHead", "secondDropsTarget"}

-----------------------------------------------------------------------------
(***************************************************************************)
(* The adaptive client's waiting steps.                                    *)
(***************************************************************************)

(* getChildren(<lock>), no watch: today's ListChildren (target, second,    *)
(* soleBlocker).                                                           *)
AListChildren(c) == c \in Adaptive /\ ListChildren(c) /\ UNCHANGED markVars

(* getData(<second>, watch=true): today's WatchSecond.  Its data is not   *)
(* used: only S's later NodeDataChanged is (SecondMarked).                 *)
AWatchSecond(c) == c \in Adaptive /\ WatchSecond(c) /\ UNCHANGED markVars

(* getData(<target>, watch=true): today's WatchPredecessor, and the data   *)
(* read with it: a mark on P is a read mark.                               *)
AWatchPredecessor(c) ==
    /\ c \in Adaptive
    /\ seen[c] = "none"
    /\ WatchPredecessor(c)
    /\ seen' = [seen EXCEPT ![c] =
                  IF ZK!NodeExists(target[c]) /\ target[c] \in marks THEN "mark" ELSE "none"]
    /\ UNCHANGED <<marks, holdStep>>

\* The NodeDataChanged event of the node two ahead, for c's current request.
SecondChange(c) ==
    second[c] # NoNode /\ ZK!NextEvent(c) = [node |-> Changed(second[c]), req |-> Uuid(c)]

\* The NodeDeleted event of the target, whose mark c read.
MarkedGone(c) == ZK!NextEvent(c) = [node |-> target[c], req |-> Uuid(c)] /\ seen[c] = "mark"

(* NodeDataChanged on S: S marked, so S holds and P is next.  Drop the     *)
(* spent watch on S (second' = NoNode), re-arm nothing, list nothing, and *)
(* keep waiting on P.  "secondChangeIsHead": P taken for the head          *)
(* (soleBlocker' = TRUE).  "secondDropsTarget": the watch on P dropped too.*)
SecondMarked(c) ==
    /\ c \in Adaptive
    /\ MyEvent(c)
    /\ SecondChange(c)
    /\ IF AdaptRule = "secondDropsTarget"
       THEN /\ inbox' = [inbox EXCEPT ![c] = Tail(@)]
            /\ watches' = watches \ {[node |-> target[c], req |-> Uuid(c)]}
            /\ UNCHANGED <<nodes, nextSeq, zxid, live, pending>>
       ELSE ZK!TakeEvent(c)
    /\ second' = [second EXCEPT ![c] = NoNode]
    /\ soleBlocker' = [soleBlocker EXCEPT ![c] = @ \/ AdaptRule = "secondChangeIsHead"]
    /\ UNCHANGED <<pc, sess, reqNo, node, target, token, tenure, paused, histVars, markVars>>

(* NodeDeleted of P that the listing showed alone before ours, no mark     *)
(* read: today's GrantOnHeadGone.                                          *)
AGrantOnHeadGone(c) ==
    /\ c \in Adaptive
    /\ seen[c] # "mark"
    /\ GrantOnHeadGone(c)
    /\ UNCHANGED markVars

(* Any other event of the request (P deleted with no mark read and not     *)
(* known head, S deleted, a stale event): list again, today's              *)
(* PredecessorGone (also where AGrantOnHeadGone is, as today).  Not P's    *)
(* or S's NodeDataChanged (MarkSeen, SecondMarked), nor P's deletion after *)
(* a read mark (GrantOnMarkedGone).                                        *)
APredecessorGone(c) ==
    /\ c \in Adaptive
    /\ ZK!HasEvent(c)
    /\ ZK!NextEvent(c) # [node |-> Changed(target[c]), req |-> Uuid(c)]
    /\ ~SecondChange(c)
    /\ ~MarkedGone(c)
    /\ PredecessorGone(c)
    /\ seen' = [seen EXCEPT ![c] = "none"]
    /\ UNCHANGED <<marks, holdStep>>

(* The adaptive holder does not mark (its listing showed a short queue):   *)
(* a local decision, no ZooKeeper call.  The own-node watch is next, armed *)
(* by the marker's WatchOwn as after a Mark, and not at the grant as       *)
(* PredecessorLock's holder would: with one point for both branches, the   *)
(* watch is armed after the choice, so it never sees its holder's own      *)
(* setData, and OwnWriteSilent checks the order the code must keep rather  *)
(* than holding because no holder both watches and then marks.             *)
SkipMark(c) ==
    /\ c \in Adaptive
    /\ ~paused[c]
    /\ pc[c] = "hold"
    /\ holdStep[c] = "mark"
    /\ holdStep' = [holdStep EXCEPT ![c] = "own"]
    /\ UNCHANGED <<vars, marks, seen>>

\* The waiting steps of an adaptive client: today's rule, the marker's
\* steps on P's mark, and SecondMarked.
AWaits(c) ==
    \/ AListChildren(c)
    \/ AWatchSecond(c)
    \/ AWatchPredecessor(c)
    \/ MarkSeen(c)
    \/ Rearm(c)
    \/ SecondMarked(c)
    \/ GrantOnMarkedGone(c)
    \/ AGrantOnHeadGone(c)
    \/ APredecessorGone(c)

AClientNext(c) ==
    \/ MRequestLock(c)
    \/ MCreateOk(c)
    \/ MCreateReplyLost(c)
    \/ MFindOwnNode(c)
    \/ AWaits(c)
    \/ MIgnoreNotification(c)
    \/ MGrant(c)
    \/ Mark(c)
    \/ SkipMark(c)
    \/ WatchOwn(c)
    \/ MWrite(c)
    \/ MRelease(c)
    \/ MCancel(c)
    \/ MLearnExpiry(c)

\* A Plain client's steps: MClientNext without the marking waiter's.
PClientNext(c) ==
    \/ MRequestLock(c)
    \/ MCreateOk(c)
    \/ MCreateReplyLost(c)
    \/ MFindOwnNode(c)
    \/ PWaits(c)
    \/ MIgnoreNotification(c)
    \/ MGrant(c)
    \/ MWrite(c)
    \/ MRelease(c)
    \/ MCancel(c)
    \/ MLearnExpiry(c)

\* A pure marking client's steps: MClientNext without a Plain client's.
MMClientNext(c) ==
    \/ MRequestLock(c)
    \/ MCreateOk(c)
    \/ MCreateReplyLost(c)
    \/ MFindOwnNode(c)
    \/ Waits(c)
    \/ MIgnoreNotification(c)
    \/ MGrant(c)
    \/ Mark(c)
    \/ WatchOwn(c)
    \/ MWrite(c)
    \/ MRelease(c)
    \/ MCancel(c)
    \/ MLearnExpiry(c)

\* Each kind of client takes its own steps, so that a config without a
\* kind has none of its steps (TLC's coverage lists only the others).
ANext ==
    \/ \E c \in Plain : PClientNext(c)
    \/ \E c \in Marking \ Adaptive : MMClientNext(c)
    \/ \E c \in Adaptive : AClientNext(c)
    \/ \E s \in Sessions : MExpireSession(s)
    \/ \E c \in Clients : MPauseClient(c) \/ MResumeClient(c)
    \/ \E u \in Clients \X (1..MaxRequests) : MDeleteLands(u)

ASpec == MInit /\ [][ANext]_allVars

(* Fairness as MFairSpec's: the steps of a request a client made.          *)
AProgress(c) ==
    \/ MCreateOk(c) \/ MCreateReplyLost(c) \/ MFindOwnNode(c) \/ MIgnoreNotification(c)
    \/ AWaits(c)
    \/ MGrant(c) \/ Mark(c) \/ SkipMark(c) \/ WatchOwn(c) \/ MRelease(c) \/ MLearnExpiry(c)

AFairSpec ==
    /\ ASpec
    /\ \A c \in Clients \ Adaptive : WF_allVars(MProgress(c))
    /\ \A c \in Adaptive : WF_allVars(AProgress(c))
    /\ \A c \in Clients : WF_allVars(MResumeClient(c))
    /\ WF_allVars(\E s \in Sessions : Abandoned(s) /\ MExpireSession(s))
    /\ \A c \in Clients : WF_allVars(\E r \in 1..MaxRequests : MDeleteLands(<<c, r>>))

(* Properties: PredecessorLockMarked's (MarkIsHead, MarkedTargetIsHead,    *)
(* which covers the adaptive waiters, OwnWriteSilent) and                  *)
(* PredecessorLock's, checked on this spec as they are.                    *)
=============================================================================
