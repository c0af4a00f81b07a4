----------------------- MODULE PredecessorLockForeign -----------------------
(***************************************************************************)
(* PredecessorLock with an outsider who deletes or replaces lock nodes     *)
(* (an operator's runbook step for a stuck lock, a clean-up script), and   *)
(* the holder's defence, one watch on its own node (impl/zklock            *)
(* ownwatch.go).  OwnWatch.tla states the rule on a reduced queue, with    *)
(* guarded writes; this module states it on the whole protocol, so that    *)
(* the model the trace validator replays (model/trace) has the outsider's  *)
(* steps (ForeignDelete, ForeignReplace: environment events of a chaos     *)
(* campaign's operator) and the holder's (LearnNodeGone: the lease ends on *)
(* its own-node watch).                                                    *)
(*                                                                         *)
(* The outsider touches a node that no request is acquiring with (a        *)
(* holder's, one whose delete is pending, an abandoned session's, its own  *)
(* replacement): a chaos operator picks a lease holder's node.  Its steps  *)
(* are faults (Fault: MaxFaults bounds them with the others).  A           *)
(* replacement keeps the node's name, so its uuid (the name carries it),   *)
(* and is owned by the session <<Stranger, 0>>, none of the clients'.      *)
(*                                                                         *)
(* WatchOwn = TRUE is the code: after the grant the lease sends a getData  *)
(* with a watch on its node (ArmOwnWatch); its reply finding the node gone *)
(* or not ours, or the watch's event, ends the lease (LearnNodeGone); an   *)
(* Unlock is not sent once the lease has news of its node (ReleaseNamed).  *)
(* WatchOwn = FALSE is the code before: nothing watches a held node (must *)
(* fail BeliefExclusion).                                                  *)
(*                                                                         *)
(* GrantsInSequenceOrder does not hold here, and says nothing wrong: a     *)
(* replacement is a node ahead of the waiters that is no one's lease, and  *)
(* the waiter whose only node ahead was replaced is granted on its         *)
(* deletion's event (GrantOnHeadGone) past it (TLC: RequestLock, CreateOk, *)
(* LearnExpiry, ..., WatchPredecessor, ForeignReplace, GrantOnHeadGone,    *)
(* Grant).  MutualExclusion, over the clients' own nodes, holds.           *)
(***************************************************************************)
EXTENDS PredecessorLock

CONSTANTS
    WatchOwn,   \* a holder watches its own node (the code); FALSE: the code before
    Stranger    \* the outsider (a model value): its node's owner is <<Stranger, 0>>

ASSUME WatchOwn \in BOOLEAN

Outsider == <<Stranger, 0>>

\* The event of the watch on the holder's own node, of its current request.
OwnEvent(c) == [node |-> node[c], req |-> Uuid(c)]
\* That event is delivered and not yet taken.
Notified(c) == \E i \in DOMAIN inbox[c] : inbox[c][i] = OwnEvent(c)
\* The own watch is set, or has fired and its event waits.
Armed(c) == OwnEvent(c) \in watches \/ Notified(c)
\* The grant's getData with a watch is sent and not answered: its reply
\* tells the holder whether the node is (still) its own.
ArmingPending(c) == WatchOwn /\ pc[c] = "hold" /\ ~Armed(c)
\* What ends a holder's belief without any further request of its own.
Stale(c) == Notified(c) \/ ArmingPending(c)
\* A node of the name the holder's node has (its own, or a replacement).
NameExists(c) == \E n \in nodes : n.seq = node[c]

\* The outsider may touch n: no request is acquiring with it.
Touchable(n) == ~\E c \in Clients : pc[c] \in Acquiring /\ n.uuid = Uuid(c) /\ n.owner = Sess(c)

FTypeOK ==
    /\ ZK!TypeOK([seq : 0..MaxSeq, owner : Sessions \cup {Outsider},
                  uuid : Clients \X (1..MaxRequests), czxid : Nat],
                 0..MaxSeq \cup {Parent}, Sessions, Clients \X (1..MaxRequests))
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

-----------------------------------------------------------------------------
(* The reply to the grant's getData with a watch on our own node           *)
(* (impl/zklock Lease.watchOwnNode, armOwn): our node, still ours: the     *)
(* watch is set.  (A node gone or not ours: LearnNodeGone.)                *)
ArmOwnWatch(c) ==
    /\ WatchOwn
    /\ ~paused[c]
    /\ pc[c] = "hold"
    /\ ~Armed(c)
    /\ Live(c)
    /\ OwnNodeExists(c)
    /\ ZK!SetWatch(node[c], Uuid(c))
    /\ UNCHANGED <<clientVars, histVars>>

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
    /\ UNCHANGED <<sess, reqNo, paused, histVars, pending>>

(* IgnoreNotification, but never the holder's own-node event: the lease's *)
(* watcher acts on it (LearnNodeGone).                                     *)
IgnoreOtherNotification(c) ==
    /\ IgnoreNotification(c)
    /\ ~(pc[c] = "hold" /\ ZK!NextEvent(c) = OwnEvent(c))

(* Release, sent only on a name that stands and by a lease whose own      *)
(* watch has not fired (a lease whose node went ends by LearnNodeGone      *)
(* instead).  It needs no armed watch (the code's Unlock waits for the     *)
(* arming reply; the spec allows both): the delete is ours, and no watch   *)
(* is left on the server either way.                                       *)
ReleaseNamed(c) ==
    /\ NameExists(c)
    /\ ~Notified(c)
    /\ Release(c)

-----------------------------------------------------------------------------
(* Environment: the outsider, on the node of sequence number s, whoever's  *)
(* (ZooKeeper.tla's ForeignDelete, ForeignReplace).  Over the constant      *)
(* range of sequence numbers, so that TLC names each step by its action.   *)
ForeignDelete(s) ==
    /\ \E n \in nodes : n.seq = s /\ Touchable(n)
    /\ Fault
    /\ ZK!ForeignDelete(ZK!NodeAt(s))
    /\ UNCHANGED <<clientVars, grants, lastToken, resHigh, resTenure>>

ForeignReplace(s) ==
    /\ \E n \in nodes : n.seq = s /\ Touchable(n)
    /\ Fault
    /\ LET n == ZK!NodeAt(s) IN
       ZK!ForeignReplace(n, LAMBDA z : [seq |-> s, owner |-> Outsider, uuid |-> n.uuid, czxid |-> z])
    /\ UNCHANGED <<clientVars, grants, lastToken, resHigh, resTenure>>

-----------------------------------------------------------------------------
ForeignClientNext(c) ==
    \/ RequestLock(c)
    \/ CreateOk(c)
    \/ CreateReplyLost(c)
    \/ FindOwnNode(c)
    \/ ListChildren(c)
    \/ WatchSecond(c)
    \/ WatchPredecessor(c)
    \/ PredecessorGone(c)
    \/ GrantOnHeadGone(c)
    \/ IgnoreOtherNotification(c)
    \/ Grant(c)
    \/ Write(c)
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
\* pending for it, or the reply of the grant's getData that will tell it.
BelievesOnlyWhileNotified ==
    \A c \in Clients : (pc[c] = "hold" /\ Live(c) /\ ~OwnNodeExists(c)) => Stale(c)

\* Mutual exclusion over beliefs, where an outsider is the cause: two
\* clients believe they hold only while one of them has the event (or the
\* reply) pending that ends its belief, with no request of its own.
BeliefExclusion ==
    \A c, d \in Clients : (c # d /\ pc[c] = "hold" /\ pc[d] = "hold") => Stale(c) \/ Stale(d)

=============================================================================
