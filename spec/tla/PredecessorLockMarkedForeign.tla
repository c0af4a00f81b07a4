-------------------- MODULE PredecessorLockMarkedForeign --------------------
(***************************************************************************)
(* The marker hand-off (PredecessorLockMarked) with an outsider who        *)
(* deletes or replaces lock nodes, and the holder's defence, its own-node  *)
(* watch (PredecessorLockForeign).  The model a Mutex trace with marker    *)
(* steps and an operator's steps is replayed in (model/trace).             *)
(*                                                                         *)
(* One step, one name: the marking holder arms its own-node watch with the *)
(* getData that reads its mark back (PredecessorLockMarked's WatchOwn),    *)
(* which is PredecessorLockForeign's ArmOwnWatch; this module takes the    *)
(* former only.  Its event, or a getData finding the node gone or not its  *)
(* own (before the mark or after it), ends the lease: LearnNodeGone,       *)
(* PredecessorLockForeign's, resetting the marker's variables.  A          *)
(* replacement carries the data and version the outsider read (the chaos  *)
(* operator copies both): a marked node's replacement reads as marked, or  *)
(* unmarked if the read came before the mark.  A forged mark on any node   *)
(* (setData by the outsider) is PredecessorLockMarkedForged's fault, not   *)
(* this module's.                                                          *)
(*                                                                         *)
(* Unlock's delete goes by name once the own watch is armed, whatever news *)
(* of the node is pending (ReleaseByName, ReleaseGone), where              *)
(* PredecessorLockForeign's ReleaseNamed waits for none.                   *)
(*                                                                         *)
(* OwnWatch = TRUE is the code.  OwnWatch = FALSE is PredecessorLockMarked *)
(* as it stands, whose holder arms the watch and ignores its event (must   *)
(* fail BeliefExclusion).                                                  *)
(*                                                                         *)
(* MarkIsHead, MarkedTargetIsHead and GrantsInSequenceOrder do not hold   *)
(* here, and say nothing wrong: a replacement is a node ahead of the       *)
(* waiters that is no one's lease (PredecessorLockForeign); a waiter       *)
(* granted past it marks while it stands, and the waiter behind reads that *)
(* mark (TLC: ..., ForeignReplace, LearnNodeGone, ..., GrantOnMarkedGone,  *)
(* MGrant, Mark, MWatchPredecessor).  MutualExclusion, over the clients'   *)
(* own nodes, holds.                                                       *)
(***************************************************************************)
EXTENDS PredecessorLockMarked

CONSTANTS
    OwnWatch,   \* the holder acts on its own-node watch (the code)
    Stranger    \* the outsider (a model value)

ASSUME OwnWatch \in BOOLEAN

\* PredecessorLockForeign (through a module that names its WatchOwn OwnWatch).
R == INSTANCE PredecessorLockForeignRenamed

MFTypeOK ==
    /\ ZK!TypeOK([seq : 0..MaxSeq, owner : Sessions \cup {R!Foreign!Outsider},
                  uuid : Clients \X (1..MaxRequests), czxid : Nat],
                 0..MaxSeq \cup {Parent} \cup ChangedNames, Sessions, Clients \X (1..MaxRequests))
    \* MTypeOK's client part (MTypeOK's ZK part knows no Outsider):
    /\ pc \in [Clients -> PCs]
    /\ sess \in [Clients -> 1..MaxFaults + 1]
    /\ reqNo \in [Clients -> 0..MaxRequests]
    /\ node \in [Clients -> 0..MaxSeq \cup {NoNode}]
    /\ target \in [Clients -> 0..MaxSeq \cup {NoNode}]
    /\ second \in [Clients -> 0..MaxSeq \cup {NoNode}]
    /\ soleBlocker \in [Clients -> BOOLEAN]
    /\ token \in [Clients -> Nat]
    /\ tenure \in [Clients -> Nat]
    /\ paused \in [Clients -> BOOLEAN]
    /\ faults \in 0..MaxFaults
    /\ grants \in Nat /\ lastToken \in Nat /\ resHigh \in Nat /\ resTenure \in Nat
    /\ marks \subseteq 0..MaxSeq
    /\ seen \in [Clients -> {"none", "changed", "mark"}]
    /\ holdStep \in [Clients -> {"mark", "own", "none"}]

\* The marker's per-client variables at the end of a request.
ResetMarker(c) ==
    /\ seen' = [seen EXCEPT ![c] = "none"]
    /\ holdStep' = [holdStep EXCEPT ![c] = "none"]
    /\ UNCHANGED marks

-----------------------------------------------------------------------------
(* The lease ends on its own-node watch's event, or on the reply of the    *)
(* getData that arms it (or of the mark's setData) finding its node gone   *)
(* or a stranger's: PredecessorLockForeign's LearnNodeGone.                *)
LearnNodeGone(c) == R!Foreign!LearnNodeGone(c) /\ ResetMarker(c)

(* IgnoreNotification, but, with OwnWatch, never the holder's own-node     *)
(* event (PredecessorLockForeign's IgnoreOtherNotification).               *)
IgnoreOtherNotification(c) ==
    /\ IF OwnWatch THEN R!Foreign!IgnoreOtherNotification(c) ELSE IgnoreNotification(c)
    /\ UNCHANGED markVars

(* Unlock's delete, by name (impl/zklock Lease.release): sent once the own  *)
(* watch is armed (Unlock waits for it, so not while the arming getData is  *)
(* out), whatever news of the node is pending: the watcher may not have     *)
(* acted on its event yet.  It deletes what stands at the name, an          *)
(* outsider's replacement too (PredecessorLockForeign's ReleaseNamed        *)
(* without ~Notified(c): a chaos campaign met that race, Unlock against   *)
(* an operator's ForeignReplace).                                          *)
ReleaseByName(c) ==
    /\ R!Foreign!NameExists(c)
    /\ ~R!Foreign!ArmingPending(c)
    /\ IF OwnNodeExists(c)
       THEN Release(c)
       \* An outsider's replacement: the delete by name removes it.  It lands
       \* in this step (with AsyncDelete too: a pending delete of ours removes
       \* our session's nodes only).
       ELSE /\ ~paused[c]
            /\ pc[c] = "hold"
            /\ Live(c)
            /\ ZK!DeleteNodes({ZK!NodeAt(node[c])})
            /\ Idle(c)
            /\ UNCHANGED <<sess, reqNo, paused, histVars>>
    /\ ResetMarker(c)

(* The same delete finding no node (an outsider deleted it first; its      *)
(* event came before this reply, one session's replies and events in       *)
(* order): the lease ends (ErrLockLost), nothing changes on the server.    *)
ReleaseGone(c) ==
    /\ ~paused[c]
    /\ pc[c] = "hold"
    /\ Live(c)
    /\ ~R!Foreign!NameExists(c)
    /\ ~R!Foreign!ArmingPending(c)
    /\ Idle(c)
    /\ ResetMarker(c)
    /\ UNCHANGED <<zkVars, sess, reqNo, paused, histVars, pending>>

(* The outsider's steps (PredecessorLockForeign's).  A replacement has the *)
(* data and version the outsider read before: a marked node's replacement  *)
(* is marked, or not if the read came before the mark (the chaos operator  *)
(* reads, then replaces).                                                  *)
ForeignDelete(s) == R!Foreign!ForeignDelete(s) /\ UNCHANGED markVars
ForeignReplace(s) ==
    /\ R!Foreign!ForeignReplace(s)
    /\ marks' \in {marks, marks \ {s}}
    /\ UNCHANGED <<seen, holdStep>>

-----------------------------------------------------------------------------
MFClientNext(c) ==
    \/ MRequestLock(c)
    \/ MCreateOk(c)
    \/ MCreateReplyLost(c)
    \/ MFindOwnNode(c)
    \/ PWaits(c)
    \/ Waits(c)
    \/ IgnoreOtherNotification(c)
    \/ MGrant(c)
    \/ Mark(c)
    \/ WatchOwn(c)
    \/ MWrite(c)
    \/ ReleaseByName(c)
    \/ ReleaseGone(c)
    \/ MCancel(c)
    \/ MLearnExpiry(c)
    \/ LearnNodeGone(c)

MFNext ==
    \/ \E c \in Clients : MFClientNext(c)
    \/ \E s \in Sessions : MExpireSession(s)
    \/ \E c \in Clients : MPauseClient(c) \/ MResumeClient(c)
    \/ \E u \in Clients \X (1..MaxRequests) : MDeleteLands(u)
    \/ \E s \in 0..MaxSeq : ForeignDelete(s) \/ ForeignReplace(s)

MFSpec == MInit /\ [][MFNext]_allVars

-----------------------------------------------------------------------------
(* PredecessorLockForeign's properties, on this module's states.           *)
BelievesOnlyWhileNotified == R!Foreign!BelievesOnlyWhileNotified
BeliefExclusion == R!Foreign!BeliefExclusion

=============================================================================
