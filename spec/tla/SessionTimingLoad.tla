--------------------------- MODULE SessionTimingLoad ---------------------------
(***************************************************************************)
(* The availability half of the loss rule: does a healthy session keep its *)
(* lease however busy it is?  SessionTiming asks the safety half (does the *)
(* holder stop believing before the leader expires it?) with every         *)
(* acknowledgement remembered; the code remembers at most 4,096 between    *)
(* syncs (LossClock), and a busy session acknowledges far more than that   *)
(* within one lag.                                                         *)
(*                                                                         *)
(* Healthy means: the session's connection and the ensemble work, so every *)
(* request is answered, in order (one connection, and ZooKeeper answers a  *)
(* session's requests in the order it sent them), within Delay ticks of    *)
(* its send; the session sends its heartbeat's sync every Beat ticks; and  *)
(* it sends as many reads of its own as it likes (the load), up to         *)
(* MaxInFlight requests in flight.  The clock waits for both: Tick is      *)
(* disabled while a reply is overdue or a sync is due, so every behaviour  *)
(* here is a healthy one.  The follower, the link and the leader do not    *)
(* appear: what the client proves is all that decides when it gives up,    *)
(* and SessionTiming shows that what a sync proves is true.                *)
(*                                                                         *)
(* NoSpuriousLoss: in every healthy behaviour the holder never stops       *)
(* believing.  The code's merge before the fix ("oldest") fails it; the    *)
(* fix ("thin") passes it.                                                 *)
(*                                                                         *)
(* ProvesNoMore, the safety half: beside the bounded clock runs an         *)
(* unbounded one (shadow: SessionTiming's synced rule over every           *)
(* acknowledgement), and the bounded clock never proves a later send time. *)
(* SessionTiming shows the unbounded rule safe against a follower cut off  *)
(* from the leader (LossBeforeExpiry), so a holder that gives up no later  *)
(* is safe too.  With Healthy = FALSE the clock advances, requests go out  *)
(* and replies come at any time (in order, as on the one connection the    *)
(* code reads them from; a request on a dropped connection is never        *)
(* acknowledged), so every sequence of acknowledgements is checked.        *)
(* model/sessiontimingload is the Go mirror.                               *)
(***************************************************************************)
EXTENDS Integers, Sequences

CONSTANTS
    Timeout,      \* the negotiated session timeout, in ticks
    Drift,        \* the client's safety margin, in ticks
    Lag,          \* the synced rule's lag (syncLimit + 1 ticks)
    MaxAcks,      \* LossClock's bound
    Merge,        \* LossClock's "oldest" or "thin"
    Delay,        \* every reply arrives within Delay ticks of its send
    Beat,         \* the heartbeat sends a sync every Beat ticks
    MaxInFlight,  \* requests in flight at most
    MaxTime,      \* the clock stops at MaxTime
    Healthy       \* only healthy behaviours (else any timing, for ProvesNoMore)

ASSUME /\ {Timeout, Drift, MaxTime} \subseteq Nat
       /\ {Delay, Beat, MaxInFlight} \subseteq Nat \ {0}
       /\ Healthy \in BOOLEAN

VARIABLES
    now,       \* the global clock
    inflight,  \* the requests sent and not yet answered, oldest first: [sent, kind]
    clock,     \* the client's LossClock
    lastSync,  \* when the heartbeat last sent a sync (the creation: 0)
    shadow     \* the synced rule over every acknowledgement: [acks (a set), proven]

vars == <<now, inflight, clock, lastSync, shadow>>

LC == INSTANCE LossClock

\* The holder believes it holds: its loss deadline has not passed.
HBelieves == now < clock.proven + Timeout - Drift

Overdue == inflight # <<>> /\ now >= Head(inflight).sent + Delay
SyncDue == now >= lastSync + Beat

\* The unbounded rule takes an acknowledgement: a sync proves every one
\* that arrived at least Lag before it was sent.
ShadowAcked(sh, s, a, sync) ==
    LET by == IF sync THEN s - Lag ELSE -1
        p == LC!Max({sh.proven} \cup {e.sent : e \in {d \in sh.acks : d.at <= by}})
        rest == {e \in sh.acks : e.at > by}
    IN [acks |-> IF s <= p THEN rest ELSE rest \cup {[sent |-> s, at |-> a]}, proven |-> p]

TypeOK ==
    /\ now \in 0..MaxTime
    /\ Len(inflight) <= MaxInFlight
    /\ \A i \in 1..Len(inflight) : inflight[i].sent \in 0..MaxTime /\ inflight[i].kind \in {"read", "sync"}
    /\ Len(clock.mem) <= MaxAcks
    /\ clock.proven \in 0..MaxTime
    /\ lastSync \in 0..MaxTime

Init ==
    /\ now = 0
    /\ inflight = <<>>
    /\ clock = LC!Init
    /\ lastSync = 0
    /\ shadow = [acks |-> {}, proven |-> 0]

\* The clock advances; in a healthy behaviour once every reply due has
\* arrived and the sync due is sent.
Tick ==
    /\ now < MaxTime
    /\ Healthy => ~Overdue /\ ~SyncDue
    /\ now' = now + 1
    /\ UNCHANGED <<inflight, clock, lastSync, shadow>>

\* The holder's own traffic: a read on its session, while it believes.
SendRead ==
    /\ HBelieves
    /\ Len(inflight) < MaxInFlight
    /\ inflight' = Append(inflight, [sent |-> now, kind |-> "read"])
    /\ UNCHANGED <<now, clock, lastSync, shadow>>

\* The heartbeat sends its sync (in a healthy behaviour, when due).
SendSync ==
    /\ HBelieves
    /\ Healthy => SyncDue
    /\ Len(inflight) < MaxInFlight
    /\ inflight' = Append(inflight, [sent |-> now, kind |-> "sync"])
    /\ lastSync' = IF Healthy THEN now ELSE lastSync
    /\ UNCHANGED <<now, clock, shadow>>

\* The reply to the oldest request arrives, and the clock takes it.
AckReply ==
    /\ inflight # <<>>
    /\ HBelieves
    /\ clock' = LC!Acked(clock, Head(inflight).sent, now, Head(inflight).kind = "sync")
    /\ shadow' = ShadowAcked(shadow, Head(inflight).sent, now, Head(inflight).kind = "sync")
    /\ inflight' = Tail(inflight)
    /\ UNCHANGED <<now, lastSync>>

Next == Tick \/ SendRead \/ SendSync \/ AckReply

Spec == Init /\ [][Next]_vars

\* Availability: a healthy session never reaches its loss deadline
\* (checked with Healthy = TRUE).
NoSpuriousLoss == HBelieves

\* Safety: the bounded clock proves no later send time than the unbounded
\* rule, whose safety SessionTiming checks.
ProvesNoMore == clock.proven <= shadow.proven
=============================================================================
