------------------------------ MODULE TimedLock ------------------------------
(***************************************************************************)
(* Time, the follower and the lock's nodes in ONE state space.  The lock   *)
(* specs (PredecessorLock and the modules that extend it) let the server   *)
(* expire the session of a client that believes it holds only if that     *)
(* client is paused; SessionTiming checks, apart from any node, that the   *)
(* loss rule makes that premise true.  Here nothing is assumed: the leader *)
(* expires H's session whenever its expiry clock runs out, whatever H      *)
(* believes, and the expiry deletes H's node through ZooKeeper.tla.        *)
(*                                                                         *)
(* Two clients.  H is connected to the follower F, C to the leader (as in  *)
(* SessionTiming).  Both run the lock protocol as impl/zklock runs it:     *)
(* create an ephemeral sequential node, list the children, and when first  *)
(* grant (a local step), hold, release (delete).  One request each.        *)
(*                                                                         *)
(* H's time is SessionTiming's, by INSTANCE (ST): the clock, the link, the *)
(* pings, F's stream to the leader, the loss rule.  H's lock calls are     *)
(* requests like any other in ST's reqs: the listing is a read F answers   *)
(* (its answer is the leader's children when F receives it: see README,   *)
(* "TimedLock"), the create a write F forwards to the leader on its stream *)
(* (like a sync: kind "create"), and their acknowledgements feed the loss  *)
(* rule as impl/zklock's clock counts them: only a sync's acknowledgement  *)
(* proves that the leader heard, so a create counts as a read does.  A     *)
(* reply may arrive arbitrarily late: a pause between the listing and the  *)
(* grant.  H may also send pings, reads and syncs (its heartbeat).         *)
(*                                                                         *)
(* The nodes are ZooKeeper.tla's, by INSTANCE (ZK).  C's calls are one     *)
(* step each on the leader: the fastest contender there can be, the worst  *)
(* case for H.  A client that is not first lists again later (a poll in    *)
(* place of the watch: it may list at any later time, which includes the   *)
(* time a watch would have fired).                                         *)
(*                                                                         *)
(* GrantRule: "checked" (impl/zklock: the grant checks the loss deadline   *)
(* synchronously, Session.checkDeadline) or "unchecked" (it trusts the     *)
(* listing, however old).                                                  *)
(*                                                                         *)
(* model/timedlock is the Go mirror: keep them in step.                    *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets

CONSTANTS
    Timeout, SyncLimit, Drift, Lag, Rule, MaxTime, MaxRequests, MaxFaults, \* SessionTiming's
    H, C,        \* the two clients (model values): H on the follower, C on the leader
    GrantRule    \* "checked" or "unchecked"

ASSUME GrantRule \in {"checked", "unchecked"}

VARIABLES
    \* SessionTiming's (H's time, the follower, the link, H's requests;
    \* expired: the leader has expired H's session; granted: C holds)
    now, heard, link, faults, touched, lastTouch, expired, granted, reqs, stream,
    \* ZooKeeper's (the leader's nodes and sessions)
    nodes, nextSeq, zxid, live, watches, inbox, pending,
    hpc,        \* H's step: "idle", "create", "list", "listing", "grant", "held", "done"
    hreq,       \* the index in reqs of H's outstanding lock call (0: none yet)
    hsaw,       \* what F's answer to H's listing showed: "none", "first", "behind", "gone"
    grantLate,  \* H was granted at or after its loss deadline
    cpc         \* C's step: "idle", "wait", "held", "done"

stVars  == <<now, heard, link, faults, touched, lastTouch, reqs, stream>>  \* all but expired, granted
zkVars  == <<nodes, nextSeq, zxid, live, watches, inbox, pending>>
hVars   == <<hpc, hreq, hsaw, grantLate>>
vars    == <<stVars, expired, granted, zkVars, hVars, cpc>>

Clients == {H, C}
HS == <<H, 1>>      \* H's session (and the uuid of its one request)
CS == <<C, 1>>      \* C's session (and the uuid of its one request)
MaxSeq == 2         \* one node each

\* SessionTiming by name: its constants and variables are ours.  Its
\* expired and granted mean what they mean there, but here they move with
\* the nodes: expired with ZooKeeper's expiry of H's session (so expired
\* is ~ZK!IsLive(HS)), granted with C's grant and release (granted is
\* cpc = "held").  Its GrantContender is not used: C runs the protocol.
ST == INSTANCE SessionTiming

\* A node's name is its seq; the parent is -2 (as in PredecessorLock).
NodeName(n) == n.seq
ZK == INSTANCE ZooKeeper WITH Name <- NodeName, NameLess <- LAMBDA a, b : a < b,
                              Parent <- -2, MaxSeq <- MaxSeq

\* The node of client x, as a set (empty when it has none).
NodeOf(x) == {n \in nodes : n.owner = <<x, 1>>}

\* x's node is present and has the lowest seq: x is first.
First(x) == NodeOf(x) # {} /\ \A n \in nodes : (CHOOSE m \in NodeOf(x) : TRUE).seq <= n.seq

\* The node record a create by x makes, and ZooKeeper's Mk(seq, czxid) for each.
Rec(x, s, z) == [seq |-> s, owner |-> <<x, 1>>, uuid |-> <<x, 1>>, czxid |-> z]
MkH(s, z) == Rec(H, s, z)
MkC(s, z) == Rec(C, s, z)

\* TypeOK with the request kinds in kinds (TimedElection adds its proclaim).
TypeOKKinds(kinds) ==
    /\ now \in 0..MaxTime /\ heard \in 0..MaxTime /\ lastTouch \in 0..MaxTime
    /\ link \in BOOLEAN /\ touched \in BOOLEAN /\ faults \in 0..MaxFaults
    /\ expired \in BOOLEAN /\ granted \in BOOLEAN
    /\ Len(reqs) <= MaxRequests
    /\ \A i \in 1..Len(reqs) : /\ reqs[i].state \in ST!ReqStates
                               /\ reqs[i].kind \in kinds
                               /\ reqs[i].sent \in 0..MaxTime
                               /\ reqs[i].acked \in 0..MaxTime
    /\ \A k \in 1..Len(stream) : stream[k] \in 0..Len(reqs)
    /\ ZK!TypeOK([seq : 0..MaxSeq, owner : {HS, CS}, uuid : {HS, CS}, czxid : Nat],
                 0..MaxSeq \cup {-2}, {HS, CS}, {HS, CS})
    /\ hpc \in {"idle", "create", "list", "listing", "grant", "held", "done"}
    /\ hreq \in 0..MaxRequests
    /\ hsaw \in {"none", "first", "behind", "gone"}
    /\ grantLate \in BOOLEAN
    /\ cpc \in {"idle", "wait", "held", "done"}

TypeOK == TypeOKKinds(ST!Kinds \cup {"create"})

Init ==
    /\ ST!Init
    /\ ZK!Init
    /\ hpc = "idle" /\ hreq = 0 /\ hsaw = "none" /\ grantLate = FALSE
    /\ cpc = "idle"

-----------------------------------------------------------------------------
(* Time and the follower: SessionTiming's actions, the nodes untouched.    *)

\* A tick: the leader pings F if the link is up and F serves.
Tick == ST!Tick /\ UNCHANGED <<zkVars, hVars, cpc>>

\* A fault cuts the F-leader link.
CutLink == ST!CutLink /\ UNCHANGED <<zkVars, hVars, cpc>>

\* The link heals.
HealLink == ST!HealLink /\ UNCHANGED <<zkVars, hVars, cpc>>

\* H's session traffic besides the lock: a ping or read ("read") or a
\* heartbeat sync ("sync"), while H believes its session alive.
SendRequest(k) == ST!SendRequest(k) /\ UNCHANGED <<zkVars, hVars, cpc>>

\* F receives H's request i while it serves: it touches the session and
\* answers a read or forwards a write or sync to the leader.  If i is H's
\* listing, F's answer is the children as they are now (the answer travels
\* back, maybe late, and H reads it at AckReply).
ReceiveRequest(i) ==
    /\ ST!ReceiveRequest(i)
    /\ hsaw' = IF i = hreq /\ hpc = "listing"
                  THEN IF NodeOf(H) = {} THEN "gone"
                       ELSE IF First(H) THEN "first" ELSE "behind"
                  ELSE hsaw
    /\ UNCHANGED <<zkVars, hpc, hreq, grantLate, cpc>>

\* The leader takes the head of F's stream: a ping reply restarts H's
\* expiry clock, a sync is answered, and H's create creates H's node (on a
\* session the leader has expired the create fails: no node, and H's
\* listing will show it gone).
LeaderReceive ==
    /\ ST!LeaderReceive
    /\ IF Head(stream) # 0 /\ reqs[Head(stream)].kind = "create" /\ ZK!IsLive(HS)
          THEN ZK!CreateNode(MkH)
          ELSE UNCHANGED zkVars
    /\ UNCHANGED <<hVars, cpc>>

\* The reply to H's request i arrives while H believes its session alive.
\* If it answers H's create, H sends its listing next; if it answers H's
\* listing, H decides at its grant step.
AckReply(i) ==
    /\ ST!AckReply(i)
    /\ hpc' = IF i = hreq /\ hpc = "create" THEN "list"
              ELSE IF i = hreq /\ hpc = "listing" THEN "grant"
              ELSE hpc
    /\ UNCHANGED <<zkVars, hreq, hsaw, grantLate, cpc>>

\* The leader's session tracker expires H's session when its clock runs
\* out: no guard on what H believes.  closeSession deletes H's node.
ExpireSession ==
    /\ ST!ExpireSession
    /\ ZK!ExpireSession(HS, {w \in watches : w.req[1] = H})
    /\ UNCHANGED <<hVars, cpc>>

-----------------------------------------------------------------------------
(* H's lock calls (impl/zklock's Mutex.Lock on a session to F).            *)

\* H sends its create (EPHEMERAL_SEQUENTIAL) while its session is alive.
HCreate ==
    /\ hpc = "idle"
    /\ ST!SendRequest("create")
    /\ hpc' = "create"
    /\ hreq' = Len(reqs) + 1
    /\ UNCHANGED <<zkVars, hsaw, grantLate, cpc>>

\* H sends its listing (getChildren), after its create's reply or after a
\* listing that showed it behind.
HList ==
    /\ hpc = "list"
    /\ ST!SendRequest("read")
    /\ hpc' = "listing"
    /\ hreq' = Len(reqs) + 1
    /\ hsaw' = "none"
    /\ UNCHANGED <<zkVars, grantLate, cpc>>

\* The grant, a local step on the listing's answer, however old.  The
\* checked rule hands out the lease only before H's loss deadline
\* (Session.checkDeadline); the unchecked rule trusts the listing.
HGrant ==
    /\ hpc = "grant"
    /\ hsaw = "first"
    /\ GrantRule = "checked" => ST!HBelieves
    /\ hpc' = "held"
    /\ grantLate' = ~ST!HBelieves
    /\ UNCHANGED <<stVars, expired, granted, zkVars, hreq, hsaw, cpc>>

\* The listing showed H behind C: H lists again later.
HBehind ==
    /\ hpc = "grant"
    /\ hsaw = "behind"
    /\ hpc' = "list"
    /\ UNCHANGED <<stVars, expired, granted, zkVars, hreq, hsaw, grantLate, cpc>>

\* The listing did not show H's node (its session expired): the lock is
\* lost (ErrLockLost), H stops.
HGone ==
    /\ hpc = "grant"
    /\ hsaw = "gone"
    /\ hpc' = "done"
    /\ UNCHANGED <<stVars, expired, granted, zkVars, hreq, hsaw, grantLate, cpc>>

\* H releases: its lease ends at once and its node is deleted (one step
\* at the leader, the earliest the delete can land: the worst case for H's
\* successor's safety; none if the session expired first).
HRelease ==
    /\ hpc = "held"
    /\ hpc' = "done"
    /\ ZK!DeleteNodes(NodeOf(H))
    /\ UNCHANGED <<stVars, expired, granted, hreq, hsaw, grantLate, cpc>>

-----------------------------------------------------------------------------
(* C's lock calls, each one step on the leader (its session never expires). *)

\* C creates its node.
CCreate ==
    /\ cpc = "idle"
    /\ ZK!CreateNode(MkC)
    /\ cpc' = "wait"
    /\ UNCHANGED <<stVars, expired, granted, hVars>>

\* C lists and, first, is granted in the same step.
CGrant ==
    /\ cpc = "wait"
    /\ First(C)
    /\ cpc' = "held"
    /\ granted' = TRUE
    /\ UNCHANGED <<stVars, expired, zkVars, hVars>>

\* C releases: its node is deleted.
CRelease ==
    /\ cpc = "held"
    /\ cpc' = "done"
    /\ granted' = FALSE
    /\ ZK!DeleteNodes(NodeOf(C))
    /\ UNCHANGED <<stVars, expired, hVars>>

Next ==
    \/ Tick
    \/ CutLink
    \/ HealLink
    \/ \E k \in ST!Kinds : SendRequest(k)
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

Spec == Init /\ [][Next]_vars

-----------------------------------------------------------------------------
\* H holds as its user sees it: granted, and its loss deadline not passed.
HHolds == hpc = "held" /\ ST!HBelieves
CHolds == cpc = "held"

\* Never do both clients hold as their users see it.
MutualExclusion == ~(HHolds /\ CHolds)

\* No lease is handed out at or after the grantee's own loss deadline (C,
\* on the leader with a session that never expires, has none).
NoGrantPastDeadline == ~grantLate

\* SessionTiming's premise, checked here with the nodes: when the leader
\* has expired H's session, H no longer believes it alive.
LossBeforeExpiry == ST!LossBeforeExpiry

\* expired and granted are what they stand for in SessionTiming.
StandIns == /\ expired = ~ZK!IsLive(HS)
            /\ granted = (cpc = "held")

=============================================================================
