-------------------------- MODULE SessionTimingBounded --------------------------
(***************************************************************************)
(* The safety half of the loss rule with the code's bounded memory:        *)
(* SessionTiming (by INSTANCE: its clock, follower, link, leader and       *)
(* requests, with any fault and any delay) where the holder decides from   *)
(* a LossClock that keeps at most MaxAcks acknowledgements, as impl/zklock *)
(* does, instead of from every acknowledgement there was.  Each            *)
(* acknowledgement SessionTiming's AckReply delivers goes through          *)
(* LossClock's Acked; the holder sends and takes replies only while it     *)
(* believes by that clock.                                                 *)
(*                                                                         *)
(* ProvesNoMore: the bounded clock never proves a later send time than     *)
(* SessionTiming's synced rule over every acknowledgement, so its holder   *)
(* gives up no later; LossBeforeExpiry and HolderLosesFirst are then       *)
(* checked on its own belief.  SessionTimingLoad asks the other half, that *)
(* a healthy session never gives up.  model/sessiontimingbounded is the Go *)
(* mirror, a wrapper of model/sessiontiming.                               *)
(***************************************************************************)
EXTENDS Integers, Sequences

CONSTANTS
    Timeout, SyncLimit, Drift, Lag, Rule, MaxTime, MaxRequests, MaxFaults, \* SessionTiming's
    MaxAcks, Merge                                                         \* LossClock's

ASSUME Rule = "synced"

VARIABLES
    now, heard, link, faults, touched, lastTouch, expired, granted, reqs, stream, \* SessionTiming's
    clock  \* the holder's LossClock

ST == INSTANCE SessionTiming
LC == INSTANCE LossClock

vars == <<now, heard, link, faults, touched, lastTouch, expired, granted, reqs, stream, clock>>

\* The holder believes it holds, by its bounded clock.
HBelieves == now < clock.proven + Timeout - Drift

TypeOK ==
    /\ ST!TypeOK
    /\ Len(clock.mem) <= MaxAcks
    /\ clock.proven \in 0..MaxTime

Init == ST!Init /\ clock = LC!Init

\* H sends a request while it believes, by its own clock.
SendRequest(k) == HBelieves /\ ST!SendRequest(k) /\ UNCHANGED clock

\* H takes the reply to request i while it believes; its clock takes the
\* acknowledgement.
AckReply(i) ==
    /\ HBelieves
    /\ ST!AckReply(i)
    /\ clock' = LC!Acked(clock, reqs[i].sent, now, reqs[i].kind = "sync")

Next ==
    \/ ST!Tick /\ UNCHANGED clock
    \/ ST!CutLink /\ UNCHANGED clock
    \/ ST!HealLink /\ UNCHANGED clock
    \/ \E k \in ST!Kinds : SendRequest(k)
    \/ \E i \in 1..MaxRequests : ST!ReceiveRequest(i) /\ UNCHANGED clock
    \/ \E i \in 1..MaxRequests : AckReply(i)
    \/ ST!LeaderReceive /\ UNCHANGED clock
    \/ ST!ExpireSession /\ UNCHANGED clock
    \/ ST!GrantContender /\ UNCHANGED clock

Spec == Init /\ [][Next]_vars

\* The bounded clock proves no later send time than every acknowledgement
\* would (so this holder believes no longer than SessionTiming's).
ProvesNoMore == clock.proven <= ST!Base

\* SessionTiming's properties, on the bounded clock's belief.
LossBeforeExpiry == expired => ~HBelieves
HolderLosesFirst == granted => ~HBelieves
=============================================================================
