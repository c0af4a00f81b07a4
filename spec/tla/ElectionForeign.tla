--------------------------- MODULE ElectionForeign ---------------------------
(***************************************************************************)
(* Election with an outsider who deletes or replaces candidates' nodes     *)
(* (an operator's runbook step for a stuck leader, a clean-up script), and *)
(* the leader's defence, one watch on its own node (impl/zklock            *)
(* ownwatch.go: a Leadership is a Lease): PredecessorLockForeign's steps   *)
(* on the election's candidates, so that the model the trace validator    *)
(* replays an election in (model/trace) has the outsider's steps           *)
(* (ForeignDelete, ForeignReplace) and the leader's (LearnNodeGone).       *)
(*                                                                         *)
(* Election's candidates are PredecessorLock's clients (PL, an INSTANCE of *)
(* the lock); this module INSTANCEs PredecessorLockForeign on the same     *)
(* constants and variables (PLF below) and takes its steps as Election     *)
(* takes the lock's: the step of the same name with Election's own         *)
(* variables unchanged (Keep).  No definition is copied: what each step    *)
(* models is said in PredecessorLockForeign.tla; in short:                 *)
(*   ArmOwnWatch     the reply of the leader's getData with a watch on its *)
(*                   own node, still its own (Lease.watchOwnNode, armOwn)  *)
(*   LearnNodeGone   the leadership ends: its own watch's event, or that   *)
(*                   reply finding no node of ours (Lease.ownNodeGone:     *)
(*                   ErrNodeDeleted, ErrNodeReplaced, ErrLockLost)         *)
(*   IgnoreOtherNotification  IgnoreNotification, never the leader's own   *)
(*                   node's event (the watcher acts on it)                *)
(*   ReleaseNamed    Resign (Leadership.Resign, the lease's Unlock), sent  *)
(*                   on a name that stands, by a leadership whose own      *)
(*                   watch has not fired; it does not wait for the arming  *)
(*   ForeignDelete(s), ForeignReplace(s)  the outsider, on the candidate   *)
(*                   node of sequence number s no campaign is acquiring    *)
(*                   with; faults (MaxFaults bounds them with the others)  *)
(*                                                                         *)
(* The leader's Proclaim (a setData on its node) fires every data watch on *)
(* it, the leader's own one too: Election moves that watch to dataEvents,  *)
(* the leader's IgnoreDataChange drops it, and the leader is then not      *)
(* Armed, so its ArmOwnWatch sends the getData again: the code's watcher,  *)
(* which takes the NodeDataChanged event and arms again (watchOnce).       *)
(* Until that reply the leader's news is pending (ArmingPending).          *)
(*                                                                         *)
(* NOT MODELLED.  A Proclaim on a replacement: Election's Proclaim needs   *)
(* the leader's own node (OwnNodeExists), while the code's check passes on *)
(* a stranger's node of the same name at a matching version and reports    *)
(* ErrMaybeApplied.  Observers: Election's Fired compares a watched head  *)
(* by name and version, so an observer's watch on a replaced head (same   *)
(* name, version restored) is not seen to fire; the configs have none.    *)
(*                                                                         *)
(* WatchOwn = TRUE is the code; WatchOwn = FALSE is the code before,       *)
(* nothing watches a leader's node (must fail LeaderBeliefExclusion).      *)
(* AtMostOneLeader (over the candidates' own nodes) holds; KnownNodeExists *)
(* does not (an outsider's delete ends a leadership without its step).     *)
(***************************************************************************)
EXTENDS Election

CONSTANTS
    WatchOwn,   \* a leader watches its own node (the code); FALSE: the code before
    Stranger    \* the outsider (a model value): its node's owner is <<Stranger, 0>>

PLF == INSTANCE PredecessorLockForeign

\* The lock's TypeOK with a node's owner in Sessions \cup {Outsider}; the
\* module's steps leave Election's own variables unchanged.
FTypeOK == PLF!FTypeOK

-----------------------------------------------------------------------------
ArmOwnWatch(c)             == PLF!ArmOwnWatch(c) /\ Keep
LearnNodeGone(c)           == PLF!LearnNodeGone(c) /\ Keep
IgnoreOtherNotification(c) == PLF!IgnoreOtherNotification(c) /\ Keep
ReleaseNamed(c)            == PLF!ReleaseNamed(c) /\ Keep    \* Resign
ForeignDelete(s)           == PLF!ForeignDelete(s) /\ Keep
ForeignReplace(s)          == PLF!ForeignReplace(s) /\ Keep

-----------------------------------------------------------------------------
\* CandidateNext with the module's steps: IgnoreOtherNotification and
\* ReleaseNamed in place of IgnoreNotification and Release.
ForeignCandidateNext(c) ==
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
    \/ IgnoreOtherNotification(c)
    \/ IgnoreDataChange(c)
    \/ Grant(c)
    \/ Write(c)
    \/ ReleaseNamed(c)
    \/ Cancel(c)
    \/ LearnExpiry(c)
    \/ ArmOwnWatch(c)
    \/ LearnNodeGone(c)

ForeignNext ==
    \/ \E c \in Clients : ForeignCandidateNext(c)
    \/ EnvNext
    \/ OwnNext
    \/ \E s \in 0..MaxSeq : ForeignDelete(s) \/ ForeignReplace(s)

ForeignSpec == Init /\ [][ForeignNext]_vars

-----------------------------------------------------------------------------
(* Properties.                                                             *)

\* A leader on a live session believes in a node that is gone (or not its
\* own any more) at most until one notification: the deletion's event is
\* pending for it, or the reply of the getData that will tell it.
BelievesOnlyWhileNotified == PLF!BelievesOnlyWhileNotified

\* Two candidates believe they lead at once only while one of them has the
\* news pending (the event, or the arming getData's reply) that ends its
\* leadership with no request of its own.
LeaderBeliefExclusion == PLF!BeliefExclusion

=============================================================================
