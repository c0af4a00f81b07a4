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
(*    if the link between them is up; the reply travels on F's TCP stream  *)
(*    to the leader, in order with the requests F forwards (a sync), and   *)
(*    when it arrives the leader restarts the session's expiry clock; a    *)
(*    cut can hold it in the stream, and it is lost with the connection    *)
(*    when F stops serving;                                                *)
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
(*            and a touch F recorded before that was sent in the reply to  *)
(*            that ping.  But that reply may still be in F's stream (or    *)
(*            lost with F's connection) when the leader expires the        *)
(*            session: TLC finds this rule unsafe (LaggedRule).            *)
(*  "synced": the same, but the newer request must be a sync, which F      *)
(*            forwards to the leader on the same stream: E is the newest   *)
(*            send time of an acknowledged request whose acknowledgement   *)
(*            arrived at least Lag ticks before the send time of an        *)
(*            acknowledged sync.  The reply carrying its touch went before *)
(*            the sync on the stream, so the leader had it when it         *)
(*            answered the sync.                                           *)
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
    Rule,         \* "today", "lagged" or "synced"
    MaxTime,      \* the clock stops at MaxTime
    MaxRequests,  \* requests (heartbeats, reads) H may send
    MaxFaults     \* link cuts

ASSUME /\ {Timeout, SyncLimit, Drift, Lag, MaxTime, MaxRequests, MaxFaults} \subseteq Nat
       /\ Rule \in {"today", "lagged", "synced"}

VARIABLES
    now,        \* the global clock
    heard,      \* the last tick at which F heard from the leader (a ping)
    link,       \* the F-leader link is up
    faults,     \* link cuts so far
    touched,    \* F holds a touch of H's session not yet sent to the leader
    lastTouch,  \* the leader's last touch of H's session (its expiry clock)
    expired,    \* the leader has expired H's session: H's node is gone
    granted,    \* C holds the lock
    reqs,       \* H's requests: [sent, kind, state, acked]
    stream      \* F's TCP stream to the leader: 0 a ping reply with touches, i > 0 the sync reqs[i]

vars == <<now, heard, link, faults, touched, lastTouch, expired, granted, reqs, stream>>

Kinds == {"read", "sync"}    \* answered by F / forwarded to the leader
ReqStates == {"sent", "forwarded", "replied", "acked"}

Max(S) == CHOOSE x \in S : \A y \in S : y <= x

\* The acknowledged requests, with the session's creation <<0, 0>>.
Acked == {<<reqs[i].sent, reqs[i].acked>> : i \in {j \in 1..Len(reqs) : reqs[j].state = "acked"}}
         \cup {<<0, 0>>}

\* The newest acknowledged send time.
Newest == Max({a[1] : a \in Acked})

\* The newest acknowledged send time of a sync (0: the creation).
NewestSync == Max({0} \cup {reqs[i].sent : i \in {j \in 1..Len(reqs) :
                    reqs[j].state = "acked" /\ reqs[j].kind = "sync"}})

\* The send time from which the rule counts the timeout.
Base == CASE Rule = "today"  -> Newest
          [] Rule = "lagged" -> Max({0} \cup {a[1] : a \in {b \in Acked : b[2] <= Newest - Lag}})
          [] Rule = "synced" -> Max({0} \cup {a[1] : a \in {b \in Acked : b[2] <= NewestSync - Lag}})

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
                               /\ reqs[i].kind \in Kinds
                               /\ reqs[i].sent \in 0..MaxTime
                               /\ reqs[i].acked \in 0..MaxTime
    /\ \A k \in 1..Len(stream) : stream[k] \in 0..Len(reqs)

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
    /\ stream = <<>>

\* The clock advances one tick.  At the new tick the leader pings F if the
\* link is up and F still serves; F's reply carries its touches into its
\* stream to the leader (LeaderReceive delivers it).
Tick ==
    /\ now < MaxTime
    /\ now' = now + 1
    /\ IF link /\ now + 1 <= heard + SyncLimit
          THEN /\ heard' = now + 1
               /\ stream' = IF touched THEN Append(stream, 0) ELSE stream
               /\ touched' = FALSE
          ELSE UNCHANGED <<heard, stream, touched>>
    /\ UNCHANGED <<link, faults, lastTouch, expired, granted, reqs>>

\* A fault cuts the F-leader link (both directions).
CutLink ==
    /\ link
    /\ faults < MaxFaults
    /\ link' = FALSE
    /\ faults' = faults + 1
    /\ UNCHANGED <<now, heard, touched, lastTouch, expired, granted, reqs, stream>>

\* The link heals.
HealLink ==
    /\ ~link
    /\ link' = TRUE
    /\ UNCHANGED <<now, heard, faults, touched, lastTouch, expired, granted, reqs, stream>>

\* H sends a request while it believes it holds: a ping or a read ("read",
\* answered by F) or a sync ("sync", which F forwards to the leader).
SendRequest(k) ==
    /\ HBelieves
    /\ Len(reqs) < MaxRequests
    /\ reqs' = Append(reqs, [sent |-> now, kind |-> k, state |-> "sent", acked |-> 0])
    /\ UNCHANGED <<now, heard, link, faults, touched, lastTouch, expired, granted, stream>>

\* F receives request i while it serves: it touches H's session and
\* answers a read, or forwards a sync on its stream to the leader.  (A
\* request reaching F when it no longer serves is never answered: it stays
\* in flight.)
ReceiveRequest(i) ==
    /\ i <= Len(reqs)
    /\ reqs[i].state = "sent"
    /\ Serving
    /\ touched' = TRUE
    /\ IF reqs[i].kind = "read"
          THEN /\ reqs' = [reqs EXCEPT ![i].state = "replied"]
               /\ UNCHANGED stream
          ELSE /\ reqs' = [reqs EXCEPT ![i].state = "forwarded"]
               /\ stream' = Append(stream, i)
    /\ UNCHANGED <<now, heard, link, faults, lastTouch, expired, granted>>

\* The leader receives the head of F's stream, while the link is up and F's
\* connection lives (F serves): a ping reply restarts H's expiry clock; a
\* sync is answered (the answer passes through F to H).
LeaderReceive ==
    /\ stream # <<>>
    /\ link
    /\ Serving
    /\ IF Head(stream) = 0
          THEN /\ lastTouch' = now
               /\ UNCHANGED reqs
          ELSE /\ reqs' = [reqs EXCEPT ![Head(stream)].state = "replied"]
               /\ UNCHANGED lastTouch
    /\ stream' = Tail(stream)
    /\ UNCHANGED <<now, heard, link, faults, touched, expired, granted>>

\* H receives the reply to request i while it still believes it holds (a
\* lost lease stays lost).
AckReply(i) ==
    /\ i <= Len(reqs)
    /\ reqs[i].state = "replied"
    /\ HBelieves
    /\ reqs' = [reqs EXCEPT ![i].state = "acked", ![i].acked = now]
    /\ UNCHANGED <<now, heard, link, faults, touched, lastTouch, expired, granted, stream>>

\* The leader's session tracker expires H's session; closeSession deletes
\* H's ephemeral lock node.
ExpireSession ==
    /\ ~expired
    /\ now >= lastTouch + Timeout
    /\ expired' = TRUE
    /\ UNCHANGED <<now, heard, link, faults, touched, lastTouch, granted, reqs, stream>>

\* C, on the leader, sees H's node gone and holds the lock.
GrantContender ==
    /\ expired
    /\ ~granted
    /\ granted' = TRUE
    /\ UNCHANGED <<now, heard, link, faults, touched, lastTouch, expired, reqs, stream>>

Next ==
    \/ Tick
    \/ CutLink
    \/ HealLink
    \/ \E k \in Kinds : SendRequest(k)
    \/ \E i \in 1..MaxRequests : ReceiveRequest(i)
    \/ \E i \in 1..MaxRequests : AckReply(i)
    \/ LeaderReceive
    \/ ExpireSession
    \/ GrantContender

Spec == Init /\ [][Next]_vars

\* Never does C hold the lock while H still believes it holds it.
HolderLosesFirst == granted => ~HBelieves

\* The premise the lock specs take as given (PredecessorLock's and
\* SharedLock's ExpireSession: the session a client uses expires only while
\* the client does not believe it holds, unless its process is paused),
\* checked here with time: when the leader expires H's session, H has
\* already stopped believing.  A paused process is late to notice, not to
\* stop believing: its deadline passes all the same, and the lock specs let
\* a paused holder's session expire at any time, which allows more.
\* HolderLosesFirst follows from it, since C may be granted at once.
LossBeforeExpiry == expired => ~HBelieves

\* A witness, expected to be violated: the holder never believes past the
\* deadline its session's creation alone gives it.  Its violation shows
\* that a rule renews the lease at all (that HolderLosesFirst does not
\* pass only because the holder always gives up at once).
NeverRenewed == HBelieves => now < Timeout - Drift

=============================================================================
