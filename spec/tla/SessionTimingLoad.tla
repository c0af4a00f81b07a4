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
(* fix ("thin") passes it, and SessionTimingBounded checks that it is      *)
(* still safe.  model/sessiontimingload is the Go mirror.                  *)
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
    MaxTime       \* the clock stops at MaxTime

ASSUME /\ {Timeout, Drift, MaxTime} \subseteq Nat
       /\ {Delay, Beat, MaxInFlight} \subseteq Nat \ {0}

VARIABLES
    now,       \* the global clock
    inflight,  \* the requests sent and not yet answered, oldest first: [sent, kind]
    clock,     \* the client's LossClock
    lastSync   \* when the heartbeat last sent a sync (the creation: 0)

vars == <<now, inflight, clock, lastSync>>

LC == INSTANCE LossClock

\* The holder believes it holds: its loss deadline has not passed.
HBelieves == now < clock.proven + Timeout - Drift

Overdue == inflight # <<>> /\ now >= Head(inflight).sent + Delay
SyncDue == now >= lastSync + Beat

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

\* The clock advances once every reply due has arrived and the sync due is
\* sent.
Tick ==
    /\ now < MaxTime
    /\ ~Overdue
    /\ ~SyncDue
    /\ now' = now + 1
    /\ UNCHANGED <<inflight, clock, lastSync>>

\* The holder's own traffic: a read on its session, while it believes.
SendRead ==
    /\ HBelieves
    /\ Len(inflight) < MaxInFlight
    /\ inflight' = Append(inflight, [sent |-> now, kind |-> "read"])
    /\ UNCHANGED <<now, clock, lastSync>>

\* The heartbeat sends its sync.
SendSync ==
    /\ HBelieves
    /\ SyncDue
    /\ Len(inflight) < MaxInFlight
    /\ inflight' = Append(inflight, [sent |-> now, kind |-> "sync"])
    /\ lastSync' = now
    /\ UNCHANGED <<now, clock>>

\* The reply to the oldest request arrives, and the clock takes it.
AckReply ==
    /\ inflight # <<>>
    /\ HBelieves
    /\ clock' = LC!Acked(clock, Head(inflight).sent, now, Head(inflight).kind = "sync")
    /\ inflight' = Tail(inflight)
    /\ UNCHANGED <<now, lastSync>>

Next == Tick \/ SendRead \/ SendSync \/ AckReply

Spec == Init /\ [][Next]_vars

\* Availability: a healthy session never reaches its loss deadline.
NoSpuriousLoss == HBelieves
=============================================================================
