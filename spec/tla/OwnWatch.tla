------------------------------- MODULE OwnWatch -------------------------------
(***************************************************************************)
(* A held node is watched (impl/zklock ownwatch.go).  An outsider who      *)
(* deletes the holder's lock node (an operator's runbook step for a stuck  *)
(* lock, a clean-up script: ForeignDelete) hands the lock to the next      *)
(* waiter at once; one who deletes it and makes a node of the same name    *)
(* (ForeignReplace), at a matching data version, lets a guarded write (a   *)
(* multi that checks the node: Lease.Guard, Leadership.Proclaim) pass on   *)
(* a stranger's node.  The lease's defence is one watch on its own node    *)
(* while held: the deletion's event ends the holder's belief                *)
(* (LearnNodeGone), and, because ZooKeeper sends a watch event before the  *)
(* reply of any request the server handled after the change, on the same  *)
(* connection, a guarded write whose reply comes behind that event is      *)
(* reported as "lost, and it may have applied" (ErrMaybeApplied), never as *)
(* a success.                                                              *)
(*                                                                         *)
(* The lock is PredecessorLock's queue reduced to what the property needs: *)
(* a request creates its node (no lost reply), lists, and either holds     *)
(* (its node first) or watches its predecessor and lists again on the      *)
(* event; no hand-off in one notification, no second watch, no faults of  *)
(* the session (expiry, loss timer, pauses: PredecessorLock has them and   *)
(* none of them interacts with an outsider's write, which is a fault of    *)
(* its own here, bounded by MaxForeign).  The server is ZooKeeper.tla,    *)
(* with its ForeignDelete and ForeignReplace.  The outsider's node is      *)
(* owned by the session <<Stranger, 0>>, none of the clients'.             *)
(*                                                                         *)
(* WatchOwn = TRUE is the code: the grant sends a getData with a watch on  *)
(* our node (ArmOwnWatch), and Guard waits for its reply.                  *)
(* WatchOwn = FALSE is the code before (nothing watches a held node): the  *)
(* must-fail configs OwnWatch.NoOwnWatch (BeliefExclusion: two clients     *)
(* believe they hold and neither has anything pending that would tell it) *)
(* and OwnWatch.UnwatchedGuard (GuardNeverLies: a guarded write through a  *)
(* stranger's node reported as ours).                                      *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets

CONSTANTS
    Clients,        \* the client processes (model values)
    MaxRequests,    \* lock requests each client may make
    MaxSeq,         \* bound on the parent's sequence counter
    MaxForeign,     \* budget of the outsider's steps
    WatchOwn,       \* a holder watches its own node (the code); FALSE: the code before
    Stranger        \* the outsider (a model value): its node's owner is <<Stranger, 0>>

ASSUME MaxRequests \in Nat /\ MaxSeq \in Nat /\ MaxForeign \in Nat /\ WatchOwn \in BOOLEAN

VARIABLES
    \* ---- ZooKeeper server (ZooKeeper.tla) ----
    nodes, nextSeq, zxid, live, watches, inbox, pending,
    \* ---- clients ----
    pc,         \* "idle", "list", "wait" or "hold"
    reqNo,      \* number of the client's current (or last) request
    node,       \* seq of the client's own node, NoNode while idle
    armed,      \* a holder's watch on its own node is set (its getData replied)
    gw,         \* the client's guarded write: "none", "sent", or landed: "ours",
                \* "theirs" (through a stranger's node), "failed" (no node of the name)
    gseq,       \* the seq of the node the guarded write checks, NoNode if none
    \* ---- the outsider's budget and history ----
    foreign,    \* the outsider's steps so far
    falseOk     \* a guarded write through a stranger's node was reported a success

zkVars     == <<nodes, nextSeq, zxid, live, watches, inbox, pending>>
clientVars == <<pc, reqNo, node, armed, gw, gseq>>
vars       == <<zkVars, clientVars, foreign, falseOk>>

NoNode == -1
Parent == -2
Name(n) == n.seq
NameLess(a, b) == a < b
ZK == INSTANCE ZooKeeper

Sess(c) == <<c, 1>>              \* no session faults here: every client keeps its first
Uuid(c) == <<c, reqNo[c]>>
Seqs(S) == {n.seq : n \in S}
Max(S) == CHOOSE x \in S : \A y \in S : y <= x
Min(S) == CHOOSE x \in S : \A y \in S : x <= y
Outsider == <<Stranger, 0>>
NodeOf(c, r, s, z) == [seq |-> s, owner |-> Sess(c), uuid |-> <<c, r>>, czxid |-> z]
StrangerNode(s, z) == [seq |-> s, owner |-> Outsider, uuid |-> Outsider, czxid |-> z]
OwnNodeExists(c) == \E n \in nodes : n.seq = node[c] /\ n.owner = Sess(c) /\ n.uuid = Uuid(c)
Named(s) == {n \in nodes : n.seq = s}

\* The event of the watch on our own node, of our current request.
OwnEvent(c) == [node |-> node[c], req |-> Uuid(c)]
\* That event is delivered and not yet taken.
Notified(c) == \E i \in DOMAIN inbox[c] : inbox[c][i] = OwnEvent(c)
\* The grant's getData with a watch on our node is sent and not answered:
\* its reply tells the holder whether the node is (still) its own.
ArmingPending(c) == WatchOwn /\ pc[c] = "hold" /\ ~armed[c]
\* What will end a holder's belief without any further request of its own.
Stale(c) == Notified(c) \/ ArmingPending(c)

Idle(c) ==
    /\ pc' = [pc EXCEPT ![c] = "idle"]
    /\ node' = [node EXCEPT ![c] = NoNode]
    /\ armed' = [armed EXCEPT ![c] = FALSE]

-----------------------------------------------------------------------------
TypeOK ==
    /\ ZK!TypeOK([seq : 0..MaxSeq, owner : (Clients \X {1}) \cup {Outsider},
                  uuid : (Clients \X (1..MaxRequests)) \cup {Outsider}, czxid : Nat],
                 0..MaxSeq \cup {Parent}, Clients \X {1}, Clients \X (1..MaxRequests))
    /\ pc \in [Clients -> {"idle", "list", "wait", "hold"}]
    /\ reqNo \in [Clients -> 0..MaxRequests]
    /\ node \in [Clients -> 0..MaxSeq \cup {NoNode}]
    /\ armed \in [Clients -> BOOLEAN]
    /\ gw \in [Clients -> {"none", "sent", "ours", "theirs", "failed"}]
    /\ gseq \in [Clients -> 0..MaxSeq \cup {NoNode}]
    /\ foreign \in 0..MaxForeign
    /\ falseOk \in BOOLEAN

Init ==
    /\ ZK!Init
    /\ pc = [c \in Clients |-> "idle"]
    /\ reqNo = [c \in Clients |-> 0]
    /\ node = [c \in Clients |-> NoNode]
    /\ armed = [c \in Clients |-> FALSE]
    /\ gw = [c \in Clients |-> "none"]
    /\ gseq = [c \in Clients |-> NoNode]
    /\ foreign = 0
    /\ falseOk = FALSE

-----------------------------------------------------------------------------
(* Lock: a new request creates its EPHEMERAL_SEQUENTIAL node (the create's *)
(* reply, which carries the node's seq, is not lost here).  A Guard of the *)
(* previous lease still in flight returns first.                           *)
RequestLock(c) ==
    /\ pc[c] = "idle"
    /\ reqNo[c] < MaxRequests
    /\ gw[c] = "none"
    /\ ZK!CreateNode(LAMBDA s, z : NodeOf(c, reqNo[c] + 1, s, z))
    /\ reqNo' = [reqNo EXCEPT ![c] = @ + 1]
    /\ node' = [node EXCEPT ![c] = nextSeq]
    /\ pc' = [pc EXCEPT ![c] = "list"]
    /\ UNCHANGED <<armed, gw, gseq, foreign, falseOk>>

(* getChildren, and what it shows: our node missing (someone deleted it    *)
(* while we waited: Lock returns ErrLockLost), our node first (the grant;  *)
(* WatchOwn: the grant sends a getData with a watch on our node, answered *)
(* by ArmOwnWatch), or the node just before ours, watched in the same      *)
(* step (getData with a watch; one watch per waiter: no herd).             *)
ListChildren(c) ==
    /\ pc[c] = "list"
    /\ IF ~OwnNodeExists(c)
       THEN /\ Idle(c)
            /\ UNCHANGED zkVars
       ELSE IF node[c] = Min(Seqs(nodes))
       THEN /\ pc' = [pc EXCEPT ![c] = "hold"]
            /\ UNCHANGED <<zkVars, node, armed>>
       ELSE /\ ZK!SetWatch(Max({s \in Seqs(nodes) : s < node[c]}), Uuid(c))
            /\ pc' = [pc EXCEPT ![c] = "wait"]
            /\ UNCHANGED <<node, armed>>
    /\ UNCHANGED <<reqNo, gw, gseq, foreign, falseOk>>

(* The reply to the grant's getData with a watch on our own node          *)
(* (impl/zklock Lease.watchOwnNode, armOwn).  Our node, still ours (its    *)
(* owner our session, its czxid our token): the watch is set.  NoNode, or  *)
(* a node of another owner or czxid (a replacement): the lease ends       *)
(* (ErrNodeDeleted, ErrNodeReplaced).                                      *)
ArmOwnWatch(c) ==
    /\ WatchOwn
    /\ pc[c] = "hold"
    /\ ~armed[c]
    /\ IF OwnNodeExists(c)
       THEN /\ ZK!SetWatch(node[c], Uuid(c))
            /\ armed' = [armed EXCEPT ![c] = TRUE]
            /\ UNCHANGED <<pc, node>>
       ELSE /\ Idle(c)
            /\ UNCHANGED zkVars
    /\ UNCHANGED <<reqNo, gw, gseq, foreign, falseOk>>

(* A waiter's watch of its current request fired: list again.            *)
PredecessorGone(c) ==
    /\ pc[c] = "wait"
    /\ ZK!HasEvent(c)
    /\ ZK!NextEvent(c).req = Uuid(c)
    /\ ZK!TakeEvent(c)
    /\ pc' = [pc EXCEPT ![c] = "list"]
    /\ UNCHANGED <<reqNo, node, armed, gw, gseq, foreign, falseOk>>

(* The holder's watch on its own node fired: the node was deleted (or     *)
(* deleted and made again by someone else: the delete fires the watch).   *)
(* The lease ends at once (Done closes, Err matches ErrNodeDeleted and     *)
(* ErrLockLost), with no request of its own.                               *)
LearnNodeGone(c) ==
    /\ pc[c] = "hold"
    /\ ZK!HasEvent(c)
    /\ ZK!NextEvent(c) = OwnEvent(c)
    /\ ZK!TakeEvent(c)
    /\ Idle(c)
    /\ UNCHANGED <<reqNo, gw, gseq, foreign, falseOk>>

(* An event for no current wait: a watch of an ended request (our own      *)
(* release fires our own node's watch, which the lease's watcher, seeing   *)
(* the lease ended, drops).                                                *)
IgnoreNotification(c) ==
    /\ ZK!HasEvent(c)
    /\ ~(pc[c] = "wait" /\ ZK!NextEvent(c).req = Uuid(c))
    /\ ~(pc[c] = "hold" /\ ZK!NextEvent(c) = OwnEvent(c))
    /\ ZK!TakeEvent(c)
    /\ UNCHANGED <<clientVars, foreign, falseOk>>

(* Unlock: delete our node by name, whatever version (as the code does).   *)
(* The property needs no armed watch here (the code's Unlock waits for it; *)
(* the spec allows both): the delete is ours, and no watch is left on the  *)
(* server either way (a getData handled after the delete sets none; one    *)
(* handled before is fired by it, an event the ended lease drops).         *)
(* The node may be gone already, or a stranger's by now, if the holder     *)
(* has not yet taken the event that says so: the delete then fails        *)
(* (NoNode) or removes the stranger's node.  Either way the lease ends.    *)
Release(c) ==
    /\ pc[c] = "hold"
    /\ gw[c] = "none"
    /\ ZK!DeleteNodes(Named(node[c]))
    /\ Idle(c)
    /\ UNCHANGED <<reqNo, gw, gseq, foreign, falseOk>>

(* Guard (or Proclaim): the multi [check(our node's name, version), write] *)
(* is sent, once the own watch is set (the code waits for it), so that    *)
(* the server handles it after the watch.                                  *)
GuardSend(c) ==
    /\ pc[c] = "hold"
    /\ gw[c] = "none"
    /\ WatchOwn => armed[c]
    /\ gw' = [gw EXCEPT ![c] = "sent"]
    /\ gseq' = [gseq EXCEPT ![c] = node[c]]
    /\ UNCHANGED <<zkVars, pc, reqNo, node, armed, foreign, falseOk>>

(* The server handles the multi: its check names the node and its version, *)
(* and a replacement at a matching version passes it (ZooKeeper.tla's     *)
(* ForeignReplace); no node of the name: nothing applies.  A step of the   *)
(* server.  The write goes to a node outside the lock's parent, so the     *)
(* lock's nodes and watches do not change; nor does zxid, which here only  *)
(* stamps the czxid of later creates, and nothing in this module compares  *)
(* czxids (a holder's own-node check compares its node's owner, which     *)
(* tells a replacement apart as the czxid does): counting the writes      *)
(* would only make the state space infinite.                               *)
GuardLands(c) ==
    /\ gw[c] = "sent"
    /\ LET m == Named(gseq[c]) IN
       gw' = [gw EXCEPT ![c] = IF m = {} THEN "failed"
                               ELSE IF \E n \in m : n.owner = Sess(c) THEN "ours" ELSE "theirs"]
    /\ UNCHANGED <<zkVars, pc, reqNo, node, armed, gseq, foreign, falseOk>>

(* The multi's reply.  Every event the server sent before it is delivered  *)
(* (the lease's watcher takes it before the caller reads the reply: the    *)
(* code waits for the watcher to act on a watch that fired).  Reported a   *)
(* success only if the lease still holds on that node and no event of its *)
(* own node is pending; a multi that applied otherwise is ErrMaybeApplied; *)
(* one that did not apply (its check failed) ends the lease (Guard's       *)
(* recheck finds the node gone).                                           *)
GuardReply(c) ==
    /\ gw[c] \in {"ours", "theirs", "failed"}
    /\ LET held == pc[c] = "hold" /\ node[c] = gseq[c]
           ok   == gw[c] # "failed" /\ held /\ ~Notified(c)
       IN  /\ falseOk' = (falseOk \/ (ok /\ gw[c] = "theirs"))
           /\ IF gw[c] = "failed" /\ held
              THEN Idle(c)
              ELSE UNCHANGED <<pc, node, armed>>
    /\ gw' = [gw EXCEPT ![c] = "none"]
    /\ gseq' = [gseq EXCEPT ![c] = NoNode]
    /\ UNCHANGED <<zkVars, reqNo, foreign>>

-----------------------------------------------------------------------------
(* Environment: the outsider, on the node of sequence number s, whoever's *)
(* (ZooKeeper.tla).  Over the constant range of sequence numbers, so that  *)
(* TLC names each step by its action.                                      *)
ForeignDelete(s) ==
    /\ foreign < MaxForeign
    /\ Named(s) # {}
    /\ ZK!ForeignDelete(CHOOSE n \in Named(s) : TRUE)
    /\ foreign' = foreign + 1
    /\ UNCHANGED <<clientVars, falseOk>>

ForeignReplace(s) ==
    /\ foreign < MaxForeign
    /\ Named(s) # {}
    /\ ZK!ForeignReplace(CHOOSE n \in Named(s) : TRUE, LAMBDA z : StrangerNode(s, z))
    /\ foreign' = foreign + 1
    /\ UNCHANGED <<clientVars, falseOk>>

ClientNext(c) ==
    \/ RequestLock(c)
    \/ ListChildren(c)
    \/ ArmOwnWatch(c)
    \/ PredecessorGone(c)
    \/ LearnNodeGone(c)
    \/ IgnoreNotification(c)
    \/ Release(c)
    \/ GuardSend(c)
    \/ GuardLands(c)
    \/ GuardReply(c)

EnvNext == \E s \in 0..MaxSeq : ForeignDelete(s) \/ ForeignReplace(s)

Next == (\E c \in Clients : ClientNext(c)) \/ EnvNext

Spec == Init /\ [][Next]_vars

-----------------------------------------------------------------------------
(* Properties.                                                             *)

\* No two clients hold while both their lock nodes stand (the server's
\* side of the lock: an outsider cannot break it, only end a tenure).
MutualExclusion ==
    \A c, d \in Clients :
        (c # d /\ pc[c] = "hold" /\ pc[d] = "hold") => ~(OwnNodeExists(c) /\ OwnNodeExists(d))

\* A holder believes in a node that is gone (or not its own any more) at
\* most until one notification: the deletion's event is pending for it, or
\* the reply of the grant's getData that will tell it.
BelievesOnlyWhileNotified ==
    \A c \in Clients : (pc[c] = "hold" /\ ~OwnNodeExists(c)) => Stale(c)

\* Mutual exclusion over beliefs, where an outsider's delete is the cause:
\* two clients believe they hold only while one of them has the event (or
\* the reply) pending that ends its belief, with no request of its own.
BeliefExclusion ==
    \A c, d \in Clients : (c # d /\ pc[c] = "hold" /\ pc[d] = "hold") => Stale(c) \/ Stale(d)

\* A guarded write that went through a stranger's node is never reported
\* as a success (it is ErrMaybeApplied).
GuardNeverLies == ~falseOk

=============================================================================
