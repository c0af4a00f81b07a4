--------------------- MODULE PredecessorLockGuardUnchecked ---------------------
(***************************************************************************)
(* MUTANT (must fail GuardedExclusion): the holder's write without the     *)
(* check of its lock node.  The write lands whenever a client believes it  *)
(* holds: a write sent on another connection or session, or to a store    *)
(* that knows nothing of the lock, or a check done in a step of its own    *)
(* before the write (Lease.Check read, then the write sent alone: a pause  *)
(* between the two is the same as no check).  A holder paused past its     *)
(* session's expiry writes after the next holder was granted.              *)
(***************************************************************************)
EXTENDS PredecessorLockGuard

(* The critical section's write to ZooKeeper, not in a multi with the      *)
(* check: it lands whatever became of the lock node.                        *)
UnguardedWrite(c) ==
    /\ ~paused[c]
    /\ pc[c] = "hold"
    /\ Lands(c)
    /\ UNCHANGED vars

UNext ==
    \/ GBase
    \/ \E c \in Clients : UnguardedWrite(c)

USpec == GInit /\ [][UNext]_gVars

=============================================================================
