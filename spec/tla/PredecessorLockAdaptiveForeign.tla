------------------- MODULE PredecessorLockAdaptiveForeign -------------------
(***************************************************************************)
(* Issue 38, the adaptive marker (PredecessorLockAdaptive) beside an       *)
(* operator who sets data on lock nodes: zkCli's `set`, a script that      *)
(* annotates nodes.  Such a write is the world around the lock, not a      *)
(* fault of the protocol: every recipe must survive it.  Its data is no    *)
(* mark record (a holder's mark names the node itself and its owner        *)
(* session; an operator's `set` writes neither), but it bumps the node's   *)
(* data version and fires every data watch on the node with                *)
(* NodeDataChanged, exactly as a mark does.                                *)
(*                                                                         *)
(* The threat.  A waiter that takes ANY data change of its predecessor P,  *)
(* or any data version >= 1 read on P, for P's mark ("P holds") takes P's  *)
(* later deletion for its grant without listing.  An operator's set on a   *)
(* P that still waits forges that mark: P cancels while the real head      *)
(* holds, and its successor is granted beside the head, with no bound and  *)
(* nobody told (DataRule "anyVersion" must fail MutualExclusion).          *)
(* PredecessorLockMarkedForged is the deliberate forger, who writes a mark *)
(* record itself (ACLs are the defence there); this module's operator is   *)
(* innocent and writes no mark record.                                     *)
(*                                                                         *)
(* The rule ("verified").  A data change counts as P's mark only if the    *)
(* read that follows shows the mark record (marks: what holders wrote and  *)
(* no operator overwrote since):                                           *)
(*   - the getData that arms the watch on P (AWatchPredecessor) and the    *)
(*     getData that re-arms it after a NodeDataChanged (Rearm) record a    *)
(*     mark only if the data read is a mark record;                        *)
(*   - a NodeDataChanged whose re-arm reads no mark record is the          *)
(*     environment's: the waiter has re-armed its watch on P and keeps     *)
(*     waiting (seen "none").  Re-arming is the cheaper safe choice: the   *)
(*     getData the marker sends on every NodeDataChanged anyway, one node's *)
(*     bytes, where listing again reads the whole queue; and it is safe    *)
(*     because seen "none" leaves P's later deletion to today's rule;      *)
(*   - P's deletion without a verified mark read is no grant: list again   *)
(*     (APredecessorGone), unless the listing showed P as the head         *)
(*     (AGrantOnHeadGone, today's rule); the re-arm that finds P gone      *)
(*     after an unverified change lists again too (Rearm), where the pure  *)
(*     marker took it for the grant.                                       *)
(* "anyVersion" is the rule before this fix: a version >= 1 read counts as *)
(* a mark, and a re-arm finding P gone after its NodeDataChanged is the    *)
(* grant.                                                                  *)
(*                                                                         *)
(* The holder marks with setData at version 0: after an operator's set on  *)
(* its node (version 1) that write fails (BadVersion) and the holder does  *)
(* not mark (MarkRefused): its successor sees an unmarked deletion and     *)
(* lists again.  SecondMarked (the node two ahead changed) concludes       *)
(* nothing that safety rests on (it only drops the spent watch on S), so  *)
(* an operator's set on S needs no check there.                            *)
(*                                                                         *)
(* Every client is adaptive (Plain clients list again on any event and are *)
(* immune; the adaptive waiter takes the marker's MarkSeen and Rearm, so   *)
(* the rule covers the marker's waiting steps too).  The module INSTANCEs  *)
(* PredecessorLockAdaptive and names each of its steps as that module     *)
(* does, with opData unchanged, so that TLC, the model and the traces name *)
(* a step alike; AWatchPredecessor, Rearm and Mark are rewritten with the  *)
(* rule and the operator's data; MarkRefused and ForeignSetData are new.   *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets, Sequences

CONSTANTS
    Clients, MaxRequests, MaxSeq, MaxFaults, WithExpiry, WithReplyLoss, WithPause,
    WithCancel, Fencing, GrantRule, AsyncDelete,
    DataRule,       \* "verified" (the fix) or "anyVersion" (the must-fail rule before it)
    MaxForeignSets  \* budget of the operator's setData steps

ASSUME DataRule \in {"verified", "anyVersion"}
ASSUME MaxForeignSets \in Nat

VARIABLES
    nodes, nextSeq, zxid, live, watches, inbox,
    pc, sess, reqNo, node, target, second, soleBlocker, token, tenure, paused,
    faults, grants, lastToken, resHigh, resTenure, pending,
    marks, seen, holdStep,
    opData      \* server: seqs of the nodes an operator set data on (version >= 1, no
                \* mark record); never shrinks: a seq names one node, and the set is
                \* also the budget's count

\* The adaptive marker with every client adaptive and sound.
A == INSTANCE PredecessorLockAdaptive
        WITH Plain <- {}, Adaptive <- Clients, MarkRule <- "sound", AdaptRule <- "sound",
             WithForgery <- FALSE

allVars == <<nodes, nextSeq, zxid, live, watches, inbox, pending, pc, sess, reqNo, node,
             target, second, soleBlocker, token, tenure, paused, faults, grants, lastToken,
             resHigh, resTenure, marks, seen, holdStep, opData>>

\* What a getData of the node of seq s reads as a mark, by DataRule.
ShowsMark(s) == IF DataRule = "verified" THEN s \in marks ELSE s \in marks \cup opData

-----------------------------------------------------------------------------
(* PredecessorLockAdaptive's steps, named as there, opData unchanged.      *)
MRequestLock(c) == A!MRequestLock(c) /\ UNCHANGED opData
MCreateOk(c) == A!MCreateOk(c) /\ UNCHANGED opData
MCreateReplyLost(c) == A!MCreateReplyLost(c) /\ UNCHANGED opData
MFindOwnNode(c) == A!MFindOwnNode(c) /\ UNCHANGED opData
AListChildren(c) == A!AListChildren(c) /\ UNCHANGED opData
AWatchSecond(c) == A!AWatchSecond(c) /\ UNCHANGED opData
MarkSeen(c) == A!MarkSeen(c) /\ UNCHANGED opData
SecondMarked(c) == A!SecondMarked(c) /\ UNCHANGED opData
GrantOnMarkedGone(c) == A!GrantOnMarkedGone(c) /\ UNCHANGED opData
AGrantOnHeadGone(c) == A!AGrantOnHeadGone(c) /\ UNCHANGED opData
APredecessorGone(c) == A!APredecessorGone(c) /\ UNCHANGED opData
MIgnoreNotification(c) == A!MIgnoreNotification(c) /\ UNCHANGED opData
MGrant(c) == A!MGrant(c) /\ UNCHANGED opData
SkipMark(c) == A!SkipMark(c) /\ UNCHANGED opData
WatchOwn(c) == A!WatchOwn(c) /\ UNCHANGED opData
MWrite(c) == A!MWrite(c) /\ UNCHANGED opData
MRelease(c) == A!MRelease(c) /\ UNCHANGED opData
MCancel(c) == A!MCancel(c) /\ UNCHANGED opData
MLearnExpiry(c) == A!MLearnExpiry(c) /\ UNCHANGED opData
MExpireSession(s) == A!MExpireSession(s) /\ UNCHANGED opData
MPauseClient(c) == A!MPauseClient(c) /\ UNCHANGED opData
MResumeClient(c) == A!MResumeClient(c) /\ UNCHANGED opData
MDeleteLands(u) == A!MDeleteLands(u) /\ UNCHANGED opData

-----------------------------------------------------------------------------
(* getData(<target>, watch=true): today's WatchPredecessor; the data read  *)
(* with it is a read mark only if ShowsMark: "verified", a mark record;    *)
(* "anyVersion", any version >= 1.                                         *)
AWatchPredecessor(c) ==
    /\ seen[c] = "none"
    /\ A!WatchPredecessor(c)
    /\ seen' = [seen EXCEPT ![c] =
                  IF A!ZK!NodeExists(target[c]) /\ ShowsMark(target[c]) THEN "mark" ELSE "none"]
    /\ UNCHANGED <<marks, holdStep, opData>>

(* getData(<target>, watch=true) again after P's NodeDataChanged (the      *)
(* marker's Rearm).  Exists: wait on the re-armed watch; the change was a  *)
(* mark only if ShowsMark, otherwise it was the environment's (seen        *)
(* "none": P's deletion will be no grant unless P was known head).         *)
(* NoNode: "verified", the change was never read as a mark: list again;    *)
(* "anyVersion", the change counted as a mark: the grant (as the marker).  *)
Rearm(c) ==
    /\ ~paused[c]
    /\ pc[c] = "watch"
    /\ seen[c] = "changed"
    /\ A!Live(c)
    /\ IF A!ZK!NodeExists(target[c])
       THEN /\ A!ZK!SetWatch(target[c], A!Uuid(c))
            /\ pc' = [pc EXCEPT ![c] = "wait"]
            /\ seen' = [seen EXCEPT ![c] = IF ShowsMark(target[c]) THEN "mark" ELSE "none"]
            /\ UNCHANGED <<target, second, soleBlocker>>
       ELSE /\ pc' = [pc EXCEPT ![c] = IF DataRule = "verified" THEN "list" ELSE "grant"]
            /\ target' = [target EXCEPT ![c] = A!NoNode]
            /\ seen' = [seen EXCEPT ![c] = "none"]
            /\ IF DataRule = "verified"
               THEN /\ second' = [second EXCEPT ![c] = A!NoNode]
                    /\ soleBlocker' = [soleBlocker EXCEPT ![c] = FALSE]
               ELSE UNCHANGED <<second, soleBlocker>>
            /\ UNCHANGED <<nodes, nextSeq, zxid, live, watches, inbox, pending>>
    /\ UNCHANGED <<sess, reqNo, node, token, tenure, paused, faults, grants, lastToken,
                   resHigh, resTenure, marks, holdStep, opData>>

(* setData(<own node>, <mark record>, version 0): the marker's Mark, on a  *)
(* node no operator wrote.                                                 *)
Mark(c) == node[c] \notin opData /\ A!Mark(c) /\ UNCHANGED opData

(* The same setData on a node an operator wrote (version 1): BadVersion,   *)
(* nothing written, no watch fires.  The holder does not mark; its own-    *)
(* node watch is next (WatchOwn), as after SkipMark.                       *)
MarkRefused(c) ==
    /\ ~paused[c]
    /\ pc[c] = "hold"
    /\ holdStep[c] = "mark"
    /\ A!Live(c)
    /\ A!OwnNodeExists(c)
    /\ node[c] \in opData
    /\ holdStep' = [holdStep EXCEPT ![c] = "own"]
    /\ UNCHANGED <<nodes, nextSeq, zxid, live, watches, inbox, pending, pc, sess, reqNo,
                   node, target, second, soleBlocker, token, tenure, paused, faults, grants,
                   lastToken, resHigh, resTenure, marks, seen, opData>>

(* The operator's setData of non-mark data on the lock node of seq s,      *)
(* waiting or holding (the environment; at most MaxForeignSets of them):   *)
(* one write transaction; a mark on it is overwritten; every watch on it   *)
(* fires with NodeDataChanged (the marker's SetData, without the mark).    *)
ForeignSetData(s) ==
    /\ Cardinality(opData) < MaxForeignSets
    /\ s \in A!Seqs(nodes) \ opData
    /\ LET fired == {w \in watches : w.node = s}
       IN  /\ watches' = watches \ fired
           /\ inbox' = [d \in Clients |->
                           inbox[d] \o A!ZK!SortWatches(
                               {[node |-> A!Changed(w.node), req |-> w.req] :
                                   w \in {x \in fired : x.req[1] = d}})]
    /\ zxid' = zxid + 1
    /\ marks' = marks \ {s}
    /\ opData' = opData \cup {s}
    /\ UNCHANGED <<nodes, nextSeq, live, pending, pc, sess, reqNo, node, target, second,
                   soleBlocker, token, tenure, paused, faults, grants, lastToken, resHigh,
                   resTenure, seen, holdStep>>

-----------------------------------------------------------------------------
\* An adaptive client's waiting steps (PredecessorLockAdaptive's AWaits).
Waits(c) ==
    \/ AListChildren(c)
    \/ AWatchSecond(c)
    \/ AWatchPredecessor(c)
    \/ MarkSeen(c)
    \/ Rearm(c)
    \/ SecondMarked(c)
    \/ GrantOnMarkedGone(c)
    \/ AGrantOnHeadGone(c)
    \/ APredecessorGone(c)

ClientNext(c) ==
    \/ MRequestLock(c)
    \/ MCreateOk(c)
    \/ MCreateReplyLost(c)
    \/ MFindOwnNode(c)
    \/ Waits(c)
    \/ MIgnoreNotification(c)
    \/ MGrant(c)
    \/ Mark(c)
    \/ MarkRefused(c)
    \/ SkipMark(c)
    \/ WatchOwn(c)
    \/ MWrite(c)
    \/ MRelease(c)
    \/ MCancel(c)
    \/ MLearnExpiry(c)

AFNext ==
    \/ \E c \in Clients : ClientNext(c)
    \/ \E s \in A!Sessions : MExpireSession(s)
    \/ \E c \in Clients : MPauseClient(c) \/ MResumeClient(c)
    \/ \E u \in Clients \X (1..MaxRequests) : MDeleteLands(u)
    \/ \E s \in 0..MaxSeq : ForeignSetData(s)

AFInit == A!MInit /\ opData = {}

AFSpec == AFInit /\ [][AFNext]_allVars

(* Fairness as AFairSpec's: the steps of a request a client made; the      *)
(* operator's steps get none.                                              *)
Progress(c) ==
    \/ MCreateOk(c) \/ MCreateReplyLost(c) \/ MFindOwnNode(c) \/ MIgnoreNotification(c)
    \/ Waits(c)
    \/ MGrant(c) \/ Mark(c) \/ MarkRefused(c) \/ SkipMark(c) \/ WatchOwn(c) \/ MRelease(c)
    \/ MLearnExpiry(c)

AFFairSpec ==
    /\ AFSpec
    /\ \A c \in Clients : WF_allVars(Progress(c))
    /\ \A c \in Clients : WF_allVars(MResumeClient(c))
    /\ WF_allVars(\E s \in A!Sessions : A!Abandoned(s) /\ MExpireSession(s))
    /\ \A c \in Clients : WF_allVars(\E r \in 1..MaxRequests : MDeleteLands(<<c, r>>))

-----------------------------------------------------------------------------
(* Properties: PredecessorLockAdaptive's, on this module's states.         *)
AFTypeOK == A!MTypeOK /\ opData \subseteq 0..MaxSeq
MutualExclusion == A!MutualExclusion
NaiveExclusion == A!NaiveExclusion
NoHerd == A!NoHerd
NoOrphans == A!NoOrphans
GrantsInSequenceOrder == A!GrantsInSequenceOrder
KnownNodeExists == A!KnownNodeExists
MarkIsHead == A!MarkIsHead
MarkedTargetIsHead == A!MarkedTargetIsHead
TokensIncrease == A!TokensIncrease
FencedSafety == A!FencedSafety
StarvationFree == A!StarvationFree

\* PredecessorLockMarked's OwnWriteSilent, where no operator wrote: an
\* operator's set on a held node fires its own-node watch (the holder
\* ignores it, MIgnoreNotification); the holder's own mark never does.
OwnMarkSilent ==
    \A c \in Clients :
        node[c] \notin opData =>
            \A i \in DOMAIN inbox[c] : inbox[c][i] # [node |-> A!Changed(node[c]), req |-> A!Uuid(c)]
=============================================================================
