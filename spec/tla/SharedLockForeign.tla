--------------------------- MODULE SharedLockForeign ---------------------------
(***************************************************************************)
(* SharedLock (RWMutex) with an outsider who deletes or replaces lock      *)
(* nodes (an operator's runbook step for a stuck lock, a clean-up script), *)
(* and the holder's defence, one watch on its own node (impl/zklock        *)
(* ownwatch.go): PredecessorLockForeign's steps on the read/write lock,    *)
(* so that the model the trace validator replays an RWMutex's lock in      *)
(* (model/trace) has the outsider's steps (ForeignDelete, ForeignReplace)  *)
(* and the holder's (LearnNodeGone).                                       *)
(*                                                                         *)
(* The outsider touches a node that no request is acquiring with (a       *)
(* reader's or a writer's lease node, one whose delete is pending, an      *)
(* abandoned session's, its own replacement).  Its steps are faults        *)
(* (Fault: MaxFaults bounds them with the others).  A replacement keeps    *)
(* the node's name (sequence number and kind) and its uuid (the name       *)
(* carries both), and is owned by the session <<Stranger, 0>>.             *)
(*                                                                         *)
(* WatchOwn = TRUE is the code: after the grant, and after a Downgrade     *)
(* (the watcher arms again on the read node: Lease.keepOwnWatch), the      *)
(* lease sends a getData with a watch on its node (ArmOwnWatch); its reply *)
(* finding the node gone or not ours, or the watch's event, ends the lease *)
(* (LearnNodeGone).  The own watch's event of the write node a Downgrade   *)
(* deletes is no longer the lease's own event (OwnEvent names the node of  *)
(* the lease's kind): the watcher sees the lease moved and arms again, the *)
(* spec drops it (IgnoreOtherNotification).  WatchOwn = FALSE is the code *)
(* before: nothing watches a held node (must fail WriterBeliefExclusion).  *)
(*                                                                         *)
(* Downgrade here is taken on a node that is still the lease's own         *)
(* (DowngradeOwned): a Downgrade racing the outsider (its multi finding    *)
(* the write node gone, or deleting a replacement) is not modelled.        *)
(*                                                                         *)
(* WriterExclusion, GrantsInSequenceOrder and KnownNodeExists do not hold  *)
(* here: they speak of beliefs, or of the clients' nodes alone, and an     *)
(* outsider's delete ends a lease without its holder's step.               *)
(* MutualExclusion, over the clients' own nodes, holds; so do the belief   *)
(* properties below.                                                       *)
(***************************************************************************)
EXTENDS SharedLock

CONSTANTS
    WatchOwn,   \* a holder watches its own node (the code); FALSE: the code before
    Stranger    \* the outsider (a model value): its node's owner is <<Stranger, 0>>

ASSUME WatchOwn \in BOOLEAN

Outsider == <<Stranger, 0>>

\* The event of the watch on the holder's own node (the name of its kind),
\* of its current request.
OwnEvent(c) == [node |-> <<node[c], kind[c]>>, req |-> Uuid(c)]
\* That event is delivered and not yet taken.
Notified(c) == \E i \in DOMAIN inbox[c] : inbox[c][i] = OwnEvent(c)
\* The own watch is set, or has fired and its event waits.
Armed(c) == OwnEvent(c) \in watches \/ Notified(c)
\* The getData with a watch is sent and not answered: its reply tells the
\* holder whether the node is (still) its own.
ArmingPending(c) == WatchOwn /\ pc[c] = "hold" /\ ~Armed(c)
\* What ends a holder's belief without any further request of its own.
Stale(c) == Notified(c) \/ ArmingPending(c)
\* A node of the sequence number the holder's node has (its own, or a
\* replacement).
NameExists(c) == \E n \in nodes : n.seq = node[c]

\* The outsider may touch n: no request is acquiring with it.
Touchable(n) == ~\E c \in Clients : pc[c] \in Acquiring /\ n.uuid = Uuid(c) /\ n.owner = Sess(c)

\* TypeOK with a node's owner in Sessions \cup {Outsider}.
FTypeOK ==
    /\ ZK!TypeOK([seq : 0..MaxSeq, kind : Kinds, owner : Sessions \cup {Outsider},
                  uuid : Clients \X (1..MaxRequests), czxid : Nat],
                 (0..MaxSeq) \X Kinds, Sessions, Clients \X (1..MaxRequests))
    /\ pc \in [Clients -> PCs]
    /\ kind \in [Clients -> Kinds \cup {"none"}]
    /\ sess \in [Clients -> 1..MaxFaults + 1]
    /\ reqNo \in [Clients -> 0..MaxRequests]
    /\ node \in [Clients -> 0..MaxSeq \cup {NoNode}]
    /\ target \in [Clients -> ((0..MaxSeq) \X Kinds) \cup {NoTarget}]
    /\ soleBlocker \in [Clients -> BOOLEAN]
    /\ token \in [Clients -> Nat]
    /\ paused \in [Clients -> BOOLEAN]
    /\ faults \in 0..MaxFaults

-----------------------------------------------------------------------------
(* The reply to the getData with a watch on our own node (impl/zklock      *)
(* Lease.watchOwnNode, keepOwnWatch, armOwn), sent after the grant and     *)
(* after a Downgrade: our node, still ours: the watch is set.  (A node     *)
(* gone or not ours: LearnNodeGone.)                                       *)
ArmOwnWatch(c) ==
    /\ WatchOwn
    /\ ~paused[c]
    /\ pc[c] = "hold"
    /\ ~Armed(c)
    /\ Live(c)
    /\ OwnNodeExists(c)
    /\ ZK!SetWatch(<<node[c], kind[c]>>, Uuid(c))
    /\ UNCHANGED <<clientVars, faults>>

(* The lease ends because its node is gone or not ours (impl/zklock        *)
(* Lease.ownNodeGone: Done closes, Err matches ErrNodeDeleted or           *)
(* ErrNodeReplaced, and ErrLockLost), with no request of its own: the own  *)
(* watch's event is the next one it takes, or the arming getData's reply   *)
(* found no node of ours.  No delete: the node is gone, or a stranger's.   *)
LearnNodeGone(c) ==
    /\ WatchOwn
    /\ ~paused[c]
    /\ pc[c] = "hold"
    /\ \/ /\ ZK!HasEvent(c)
          /\ ZK!NextEvent(c) = OwnEvent(c)
          /\ ZK!TakeEvent(c)
       \/ /\ ~Armed(c)
          /\ Live(c)
          /\ ~OwnNodeExists(c)
          /\ UNCHANGED zkVars
    /\ Idle(c)
    /\ UNCHANGED <<sess, reqNo, paused, faults, pending>>

(* IgnoreNotification, but never the holder's own-node event: the lease's *)
(* watcher acts on it (LearnNodeGone).                                     *)
IgnoreOtherNotification(c) ==
    /\ IgnoreNotification(c)
    /\ ~(pc[c] = "hold" /\ ZK!NextEvent(c) = OwnEvent(c))

(* RUnlock / Unlock (Release), sent only on a name that stands and by a    *)
(* lease whose own watch has not fired (a lease whose node went ends by    *)
(* LearnNodeGone instead).  Unlock does not wait for the arming getData's  *)
(* reply: the delete is ours, so the watch has nothing to tell.            *)
ReleaseNamed(c) ==
    /\ NameExists(c)
    /\ ~Notified(c)
    /\ Release(c)

(* Lease.Downgrade (Downgrade, DowngradeReplyLost) on the lease's own      *)
(* write node: a Downgrade racing the outsider is left out (see above).    *)
DowngradeOwned(c) ==
    /\ OwnNodeExists(c)
    /\ Downgrade(c)

DowngradeReplyLostOwned(c) ==
    /\ OwnNodeExists(c)
    /\ DowngradeReplyLost(c)

-----------------------------------------------------------------------------
(* Environment: the outsider, on the node of sequence number s, whoever's  *)
(* (ZooKeeper.tla's ForeignDelete, ForeignReplace).  Over the constant      *)
(* range of sequence numbers, so that TLC names each step by its action.   *)
(* No two nodes share a sequence number (a Downgrade's multi swaps its    *)
(* write node for its read node in one step), so NodeAt(s) is the node.   *)
ForeignDelete(s) ==
    /\ \E n \in nodes : n.seq = s /\ Touchable(n)
    /\ Fault
    /\ ZK!ForeignDelete(ZK!NodeAt(s))
    /\ UNCHANGED clientVars

ForeignReplace(s) ==
    /\ \E n \in nodes : n.seq = s /\ Touchable(n)
    /\ Fault
    /\ LET n == ZK!NodeAt(s) IN
       ZK!ForeignReplace(n, LAMBDA z : [seq |-> s, kind |-> n.kind, owner |-> Outsider,
                                        uuid |-> n.uuid, czxid |-> z])
    /\ UNCHANGED clientVars

-----------------------------------------------------------------------------
ForeignClientNext(c) ==
    \/ \E k \in Kinds : RequestLock(c, k)
    \/ CreateOk(c)
    \/ CreateReplyLost(c)
    \/ FindOwnNode(c)
    \/ ListChildren(c)
    \/ WatchPredecessor(c)
    \/ PredecessorGone(c)
    \/ GrantOnHeadGone(c)
    \/ IgnoreOtherNotification(c)
    \/ Grant(c)
    \/ DowngradeOwned(c)
    \/ DowngradeReplyLostOwned(c)
    \/ ReleaseNamed(c)
    \/ Cancel(c)
    \/ LearnExpiry(c)
    \/ ArmOwnWatch(c)
    \/ LearnNodeGone(c)

ForeignNext ==
    \/ \E c \in Clients : ForeignClientNext(c)
    \/ EnvNext
    \/ \E s \in 0..MaxSeq : ForeignDelete(s) \/ ForeignReplace(s)

ForeignSpec == Init /\ [][ForeignNext]_vars

-----------------------------------------------------------------------------
(* Properties.                                                             *)

\* A holder on a live session believes in a node that is gone (or not its
\* own any more) at most until one notification: the deletion's event is
\* pending for it, or the reply of the getData that will tell it.
BelievesOnlyWhileNotified ==
    \A c \in Clients : (pc[c] = "hold" /\ Live(c) /\ ~OwnNodeExists(c)) => Stale(c)

\* Exclusion over beliefs, where an outsider is the cause: a client that
\* believes it holds as a writer and another that believes it holds (as a
\* reader or a writer) do so only while one of them has the event (or the
\* reply) pending that ends its belief, with no request of its own.
\* Readers' beliefs may overlap: they share.
WriterBeliefExclusion ==
    \A c, d \in Clients :
        (c # d /\ Holding(c, "write") /\ pc[d] = "hold") => Stale(c) \/ Stale(d)

=============================================================================
