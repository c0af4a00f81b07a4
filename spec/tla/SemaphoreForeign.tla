--------------------------- MODULE SemaphoreForeign ---------------------------
(***************************************************************************)
(* Semaphore with an outsider who deletes or replaces lease nodes (an      *)
(* operator's runbook step for a stuck semaphore, a clean-up script), and  *)
(* the holder's defence, one watch on its own lease node (impl/zklock      *)
(* ownwatch.go): PredecessorLockForeign's steps on the semaphore's leases, *)
(* so that the model the trace validator replays a Semaphore's leases in   *)
(* (model/trace) has the outsider's steps (ForeignDelete, ForeignReplace)  *)
(* and the holder's (LearnNodeGone).                                       *)
(*                                                                         *)
(* The outsider touches any lease node but one whose create is in flight   *)
(* or whose name its acquirer is still looking for (a holder's, a          *)
(* waiter's, an abandoned session's, its own replacement).  Its steps are  *)
(* faults (Fault: MaxFaults bounds them with the others).  A replacement   *)
(* keeps the node's name (its sequence number) and its uuid (the name      *)
(* carries both), and is owned by the session <<Stranger, 0>>.  An         *)
(* acquirer goes by its node's name (Semaphore.take: the listing shows our *)
(* name): a listing without it ends the acquisition (AcquireNodeGone); a   *)
(* replacement counts as ours, and the lease it grants ends by             *)
(* LearnNodeGone (the arming getData finds another owner).                 *)
(*                                                                         *)
(* WatchOwn = TRUE is the code: once the count says the lease is held      *)
(* (Semaphore.grant: Lease.watchOwnNode), the lease sends a getData with a *)
(* watch on its node (ArmOwnWatch); its reply finding the node gone or not *)
(* ours, or the watch's event, ends the lease (LearnNodeGone).  The spec   *)
(* takes both once acquire has returned (pc = "hold"): the reply may come  *)
(* after the internal mutex is released, and until it does the belief is   *)
(* one that news is pending for.  WatchOwn = FALSE is the code before:     *)
(* nothing watches a held lease node (must fail BeliefWithinMax).          *)
(*                                                                         *)
(* AtMostMaxHolders, KnownLeaseExists and NoLeakedLeases do not hold here  *)
(* (or are not defined: a replacement's owner is no client's session):     *)
(* they speak of beliefs, or of the clients' nodes alone, and an           *)
(* outsider's delete ends a lease without its holder's step.               *)
(* AtMostMaxFencedHolders, over the clients' own nodes, holds; so do the   *)
(* belief properties below.                                                *)
(***************************************************************************)
EXTENDS Semaphore

CONSTANTS
    WatchOwn,   \* a holder watches its own lease node (the code); FALSE: the code before
    Stranger    \* the outsider (a model value): its node's owner is <<Stranger, 0>>

ASSUME WatchOwn \in BOOLEAN

Outsider == <<Stranger, 0>>

\* The event of the watch on the holder's own lease node (its name is its
\* sequence number), of its current acquisition.
OwnEvent(c) == [node |-> node[c], req |-> Uuid(c)]
\* That event is delivered and not yet taken.
Notified(c) == \E i \in DOMAIN inbox[c] : inbox[c][i] = OwnEvent(c)
\* The own watch is set, or has fired and its event waits.
Armed(c) == OwnEvent(c) \in watches \/ Notified(c)
\* The getData with a watch is sent and not answered: its reply tells the
\* holder whether the node is (still) its own.
ArmingPending(c) == WatchOwn /\ HoldsLease(c) /\ ~Armed(c)
\* What ends a holder's belief without any further request of its own.
Stale(c) == Notified(c) \/ ArmingPending(c)
\* A lease node of the sequence number the holder's node has (its own, or
\* a replacement).
NameExists(c) == \E n \in nodes : n.seq = node[c]

\* The outsider may touch n: no request is creating it or looking for it.
Touchable(n) == ~\E c \in Clients : pc[c] \in {"create", "find"} /\ n.uuid = Uuid(c) /\ n.owner = Sess(c)

\* TypeOK with a node's owner in Sessions \cup {Outsider}.
FTypeOK ==
    /\ ZK!TypeOK([seq : 0..MaxSeq, owner : Sessions \cup {Outsider}, uuid : Uuids, czxid : Nat],
                 0..MaxSeq \cup {Parent}, Sessions, Uuids)
    /\ pc \in [Clients -> PCs]
    /\ sess \in [Clients -> 1..MaxFaults + 1]
    /\ reqNo \in [Clients -> 0..MaxRequests]
    /\ node \in [Clients -> 0..MaxSeq \cup {NoNode}]
    /\ paused \in [Clients -> BOOLEAN]
    /\ mutex \in Sessions \cup {NoSession}
    /\ faults \in 0..MaxFaults

-----------------------------------------------------------------------------
(* The reply to the getData with a watch on our own lease node (impl/      *)
(* zklock Semaphore.grant: Lease.watchOwnNode, keepOwnWatch, armOwn): our  *)
(* node, still ours: the watch is set.  (A node gone or not ours:          *)
(* LearnNodeGone.)                                                         *)
ArmOwnWatch(c) ==
    /\ WatchOwn
    /\ ~paused[c]
    /\ pc[c] = "hold"
    /\ ~Armed(c)
    /\ Live(c)
    /\ OwnLeaseExists(c)
    /\ ZK!SetWatch(node[c], Uuid(c))
    /\ UNCHANGED <<clientVars, mutex, faults>>

(* The lease ends because its node is gone or not ours (impl/zklock        *)
(* Lease.ownNodeGone: Done closes, Err matches ErrNodeDeleted or           *)
(* ErrNodeReplaced, and ErrLockLost; traceNodeGone), with no request of    *)
(* its own: the own watch's event is the next one it takes, or the arming  *)
(* getData's reply found no node of ours.  No delete: the node is gone, or *)
(* a stranger's.                                                           *)
LearnNodeGone(c) ==
    /\ WatchOwn
    /\ ~paused[c]
    /\ pc[c] = "hold"
    /\ \/ /\ ZK!HasEvent(c)
          /\ ZK!NextEvent(c) = OwnEvent(c)
          /\ ZK!TakeEvent(c)
       \/ /\ ~Armed(c)
          /\ Live(c)
          /\ ~OwnLeaseExists(c)
          /\ UNCHANGED zkVars
    /\ Idle(c)
    /\ UNCHANGED <<sess, reqNo, paused, mutex, faults>>

(* IgnoreNotification, but never the holder's own-node event: the lease's  *)
(* watcher acts on it (LearnNodeGone).                                     *)
IgnoreOtherNotification(c) ==
    /\ IgnoreNotification(c)
    /\ ~(pc[c] = "hold" /\ ZK!NextEvent(c) = OwnEvent(c))

(* Lease.Close (ReleaseLease), sent only on a name that stands and by a    *)
(* lease whose own watch has not fired (a lease whose node went ends by    *)
(* LearnNodeGone instead).  Close does not wait for the arming getData's   *)
(* reply: the delete is ours, so the watch has nothing to tell.  A delete  *)
(* by name removes an outsider's replacement too.                          *)
ReleaseNamed(c) ==
    /\ NameExists(c)
    /\ ~Notified(c)
    /\ ReleaseLease(c)

(* ListLeases (getChildren(P/leases, watch)), taken only while the         *)
(* listing shows our node's name (ours, or a replacement: the code         *)
(* compares names).                                                        *)
ListLeasesNamed(c) ==
    /\ NameExists(c)
    /\ ListLeases(c)

(* The listing does not show our node's name (Semaphore.take: "our lease   *)
(* node was deleted while we waited"): the acquisition fails with          *)
(* ErrLockLost and releases the internal mutex, deleting nothing (the      *)
(* code's CancelAcquire then finds no node of ours).  The listing's watch  *)
(* stays behind and fires harmlessly.                                      *)
AcquireNodeGone(c) ==
    /\ ~paused[c]
    /\ pc[c] = "list"
    /\ Live(c)
    /\ ~NameExists(c)
    /\ mutex' = Freed(Sess(c))
    /\ Idle(c)
    /\ UNCHANGED <<zkVars, sess, reqNo, paused, faults>>

-----------------------------------------------------------------------------
(* Environment: the outsider, on the lease node of sequence number s,      *)
(* whoever's (ZooKeeper.tla's ForeignDelete, ForeignReplace).  Over the    *)
(* constant range of sequence numbers, so that TLC names each step by its  *)
(* action.  Sequence numbers are never reused, so NodeAt(s) is the node.   *)
ForeignDelete(s) ==
    /\ \E n \in nodes : n.seq = s /\ Touchable(n)
    /\ Fault
    /\ ZK!ForeignDelete(ZK!NodeAt(s))
    /\ UNCHANGED <<clientVars, mutex>>

ForeignReplace(s) ==
    /\ \E n \in nodes : n.seq = s /\ Touchable(n)
    /\ Fault
    /\ LET n == ZK!NodeAt(s) IN
       ZK!ForeignReplace(n, LAMBDA z : [seq |-> s, owner |-> Outsider, uuid |-> n.uuid, czxid |-> z])
    /\ UNCHANGED <<clientVars, mutex>>

-----------------------------------------------------------------------------
ForeignClientNext(c) ==
    \/ AcquireInternal(c)
    \/ CreateLease(c)
    \/ CreateLeaseReplyLost(c)
    \/ FindOwnLease(c)
    \/ ListLeasesNamed(c)
    \/ LeasesChanged(c)
    \/ IgnoreOtherNotification(c)
    \/ ReleaseInternal(c)
    \/ ReleaseNamed(c)
    \/ CancelAcquire(c)
    \/ LearnExpiry(c)
    \/ ArmOwnWatch(c)
    \/ LearnNodeGone(c)
    \/ AcquireNodeGone(c)

ForeignNext ==
    \/ \E c \in Clients : ForeignClientNext(c)
    \/ \E s \in Sessions : ExpireSession(s)
    \/ \E c \in Clients : PauseClient(c) \/ ResumeClient(c)
    \/ \E s \in 0..MaxSeq : ForeignDelete(s) \/ ForeignReplace(s)

ForeignSpec == Init /\ [][ForeignNext]_vars

-----------------------------------------------------------------------------
(* Properties.                                                             *)

\* A holder on a live session believes in a lease node that is gone (or
\* not its own any more) at most until one notification: the deletion's
\* event is pending for it, or the reply of the getData that will tell it.
BelievesOnlyWhileNotified ==
    \A c \in Clients : (HoldsLease(c) /\ Live(c) /\ ~OwnLeaseExists(c)) => Stale(c)

\* AtMostMaxHolders where an outsider is the cause: more than MaxLeases
\* clients believe they hold a lease only while the surplus have the event
\* (or the reply) pending that ends their belief, with no request of their
\* own: at most MaxLeases believers have no news pending.
BeliefWithinMax == Cardinality({c \in Clients : HoldsLease(c) /\ ~Stale(c)}) <= MaxLeases

=============================================================================
