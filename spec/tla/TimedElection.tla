---------------------------- MODULE TimedElection ----------------------------
(***************************************************************************)
(* The election's leader question with time: TimedLock's two clients are   *)
(* two candidates, and the one that holds the lock leads (as in Election,  *)
(* where the candidates are the lock's clients).  Nothing is assumed about *)
(* what H believes when the leader expires its session: the leader expires *)
(* it whenever its expiry clock runs out, and H's belief that it leads     *)
(* ends only when its loss rule fires.                                     *)
(*                                                                         *)
(* Every step is TimedLock's step of the same name (TL below, an INSTANCE  *)
(* on this module's constants and variables) with what the election adds:  *)
(*   - a leader PROCLAIMS: it writes a new value to its own node, setData  *)
(*     in one multi with check(own node) (Election's Proclaim).  H's       *)
(*     proclaim is a request like its create: a write F forwards on its    *)
(*     stream to the leader (request kind "proclaim"), which lands only if *)
(*     H's node still exists at the leader when the leader takes it (the   *)
(*     multi's check); C's proclaim is one step on the leader.  At most    *)
(*     one proclaim per leader (the bound that keeps the state space       *)
(*     small: each leader leads once here), and H's last request is its    *)
(*     proclaim's (LockBudget: its lock calls have the others);            *)
(*   - a history of the proclaims that landed, each with the proclaimer's  *)
(*     epoch (its node's czxid, Election's token) and the epoch of the     *)
(*     node at the head at the leader when it landed;                      *)
(*   - hepoch: H's epoch, the czxid of H's node, recorded when its create  *)
(*     lands (H's node may be gone when its proclaim lands; its epoch is   *)
(*     not).                                                               *)
(*                                                                         *)
(* Abstracted: the value written (one proclaim per leader: the epoch names *)
(* it), the setData's zxid (only czxids are read here, and a proclaim does *)
(* not change their order), the data watches a proclaim fires (no one      *)
(* watches here: C polls, as in TimedLock), and the multi's answer: a      *)
(* failed check would tell H its node is gone, but H does not act on it,   *)
(* which only lets H believe longer, the worst case for AtMostOneLeader.   *)
(* H's proclaim's acknowledgement counts for the loss rule as a read's     *)
(* (as a create's: only a sync's counts as proof that the leader heard).   *)
(* H sends no heartbeat (TimedLock's SendRequest is not a step here): its  *)
(* requests are its create, its listing and its proclaim.  With the        *)
(* budget of three, a heartbeat could only take the place of H's listing,  *)
(* and H would never lead: those states answer nothing about leaders, and  *)
(* they were three quarters of the state space (TimedLock and              *)
(* SessionTiming check the loss rule with heartbeats).                     *)
(*                                                                         *)
(* model/timedelection is the Go mirror: keep them in step.                *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets

CONSTANTS
    Timeout, SyncLimit, Drift, Lag, Rule, MaxTime, MaxRequests, MaxFaults, \* SessionTiming's
    H, C, GrantRule    \* TimedLock's

VARIABLES
    \* TimedLock's (see there)
    now, heard, link, faults, touched, lastTouch, expired, granted, reqs, stream,
    nodes, nextSeq, zxid, live, watches, inbox, pending,
    hpc, hreq, hsaw, grantLate, cpc,
    \* the election's
    hepoch,     \* H's epoch: the czxid of H's node once its create landed, 0 before
    proclaimed  \* the proclaims that landed: [epoch: the proclaimer's, head: the head's then]

TL == INSTANCE TimedLock
ST == INSTANCE SessionTiming

\* TimedLock's variable groups, spelled out (as Election spells out the
\* lock's: TLC does not evaluate UNCHANGED of an instance's tuple here).
stVars   == <<now, heard, link, faults, touched, lastTouch, reqs, stream>>
zkVars   == <<nodes, nextSeq, zxid, live, watches, inbox, pending>>
hVars    == <<hpc, hreq, hsaw, grantLate>>
lockVars == <<stVars, expired, granted, zkVars, hVars, cpc>>
ownVars  == <<hepoch, proclaimed>>
vars     == <<lockVars, ownVars>>

\* The czxid of the node at the head of the queue at the leader (there is
\* one whenever a proclaim lands: the proclaimer's).
HeadEpoch == (CHOOSE n \in nodes : \A m \in nodes : n.seq <= m.seq).czxid

\* The czxid of client x's node (x has one).
EpochOf(x) == (CHOOSE n \in TL!NodeOf(x) : TRUE).czxid

\* H has sent its proclaim.
HProclaimed == \E i \in 1..Len(reqs) : reqs[i].kind = "proclaim"

TypeOK ==
    /\ TL!TypeOKKinds(ST!Kinds \cup {"create", "proclaim"})
    /\ hepoch \in Nat
    /\ proclaimed \subseteq [epoch : Nat, head : Nat]

Init ==
    /\ TL!Init
    /\ hepoch = 0
    /\ proclaimed = {}

-----------------------------------------------------------------------------
(* TimedLock's steps (TimedLock.tla says what each models), the election's *)
(* variables unchanged.                                                    *)
Keep == UNCHANGED ownVars

(* H's last request is its proclaim's: its lock calls take the others     *)
(* (MaxRequests - 1 of them, TimedLock's budget in its configs).           *)
LockBudget == Len(reqs) < MaxRequests - 1

Tick              == TL!Tick /\ Keep              \* the clock; the leader pings F
CutLink           == TL!CutLink /\ Keep           \* a fault cuts the F-leader link
HealLink          == TL!HealLink /\ Keep          \* the link heals
ReceiveRequest(i) == TL!ReceiveRequest(i) /\ Keep \* F receives H's request i
AckReply(i)       == TL!AckReply(i) /\ Keep       \* the reply to H's request i arrives
ExpireSession     == TL!ExpireSession /\ Keep     \* the leader expires H's session
HCreate           == TL!HCreate /\ LockBudget /\ Keep \* H's Campaign: its create sent
HList             == TL!HList /\ LockBudget /\ Keep   \* H lists the queue
HGrant            == TL!HGrant /\ Keep            \* H leads: its listing showed it first
HBehind           == TL!HBehind /\ Keep           \* H is behind C: it lists again
HGone             == TL!HGone /\ Keep             \* H's node is gone: its campaign ends
HRelease          == TL!HRelease /\ Keep          \* H resigns: its node deleted
CCreate           == TL!CCreate /\ Keep           \* C's Campaign: its node created
CGrant            == TL!CGrant /\ Keep            \* C leads: first at the leader
CRelease          == TL!CRelease /\ Keep          \* C resigns: its node deleted

(* The leader takes the head of F's stream (TimedLock's LeaderReceive: a   *)
(* ping reply, a sync, H's create).  When H's create lands, H's epoch is   *)
(* its node's czxid.  When it is H's proclaim, the multi's check(H's node) *)
(* runs on the leader: H's node exists, and the setData lands (the history *)
(* records it with the head's epoch then), or it is gone (the session      *)
(* expired) and nothing is written.  Either way F passes the answer back   *)
(* (ST: the request is replied).                                           *)
LeaderReceive ==
    /\ TL!LeaderReceive
    /\ hepoch' = IF \E n \in nodes' : n.owner = TL!HS
                    THEN (CHOOSE n \in nodes' : n.owner = TL!HS).czxid
                    ELSE hepoch
    /\ proclaimed' = IF /\ Head(stream) # 0
                        /\ reqs[Head(stream)].kind = "proclaim"
                        /\ TL!NodeOf(H) # {}
                        THEN proclaimed \cup {[epoch |-> hepoch, head |-> HeadEpoch]}
                        ELSE proclaimed

-----------------------------------------------------------------------------
(* What the election adds: the leaders' proclaims.                         *)

(* H, leading as it believes (granted, its loss deadline not passed: ST's  *)
(* SendRequest), sends its proclaim, once: the multi goes to F, which      *)
(* forwards it on its stream to the leader (LeaderReceive lands it).       *)
HProclaim ==
    /\ hpc = "held"
    /\ ~HProclaimed
    /\ ST!SendRequest("proclaim")
    /\ UNCHANGED <<zkVars, hVars, cpc, ownVars>>

(* C, leading, proclaims once: the multi is one step on the leader, where  *)
(* C's node exists (its session never expires), so the check passes and    *)
(* the setData lands.                                                      *)
CProclaim ==
    /\ cpc = "held"
    /\ TL!NodeOf(C) # {}
    /\ \A p \in proclaimed : p.epoch # EpochOf(C)
    /\ proclaimed' = proclaimed \cup {[epoch |-> EpochOf(C), head |-> HeadEpoch]}
    /\ UNCHANGED <<lockVars, hepoch>>

Next ==
    \/ Tick
    \/ CutLink
    \/ HealLink
    \/ \E i \in 1..MaxRequests : ReceiveRequest(i)
    \/ \E i \in 1..MaxRequests : AckReply(i)
    \/ LeaderReceive
    \/ ExpireSession
    \/ HCreate
    \/ HList
    \/ HGrant
    \/ HBehind
    \/ HGone
    \/ HRelease
    \/ CCreate
    \/ CGrant
    \/ CRelease
    \/ HProclaim
    \/ CProclaim

Spec == Init /\ [][Next]_vars

-----------------------------------------------------------------------------
\* At most one of H and C believes it leads at any instant: H while it
\* holds and its loss rule has not fired, C while it holds (TimedLock's
\* MutualExclusion, in election terms).
AtMostOneLeader == TL!MutualExclusion

\* Every proclaim that landed was written by the node at the head at the
\* leader when it landed.  This is the fence, and it holds even under the
\* rule today, when H may still believe it leads after the leader expired
\* its session and C leads: the check of the multi runs on the server, so a
\* deposed leader's proclaim finds its node gone and writes nothing,
\* whatever its client believes.
ProclaimedByLeader == \A p \in proclaimed : p.epoch = p.head

\* TimedLock's, under their names.
NoGrantPastDeadline == TL!NoGrantPastDeadline
LossBeforeExpiry == TL!LossBeforeExpiry
StandIns == TL!StandIns

=============================================================================
