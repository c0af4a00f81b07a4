------------------------ MODULE PredecessorLockMarked ------------------------
(***************************************************************************)
(* Issue 38: learn "you are next" without re-reading the queue.            *)
(*                                                                         *)
(* PredecessorLock with the MARKER hand-off.  The new holder marks its own *)
(* node at the grant (setData of its identity and grant time: Mark).  A    *)
(* marking waiter watches only its predecessor, with getData (a data       *)
(* watch, which fires on setData and on delete), and reads its data in the *)
(* same server step.  Its rules:                                           *)
(*   - the watch fires with NodeDataChanged: the predecessor marked, so it *)
(*     holds; the event is NOT the grant.  The waiter re-arms the same     *)
(*     watch with getData (Rearm), which reads the mark;                   *)
(*   - the predecessor is deleted after the waiter read its mark (or the   *)
(*     re-arm finds it gone after its NodeDataChanged): the grant, without *)
(*     listing (GrantOnMarkedGone, Rearm);                                 *)
(*   - it is deleted while the waiter never saw a mark (a cancel, a        *)
(*     session expiry, a holder that released before marking): list again *)
(*     (UnmarkedGone), exactly as today.                                   *)
(* No second watch, no re-listing per acquisition: after the join a hand-  *)
(* off moves O(1) bytes.  Why a read mark makes the deletion the grant:    *)
(* only a holder marks (MarkIsHead), a holder's node has no node before it *)
(* (GrantsInSequenceOrder), no node created later sorts before it, and    *)
(* the listing that chose the predecessor showed nothing between it and   *)
(* our node: once the marked predecessor is gone, nothing is before ours.  *)
(*                                                                         *)
(* Mixed queue: the clients in Plain never mark and wait by today's rule  *)
(* (PredecessorLock's ListChildren, WatchSecond, WatchPredecessor,         *)
(* PredecessorGone, GrantOnHeadGone): Apache Curator's InterProcessMutex   *)
(* and zklock before the marker.  A marking waiter behind a Plain holder   *)
(* never sees a mark and lists again at its deletion (today's cost); a     *)
(* Plain waiter behind a marking holder is woken by the mark and lists     *)
(* again (PredecessorGone: any event of the request), one listing more.    *)
(*                                                                         *)
(* The holder's own-node watch (a holder keeps a watch on its own node     *)
(* while it holds; an outsider's delete ends the lease) is armed AFTER the *)
(* mark (WatchOwn), with getData, which reads the mark back: the holder's  *)
(* own setData never fires its own watch (OwnWriteSilent).                 *)
(*                                                                         *)
(* Outsiders (WithForgery) may setData on any lock node (ForgeMark): a     *)
(* forged mark, even one carrying the node's session id and czxid (both    *)
(* readable with exists), is indistinguishable from a real one, and with a *)
(* cancel behind it breaks MutualExclusion (ForgedMark must fail).  An     *)
(* outsider allowed to write the lock's children can as well delete the    *)
(* holder's node, which breaks every ZooKeeper lock: the marker protocol  *)
(* does not widen what such a writer can do; ACLs are the defence.         *)
(*                                                                         *)
(* MarkRule selects the protocol or one of its must-fail mutants:          *)
(*   "sound"          the rules above                                      *)
(*   "markIsGrant"    the NodeDataChanged event taken as the grant         *)
(*   "unmarkedGrant"  the deletion of a predecessor never seen marked      *)
(*                    taken as the grant, without listing                  *)
(*   "noRearm"        after NodeDataChanged the waiter waits without       *)
(*                    re-arming: the one-shot watch is spent, it starves   *)
(*                                                                         *)
(* The ZooKeeper side is ZooKeeper.tla (through PredecessorLock's ZK); the *)
(* one write it lacks, setData, is SetData below, built from its parts.    *)
(* A NodeDataChanged event is a record of the inbox's shape, [node, req],  *)
(* whose node is Changed(seq) (a negative name no node or watch has).      *)
(***************************************************************************)
EXTENDS PredecessorLock

CONSTANTS
    Plain,          \* clients that never mark: Curator, zklock before the marker
    MarkRule,       \* "sound" or a must-fail mutant, see above
    WithForgery     \* an outsider may setData on lock nodes (a fault)

ASSUME Plain \subseteq Clients
ASSUME MarkRule \in {"sound", "markIsGrant", "unmarkedGrant", "noRearm"}
ASSUME WithForgery \in BOOLEAN

VARIABLES
    marks,      \* server: seqs of the nodes whose data carries a mark
    seen,       \* client: what a marking waiter knows of its target: "none", "mark"
                \* (its last getData read a mark), "changed" (its NodeDataChanged
                \* was taken, the re-arm is next)
    holdStep    \* client: a marking holder's next step: "mark", "own" or "none"

markVars == <<marks, seen, holdStep>>
allVars  == <<vars, markVars>>

-----------------------------------------------------------------------------
(* The name a NodeDataChanged event for node seq s carries (Parent is -2). *)
Changed(s) == -3 - s
ChangedNames == {Changed(s) : s \in 0..MaxSeq}

Marking == Clients \ Plain

(* setData on the existing node of seq s (one write transaction): its data *)
(* now carries a mark and every watch on it fires with NodeDataChanged     *)
(* (Programmer's Guide, "ZooKeeper Watches": getData and exists watches    *)
(* fire on setData).  The events are queued as ZooKeeper.tla queues a      *)
(* transaction's events (SortWatches).                                     *)
SetData(s) ==
    LET fired == {w \in watches : w.node = s}
    IN  /\ marks' = marks \cup {s}
        /\ watches' = watches \ fired
        /\ inbox' = [d \in Clients |->
                        inbox[d] \o ZK!SortWatches({[node |-> Changed(w.node), req |-> w.req] :
                                                    w \in {x \in fired : x.req[1] = d}})]
        /\ zxid' = zxid + 1
        /\ UNCHANGED <<nodes, nextSeq, live, pending>>

MTypeOK ==
    /\ ZK!TypeOK([seq : 0..MaxSeq, owner : Sessions,
                  uuid : Clients \X (1..MaxRequests), czxid : Nat],
                 0..MaxSeq \cup {Parent} \cup ChangedNames, Sessions, Clients \X (1..MaxRequests))
    \* PredecessorLock's TypeOK without its ZK part (whose event names have
    \* no Changed(s)):
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
    \* The marker's variables:
    /\ marks \subseteq 0..MaxSeq
    /\ seen \in [Clients -> {"none", "changed", "mark"}]
    /\ holdStep \in [Clients -> {"mark", "own", "none"}]

MInit ==
    /\ Init
    /\ marks = {}
    /\ seen = [c \in Clients |-> "none"]
    /\ holdStep = [c \in Clients |-> "none"]

-----------------------------------------------------------------------------
(***************************************************************************)
(* The marking client's waiting steps.                                     *)
(***************************************************************************)

(* getChildren(<lock>), no watch.  No node before ours: the lock is ours.  *)
(* Otherwise the node immediately before ours is the target; no second.    *)
MListChildren(c) ==
    /\ c \in Marking
    /\ ~paused[c]
    /\ pc[c] = "list"
    /\ Live(c)
    /\ LET before == {n \in nodes : n.seq < node[c]}
       IN  IF before = {}
           THEN /\ pc' = [pc EXCEPT ![c] = "grant"]
                /\ UNCHANGED target
           ELSE /\ pc' = [pc EXCEPT ![c] = "watch"]
                /\ target' = [target EXCEPT ![c] = Max(Seqs(before))]
    /\ UNCHANGED <<zkVars, sess, reqNo, node, second, soleBlocker, token, tenure, paused,
                   histVars, pending, markVars>>

(* getData(<target>, watch=true): read its data and arm a data watch in    *)
(* one server step.  Exists: wait, knowing whether it is marked.  NoNode:  *)
(* no watch, list again.                                                   *)
MWatchPredecessor(c) ==
    /\ c \in Marking
    /\ ~paused[c]
    /\ pc[c] = "watch"
    /\ seen[c] = "none"
    /\ Live(c)
    /\ IF ZK!NodeExists(target[c])
       THEN /\ ZK!SetWatch(target[c], Uuid(c))
            /\ pc' = [pc EXCEPT ![c] = "wait"]
            /\ seen' = [seen EXCEPT ![c] = IF target[c] \in marks THEN "mark" ELSE "none"]
            /\ UNCHANGED target
       ELSE /\ pc' = [pc EXCEPT ![c] = "list"]
            /\ target' = [target EXCEPT ![c] = NoNode]
            /\ UNCHANGED <<zkVars, pending, seen>>
    /\ UNCHANGED <<sess, reqNo, node, second, soleBlocker, token, tenure, paused, histVars,
                   marks, holdStep>>

\* The head of marking client c's inbox is an event of its current request
\* while it waits.
MyEvent(c) ==
    /\ c \in Marking
    /\ ~paused[c]
    /\ ZK!HasEvent(c)
    /\ ZK!NextEvent(c).req = Uuid(c)
    /\ pc[c] = "wait"

(* NodeDataChanged on the target: it marked, so it holds.  "sound": re-arm *)
(* (Rearm, which reads the mark).  "markIsGrant": the event taken as the   *)
(* grant (must fail MutualExclusion).  "noRearm": back to waiting on the   *)
(* spent one-shot watch (must fail StarvationFree).                        *)
MarkSeen(c) ==
    /\ MyEvent(c)
    /\ ZK!NextEvent(c) = [node |-> Changed(target[c]), req |-> Uuid(c)]
    /\ ZK!TakeEvent(c)
    /\ CASE MarkRule = "markIsGrant" ->
                /\ pc' = [pc EXCEPT ![c] = "grant"]
                /\ target' = [target EXCEPT ![c] = NoNode]
                /\ seen' = [seen EXCEPT ![c] = "none"]
          [] MarkRule = "noRearm" ->
                /\ seen' = [seen EXCEPT ![c] = "mark"]
                /\ UNCHANGED <<pc, target>>
          [] OTHER ->
                /\ pc' = [pc EXCEPT ![c] = "watch"]
                /\ seen' = [seen EXCEPT ![c] = "changed"]
                /\ UNCHANGED target
    /\ UNCHANGED <<sess, reqNo, node, second, soleBlocker, token, tenure, paused,
                   histVars, marks, holdStep>>

(* getData(<target>, watch=true) again after its NodeDataChanged.  Exists: *)
(* wait on the re-armed watch, knowing the mark.  NoNode: the target       *)
(* marked (only a holder writes its node) and is gone since: the grant.    *)
Rearm(c) ==
    /\ c \in Marking
    /\ ~paused[c]
    /\ pc[c] = "watch"
    /\ seen[c] = "changed"
    /\ Live(c)
    /\ IF ZK!NodeExists(target[c])
       THEN /\ ZK!SetWatch(target[c], Uuid(c))
            /\ pc' = [pc EXCEPT ![c] = "wait"]
            /\ seen' = [seen EXCEPT ![c] = IF target[c] \in marks THEN "mark" ELSE "none"]
            /\ UNCHANGED target
       ELSE /\ pc' = [pc EXCEPT ![c] = "grant"]
            /\ target' = [target EXCEPT ![c] = NoNode]
            /\ seen' = [seen EXCEPT ![c] = "none"]
            /\ UNCHANGED <<zkVars, pending>>
    /\ UNCHANGED <<sess, reqNo, node, second, soleBlocker, token, tenure, paused, histVars,
                   marks, holdStep>>

(* NodeDeleted of the target, whose mark the waiter read: the grant,       *)
(* without listing (one notification, no bytes of the queue).              *)
GrantOnMarkedGone(c) ==
    /\ MyEvent(c)
    /\ ZK!NextEvent(c) = [node |-> target[c], req |-> Uuid(c)]
    /\ seen[c] = "mark"
    /\ ZK!TakeEvent(c)
    /\ pc' = [pc EXCEPT ![c] = "grant"]
    /\ target' = [target EXCEPT ![c] = NoNode]
    /\ seen' = [seen EXCEPT ![c] = "none"]
    /\ UNCHANGED <<sess, reqNo, node, second, soleBlocker, token, tenure, paused, histVars,
                   marks, holdStep>>

(* NodeDeleted of a target never seen marked (it cancelled, its session    *)
(* expired, or it released before marking), or any other event of the     *)
(* request: list again (Locks step 5).  "unmarkedGrant" takes the deletion *)
(* of the target as the grant instead (must fail MutualExclusion).         *)
UnmarkedGone(c) ==
    /\ MyEvent(c)
    /\ ZK!NextEvent(c) # [node |-> Changed(target[c]), req |-> Uuid(c)]
    /\ ~(ZK!NextEvent(c) = [node |-> target[c], req |-> Uuid(c)] /\ seen[c] = "mark")
    /\ ZK!TakeEvent(c)
    /\ pc' = [pc EXCEPT ![c] =
                IF MarkRule = "unmarkedGrant" /\ ZK!NextEvent(c).node = target[c]
                THEN "grant" ELSE "list"]
    /\ target' = [target EXCEPT ![c] = NoNode]
    /\ seen' = [seen EXCEPT ![c] = "none"]
    /\ UNCHANGED <<sess, reqNo, node, second, soleBlocker, token, tenure, paused, histVars,
                   marks, holdStep>>

-----------------------------------------------------------------------------
(***************************************************************************)
(* The marking client's holding steps.                                     *)
(***************************************************************************)

(* The grant (PredecessorLock's Grant); a marking client then marks.       *)
MGrant(c) ==
    /\ Grant(c)
    /\ holdStep' = [holdStep EXCEPT ![c] = IF c \in Plain THEN "none" ELSE "mark"]
    /\ UNCHANGED <<marks, seen>>

(* setData(<own node>, <session id, czxid, grant time>) on a live session: *)
(* the successor's data watch fires.  Sent at the grant, before Lock       *)
(* returns; the lease does not wait for it (Release may come first: the    *)
(* successor then sees an unmarked deletion and lists).                    *)
Mark(c) ==
    /\ ~paused[c]
    /\ pc[c] = "hold"
    /\ holdStep[c] = "mark"
    /\ Live(c)
    /\ OwnNodeExists(c)
    /\ SetData(node[c])
    /\ holdStep' = [holdStep EXCEPT ![c] = "own"]
    /\ UNCHANGED <<clientVars, histVars, seen>>

(* getData(<own node>, watch=true): the holder's own-node watch, armed     *)
(* after the mark so its own setData does not fire it; it reads the mark   *)
(* back.  Its event (the node deleted by an outsider, or the release)      *)
(* reaches a client that no longer waits for it: IgnoreNotification here   *)
(* (the lease's reaction to an outsider's delete is the own-node watch's   *)
(* spec, not this one's).                                                  *)
WatchOwn(c) ==
    /\ ~paused[c]
    /\ pc[c] = "hold"
    /\ holdStep[c] = "own"
    /\ Live(c)
    /\ OwnNodeExists(c)
    /\ ZK!SetWatch(node[c], Uuid(c))
    /\ holdStep' = [holdStep EXCEPT ![c] = "none"]
    /\ UNCHANGED <<clientVars, histVars, pending, marks, seen>>

(* An outsider's setData on a lock node (a fault): a forged mark. Only    *)
(* PredecessorLockMarkedForged's Next takes it: no passing config can.    *)
ForgeMark ==
    /\ WithForgery
    /\ Fault
    /\ \E s \in Seqs(nodes) \ marks : SetData(s)
    /\ UNCHANGED <<clientVars, grants, lastToken, resHigh, resTenure, seen, holdStep>>

-----------------------------------------------------------------------------
(* PredecessorLock's steps in this spec, named so that TLC, the model and  *)
(* the trace name each one: the same step with the marker's variables      *)
(* unchanged (M...), or reset at the end of a request (MRelease, MCancel,  *)
(* MLearnExpiry); a Plain client's waiting steps are P....                 *)
MRequestLock(c) == RequestLock(c) /\ UNCHANGED markVars
MCreateOk(c) == CreateOk(c) /\ UNCHANGED markVars
MCreateReplyLost(c) == CreateReplyLost(c) /\ UNCHANGED markVars
MFindOwnNode(c) == FindOwnNode(c) /\ UNCHANGED markVars
PListChildren(c) == c \in Plain /\ ListChildren(c) /\ UNCHANGED markVars
PWatchSecond(c) == c \in Plain /\ WatchSecond(c) /\ UNCHANGED markVars
PWatchPredecessor(c) == c \in Plain /\ WatchPredecessor(c) /\ UNCHANGED markVars
PPredecessorGone(c) == c \in Plain /\ PredecessorGone(c) /\ UNCHANGED markVars
PGrantOnHeadGone(c) == c \in Plain /\ GrantOnHeadGone(c) /\ UNCHANGED markVars
MIgnoreNotification(c) == IgnoreNotification(c) /\ UNCHANGED markVars
MWrite(c) == Write(c) /\ UNCHANGED markVars
MRelease(c) ==
    /\ Release(c)
    /\ seen' = [seen EXCEPT ![c] = "none"]
    /\ holdStep' = [holdStep EXCEPT ![c] = "none"]
    /\ UNCHANGED marks
MCancel(c) ==
    /\ Cancel(c)
    /\ seen' = [seen EXCEPT ![c] = "none"]
    /\ holdStep' = [holdStep EXCEPT ![c] = "none"]
    /\ UNCHANGED marks
MLearnExpiry(c) ==
    /\ LearnExpiry(c)
    /\ seen' = [seen EXCEPT ![c] = "none"]
    /\ holdStep' = [holdStep EXCEPT ![c] = "none"]
    /\ UNCHANGED marks
MExpireSession(s) == ExpireSession(s) /\ UNCHANGED markVars
MPauseClient(c) == PauseClient(c) /\ UNCHANGED markVars
MResumeClient(c) == ResumeClient(c) /\ UNCHANGED markVars
MDeleteLands(u) == DeleteLands(u) /\ UNCHANGED markVars

\* The waiting steps of a marking client.
Waits(c) ==
    \/ MListChildren(c)
    \/ MWatchPredecessor(c)
    \/ MarkSeen(c)
    \/ Rearm(c)
    \/ GrantOnMarkedGone(c)
    \/ UnmarkedGone(c)

\* The waiting steps of a Plain client: today's rule.
PWaits(c) ==
    \/ PListChildren(c)
    \/ PWatchSecond(c)
    \/ PWatchPredecessor(c)
    \/ PPredecessorGone(c)
    \/ PGrantOnHeadGone(c)

MClientNext(c) ==
    \/ MRequestLock(c)
    \/ MCreateOk(c)
    \/ MCreateReplyLost(c)
    \/ MFindOwnNode(c)
    \/ PWaits(c)
    \/ Waits(c)
    \/ MIgnoreNotification(c)
    \/ MGrant(c)
    \/ Mark(c)
    \/ WatchOwn(c)
    \/ MWrite(c)
    \/ MRelease(c)
    \/ MCancel(c)
    \/ MLearnExpiry(c)

MNext ==
    \/ \E c \in Clients : MClientNext(c)
    \/ \E s \in Sessions : MExpireSession(s)
    \/ \E c \in Clients : MPauseClient(c) \/ MResumeClient(c)
    \/ \E u \in Clients \X (1..MaxRequests) : MDeleteLands(u)

MSpec == MInit /\ [][MNext]_allVars

(* Fairness: each client keeps taking the steps of a request it made (as   *)
(* PredecessorLock's Fairness; requesting, writing, cancelling and forging *)
(* get none), a pause ends, an abandoned session is eventually expired,    *)
(* and a client's pending deletes land.                                    *)
MProgress(c) ==
    \/ MCreateOk(c) \/ MCreateReplyLost(c) \/ MFindOwnNode(c) \/ MIgnoreNotification(c)
    \/ PWaits(c)
    \/ Waits(c)
    \/ MGrant(c) \/ Mark(c) \/ WatchOwn(c) \/ MRelease(c) \/ MLearnExpiry(c)

MFairSpec ==
    /\ MSpec
    /\ \A c \in Clients : WF_allVars(MProgress(c))
    /\ \A c \in Clients : WF_allVars(MResumeClient(c))
    /\ WF_allVars(\E s \in Sessions : Abandoned(s) /\ MExpireSession(s))
    /\ \A c \in Clients : WF_allVars(\E r \in 1..MaxRequests : MDeleteLands(<<c, r>>))

-----------------------------------------------------------------------------
(***************************************************************************)
(* Properties (beside PredecessorLock's MutualExclusion, NoHerd,           *)
(* GrantsInSequenceOrder, KnownNodeExists, NoOrphans, TokensIncrease and   *)
(* StarvationFree, checked on this spec as they are).                      *)
(***************************************************************************)

\* Only the head of the queue carries a mark: every node before a marked
\* node is gone.  What makes the deletion of a read mark the grant.
MarkIsHead ==
    \A s \in marks : ZK!NodeExists(s) => \A n \in nodes : s <= n.seq

\* A waiter that read a mark on its target waits on the head: nothing is
\* before its target, and only its target is before its own node.
MarkedTargetIsHead ==
    \A c \in Marking :
        (pc[c] = "wait" /\ seen[c] = "mark" /\ Live(c) /\ ZK!NodeExists(target[c])) =>
            {n \in nodes : n.seq < node[c]} = {ZK!NodeAt(target[c])}

\* The holder's own setData never wakes the holder: its own-node watch is
\* armed after the mark.
OwnWriteSilent ==
    \A c \in Clients :
        \A i \in DOMAIN inbox[c] : inbox[c][i] # [node |-> Changed(node[c]), req |-> Uuid(c)]

\* In a queue of marking clients a node is watched by one waiter at most:
\* a release or a mark wakes one waiter (NoHerd allows a second watcher,
\* the waiter two behind, which only Plain clients have).
OneWatcher ==
    \A t \in {w.node : w \in watches} : Cardinality(Watchers(t)) <= 1

=============================================================================
