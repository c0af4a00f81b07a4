----------------------------- MODULE SessionClock -----------------------------
(***************************************************************************)
(* The loss deadline against the client's clock and the session's          *)
(* reattaches.  SessionTiming checks from which send time the deadline may *)
(* count (a sync proves what the leader heard); this module takes that     *)
(* result as its abstraction of a proof (a sync, once the leader has       *)
(* touched the session with it and its reply is back, proves its send      *)
(* time) and asks two other questions:                                     *)
(*                                                                         *)
(*  1. Which clock must count the deadline?  Real time (the servers')      *)
(*     runs on while the client's machine is suspended (laptop sleep, a    *)
(*     paused or migrated VM, a checkpoint restored).  Linux's             *)
(*     CLOCK_MONOTONIC, Go's monotonic clock, stops then (Clock =          *)
(*     "monotonic"); CLOCK_BOOTTIME counts it (Clock = "boottime").        *)
(*  2. Which negotiated timeout must it count?  A reattach (the client     *)
(*     reconnects to a server and revalidates its session) may negotiate   *)
(*     another timeout (servers with other minSessionTimeout or            *)
(*     maxSessionTimeout).  The leader touches the session with the        *)
(*     timeout of the server that passed the touch on, but a new leader    *)
(*     re-arms every session with the timeout stored by createSession.     *)
(*     Rule = "latest" counts from the latest negotiated timeout (the code *)
(*     before), Rule = "smallest" from the smallest negotiated in the      *)
(*     session's life.                                                     *)
(*                                                                         *)
(* A reattach counts like a sync: the server revalidates the session with  *)
(* the leader before it answers the connect (a follower's REVALIDATE, on   *)
(* its own stream; the leader touches the session then), so the leader     *)
(* touched the session after the connect was sent, whichever follower      *)
(* answered the requests before it.                                        *)
(*                                                                         *)
(* Time passes in whole ticks; the client's clock counts them while it     *)
(* runs (Tick) and, with "boottime" only, while it is suspended (Suspend). *)
(* The client has at most one request in flight: a sync, or a reattach     *)
(* (which abandons a sync in flight with its connection).                  *)
(*                                                                         *)
(* model/sessionclock is the Go mirror: keep them in step.                 *)
(***************************************************************************)
EXTENDS Integers

CONSTANTS
    Created,         \* the timeout createSession negotiated, in ticks
    Timeouts,        \* the timeouts a reattach may negotiate
    Shorter,         \* a reattach may negotiate below the smallest timeout so far
    Drift,           \* the client's safety margin, in ticks
    Clock,           \* "monotonic" (stops while suspended) or "boottime"
    Rule,            \* "smallest" or "latest": the timeout the deadline counts
    Healthy,         \* syncs answered within their tick, one every Beat ticks
    Beat,            \* under Healthy: the most ticks between proofs
    MaxTime,         \* real time stops at MaxTime
    MaxSuspend,      \* ticks the client may spend suspended
    MaxReattaches,   \* reattaches
    MaxLeaderChanges \* leader elections

ASSUME /\ {Created, Drift, Beat, MaxTime, MaxSuspend, MaxReattaches, MaxLeaderChanges} \subseteq Nat
       /\ Timeouts \subseteq Nat
       /\ Shorter \in BOOLEAN /\ Healthy \in BOOLEAN
       /\ Clock \in {"monotonic", "boottime"}
       /\ Rule \in {"smallest", "latest"}

VARIABLES
    now,        \* real time: the servers' clocks
    cnow,       \* the client's clock that counts the deadline
    suspended,  \* ticks spent suspended so far
    reattaches, \* reattaches so far
    elections,  \* leader changes so far
    cur,        \* the timeout the client's connection negotiated last
    least,      \* the smallest timeout negotiated in the session's life
    armed,      \* the timeout the leader's expiry clock runs with
    lastTouch,  \* the leader's last touch of the session (real time)
    expired,    \* the leader has expired the session
    base,       \* the client's proven send time (client clock)
    req         \* the request in flight: [kind, sent (client clock), t, touched]

vars == <<now, cnow, suspended, reattaches, elections, cur, least, armed, lastTouch, expired, base, req>>

None == [kind |-> "none", sent |-> 0, t |-> 0, touched |-> FALSE]

Min(a, b) == IF a < b THEN a ELSE b

\* The timeout the rule counts the deadline from.
RuleTimeout == IF Rule = "smallest" THEN least ELSE cur

Deadline == base + RuleTimeout - Drift

\* The client believes it holds: its deadline has not passed on its clock.
HBelieves == cnow < Deadline

\* Under Healthy, time passes only when no request is in flight and the
\* proof is younger than Beat: the heartbeat keeps proving.
Paced == ~Healthy \/ (req.kind = "none" /\ cnow + 1 - base <= Beat)

TypeOK ==
    /\ now \in 0..MaxTime /\ cnow \in 0..MaxTime
    /\ suspended \in 0..MaxSuspend
    /\ reattaches \in 0..MaxReattaches /\ elections \in 0..MaxLeaderChanges
    /\ {cur, least, armed} \subseteq Timeouts \cup {Created}
    /\ lastTouch \in 0..MaxTime /\ base \in 0..MaxTime
    /\ expired \in BOOLEAN
    /\ req.kind \in {"none", "sync", "reattach"} /\ req.touched \in BOOLEAN

Init ==
    /\ now = 0 /\ cnow = 0
    /\ suspended = 0 /\ reattaches = 0 /\ elections = 0
    /\ cur = Created /\ least = Created /\ armed = Created
    /\ lastTouch = 0
    /\ expired = FALSE
    /\ base = 0          \* the session's creation, through the leader
    /\ req = None

\* A tick passes while the client runs: both clocks count it.
Tick ==
    /\ now < MaxTime
    /\ Paced
    /\ now' = now + 1
    /\ cnow' = cnow + 1
    /\ UNCHANGED <<suspended, reattaches, elections, cur, least, armed, lastTouch, expired, base, req>>

\* A tick passes while the client's machine is suspended: the servers'
\* time runs on; the client's clock counts it only if it is CLOCK_BOOTTIME.
Suspend ==
    /\ now < MaxTime
    /\ suspended < MaxSuspend
    /\ Paced
    /\ now' = now + 1
    /\ cnow' = IF Clock = "boottime" THEN cnow + 1 ELSE cnow
    /\ suspended' = suspended + 1
    /\ UNCHANGED <<reattaches, elections, cur, least, armed, lastTouch, expired, base, req>>

\* The client sends a sync (the heartbeat) while it believes it holds.
SendSync ==
    /\ req.kind = "none"
    /\ HBelieves
    /\ req' = [None EXCEPT !.kind = "sync", !.sent = cnow]
    /\ UNCHANGED <<now, cnow, suspended, reattaches, elections, cur, least, armed, lastTouch, expired, base>>

\* The connection drops and the client reattaches to a server that
\* negotiates the timeout t (a sync in flight is lost with the connection).
SendReattach(t) ==
    /\ reattaches < MaxReattaches
    /\ HBelieves
    /\ Shorter \/ t >= least
    /\ reattaches' = reattaches + 1
    /\ req' = [kind |-> "reattach", sent |-> cnow, t |-> t, touched |-> FALSE]
    /\ UNCHANGED <<now, cnow, suspended, elections, cur, least, armed, lastTouch, expired, base>>

\* The leader touches the live session for the request in flight: a sync
\* with the timeout of the server it came through, a reattach's
\* revalidation with the timeout that server negotiates.
LeaderTouch ==
    /\ req.kind # "none"
    /\ ~req.touched
    /\ ~expired
    /\ lastTouch' = now
    /\ armed' = IF req.kind = "sync" THEN cur ELSE req.t
    /\ req' = [req EXCEPT !.touched = TRUE]
    /\ UNCHANGED <<now, cnow, suspended, reattaches, elections, cur, least, expired, base>>

\* The reply to the request in flight arrives while the client believes
\* (a lost lease stays lost): its send time is proven; a reattach's
\* negotiated timeout is the connection's now.
AckReply ==
    /\ req.touched
    /\ HBelieves
    /\ base' = IF req.sent > base THEN req.sent ELSE base
    /\ IF req.kind = "reattach"
          THEN /\ cur' = req.t
               /\ least' = Min(least, req.t)
          ELSE UNCHANGED <<cur, least>>
    /\ req' = None
    /\ UNCHANGED <<now, cnow, suspended, reattaches, elections, armed, lastTouch, expired>>

\* A new leader takes over: it re-arms every session it loaded with the
\* timeout createSession stored, from its start.
LeaderChange ==
    /\ elections < MaxLeaderChanges
    /\ ~expired
    /\ elections' = elections + 1
    /\ armed' = Created
    /\ lastTouch' = now
    /\ UNCHANGED <<now, cnow, suspended, reattaches, cur, least, expired, base, req>>

\* The leader's session tracker expires the session; its lock nodes go,
\* and another client may be granted at once.
ExpireSession ==
    /\ ~expired
    /\ now >= lastTouch + armed
    /\ expired' = TRUE
    /\ UNCHANGED <<now, cnow, suspended, reattaches, elections, cur, least, armed, lastTouch, base, req>>

Next ==
    \/ Tick
    \/ Suspend
    \/ SendSync
    \/ \E t \in Timeouts : SendReattach(t)
    \/ LeaderTouch
    \/ AckReply
    \/ LeaderChange
    \/ ExpireSession

Spec == Init /\ [][Next]_vars

\* The premise the lock specs take as given (SessionTiming's): when the
\* leader expires the session, the client has already stopped believing.
LossBeforeExpiry == expired => ~HBelieves

\* The availability half: under Healthy the client never reaches its
\* deadline (a suspend shorter than the beat included).
NoSpuriousLoss == HBelieves

\* A witness, expected to be violated: the client never believes past the
\* deadline the session's creation alone gives it (the rule renews at all).
NeverRenewed == HBelieves => cnow < Created - Drift

=============================================================================
