---------------------------- MODULE SessionTiming ----------------------------
(***************************************************************************)
(* When may a lock holder still believe it holds the lock?  Time is        *)
(* modelled here, not assumed: a global discrete clock, ZooKeeper's rules  *)
(* for followers, pings and session expiry as ZooKeeper implements them,   *)
(* and the client's loss rule (the deadline after which it no longer       *)
(* believes it holds).                                                     *)
(*                                                                         *)
(* The holder H is connected to a follower F and holds the lock: its       *)
(* ephemeral node exists.  The contender C is connected to the leader and  *)
(* is granted as soon as H's node is gone, which happens when the leader   *)
(* expires H's session (closeSession deletes its ephemeral nodes).         *)
(*                                                                         *)
(* ZooKeeper's rules (the follower's Learner and the leader's session      *)
(* tracker):                                                               *)
(*  - F answers a client's request (pings and local reads included) only   *)
(*    while it is serving, and it stops serving when it has not heard from *)
(*    the leader for more than SyncLimit ticks (its read timeout, rounded  *)
(*    to whole ticks in the follower's favour);                            *)
(*  - F records a touch of H's session when it receives a request, and     *)
(*    sends its touches to the leader in its reply to the leader's next    *)
(*    ping; the leader pings every half tick, modelled as at the next tick *)
(*    if the link between them is up; the leader then restarts the         *)
(*    session's expiry clock;                                              *)
(*  - the leader expires the session when now >= lastTouch + Timeout.      *)
(* Requests and replies are delayed arbitrarily: a request sent at S       *)
(* reaches F at some later tick, its reply reaches H later still.  A       *)
(* fault cuts the F-leader link in both directions; it may heal.           *)
(*                                                                         *)
(* The client's loss rule (Rule):                                          *)
(*  "today":  deadline = newest acknowledged send time + Timeout - Drift:  *)
(*            every acknowledged request, pings included, restarts it.     *)
(*  "lagged": deadline = E + Timeout - Drift, where E is the newest send   *)
(*            time of an acknowledged request whose acknowledgement        *)
(*            arrived at least Lag ticks before the newest acknowledged    *)
(*            send time Sn.  F still answering at Sn had heard from the    *)
(*            leader at or after Sn - SyncLimit, so the link was up then,  *)
(*            and a touch F recorded before that reached the leader.       *)
(* The session's creation (time 0, through the leader) always counts.      *)
(*                                                                         *)
(* spec/tla/README.md describes the abstraction; model/sessiontiming is    *)
(* the Go mirror: keep them in step.                                       *)
(***************************************************************************)
EXTENDS Integers, Sequences

CONSTANTS
    Timeout,      \* the negotiated session timeout, in ticks
    SyncLimit,    \* the ensemble's syncLimit, in ticks
    Drift,        \* the client's safety margin, in ticks
    Lag,          \* the "lagged" rule's lag, in ticks
    Rule,         \* "today" or "lagged"
    MaxTime,      \* the clock stops at MaxTime
    MaxRequests,  \* requests (heartbeats, reads) H may send
    MaxFaults     \* link cuts

ASSUME /\ {Timeout, SyncLimit, Drift, Lag, MaxTime, MaxRequests, MaxFaults} \subseteq Nat
       /\ Rule \in {"today", "lagged"}

VARIABLES
    now,        \* the global clock
    heard,      \* the last tick at which F heard from the leader (a ping)
    link,       \* the F-leader link is up
    faults,     \* link cuts so far
    touched,    \* F holds a touch of H's session not yet sent to the leader
    lastTouch,  \* the leader's last touch of H's session (its expiry clock)
    expired,    \* the leader has expired H's session: H's node is gone
    granted,    \* C holds the lock
    reqs        \* H's requests: [sent, state, acked], state in ReqStates

vars == <<now, heard, link, faults, touched, lastTouch, expired, granted, reqs>>

ReqStates == {"sent", "replied", "acked"}

Max(S) == CHOOSE x \in S : \A y \in S : y <= x

\* The acknowledged requests, with the session's creation <<0, 0>>.
Acked == {<<reqs[i].sent, reqs[i].acked>> : i \in {j \in 1..Len(reqs) : reqs[j].state = "acked"}}
         \cup {<<0, 0>>}

\* The newest acknowledged send time.
Newest == Max({a[1] : a \in Acked})

\* The send time from which the rule counts the timeout.
Base == IF Rule = "today"
        THEN Newest
        ELSE Max({0} \cup {a[1] : a \in {b \in Acked : b[2] <= Newest - Lag}})

Deadline == Base + Timeout - Drift

\* H believes it holds the lock: its loss deadline has not passed.
HBelieves == now < Deadline

\* F answers requests and takes pings while it is serving.
Serving == now <= heard + SyncLimit

TypeOK ==
    /\ now \in 0..MaxTime
    /\ heard \in 0..MaxTime /\ lastTouch \in 0..MaxTime
    /\ link \in BOOLEAN /\ touched \in BOOLEAN
    /\ expired \in BOOLEAN /\ granted \in BOOLEAN
    /\ faults \in 0..MaxFaults
    /\ Len(reqs) <= MaxRequests
    /\ \A i \in 1..Len(reqs) : /\ reqs[i].state \in ReqStates
                               /\ reqs[i].sent \in 0..MaxTime
                               /\ reqs[i].acked \in 0..MaxTime

Init ==
    /\ now = 0
    /\ heard = 0
    /\ link = TRUE
    /\ faults = 0
    /\ touched = FALSE
    /\ lastTouch = 0
    /\ expired = FALSE
    /\ granted = FALSE
    /\ reqs = <<>>

\* The clock advances one tick.  At the new tick the leader pings F if the
\* link is up and F still serves; F's reply carries its touches, and the
\* leader restarts H's expiry clock.
Tick ==
    /\ now < MaxTime
    /\ now' = now + 1
    /\ IF link /\ now + 1 <= heard + SyncLimit
          THEN /\ heard' = now + 1
               /\ lastTouch' = IF touched THEN now + 1 ELSE lastTouch
               /\ touched' = FALSE
          ELSE UNCHANGED <<heard, lastTouch, touched>>
    /\ UNCHANGED <<link, faults, expired, granted, reqs>>

\* A fault cuts the F-leader link (both directions).
CutLink ==
    /\ link
    /\ faults < MaxFaults
    /\ link' = FALSE
    /\ faults' = faults + 1
    /\ UNCHANGED <<now, heard, touched, lastTouch, expired, granted, reqs>>

\* The link heals.
HealLink ==
    /\ ~link
    /\ link' = TRUE
    /\ UNCHANGED <<now, heard, faults, touched, lastTouch, expired, granted, reqs>>

\* H sends a request (a ping, a read) while it believes it holds.
SendRequest ==
    /\ HBelieves
    /\ Len(reqs) < MaxRequests
    /\ reqs' = Append(reqs, [sent |-> now, state |-> "sent", acked |-> 0])
    /\ UNCHANGED <<now, heard, link, faults, touched, lastTouch, expired, granted>>

\* F receives request i while it serves: it touches H's session and answers.
\* (A request reaching F when it no longer serves is never answered: it
\* stays in flight.)
ReceiveRequest(i) ==
    /\ i <= Len(reqs)
    /\ reqs[i].state = "sent"
    /\ Serving
    /\ touched' = TRUE
    /\ reqs' = [reqs EXCEPT ![i].state = "replied"]
    /\ UNCHANGED <<now, heard, link, faults, lastTouch, expired, granted>>

\* H receives the reply to request i while it still believes it holds (a
\* lost lease stays lost).
AckReply(i) ==
    /\ i <= Len(reqs)
    /\ reqs[i].state = "replied"
    /\ HBelieves
    /\ reqs' = [reqs EXCEPT ![i].state = "acked", ![i].acked = now]
    /\ UNCHANGED <<now, heard, link, faults, touched, lastTouch, expired, granted>>

\* The leader's session tracker expires H's session; closeSession deletes
\* H's ephemeral lock node.
ExpireSession ==
    /\ ~expired
    /\ now >= lastTouch + Timeout
    /\ expired' = TRUE
    /\ UNCHANGED <<now, heard, link, faults, touched, lastTouch, granted, reqs>>

\* C, on the leader, sees H's node gone and holds the lock.
GrantContender ==
    /\ expired
    /\ ~granted
    /\ granted' = TRUE
    /\ UNCHANGED <<now, heard, link, faults, touched, lastTouch, expired, reqs>>

Next ==
    \/ Tick
    \/ CutLink
    \/ HealLink
    \/ SendRequest
    \/ \E i \in 1..MaxRequests : ReceiveRequest(i)
    \/ \E i \in 1..MaxRequests : AckReply(i)
    \/ ExpireSession
    \/ GrantContender

Spec == Init /\ [][Next]_vars

\* Never does C hold the lock while H still believes it holds it.
HolderLosesFirst == granted => ~HBelieves

\* A witness, expected to be violated: the holder never believes past the
\* deadline its session's creation alone gives it.  Its violation shows
\* that a rule renews the lease at all (that HolderLosesFirst does not
\* pass only because the holder always gives up at once).
NeverRenewed == HBelieves => now < Timeout - Drift

=============================================================================
