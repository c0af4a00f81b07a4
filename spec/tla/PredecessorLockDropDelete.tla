---------------------- MODULE PredecessorLockDropDelete ----------------------
(***************************************************************************)
(* MUTANT (must fail NoOrphansEventually): the delete of an ended request  *)
(* is sent once, in the background, and given up when the connection is   *)
(* lost (no retry until it lands).  The client goes on using its session,  *)
(* which stays live, so the server never removes the node either: an       *)
(* orphan that blocks every later request forever.  impl/zklock retries   *)
(* the delete until it lands or the session ends (PredecessorLock's        *)
(* DeleteLands under fairness).                                            *)
(***************************************************************************)
EXTENDS PredecessorLock

(* A connection loss drops the pending delete of request u for good: a     *)
(* fault.                                                                  *)
DropDelete(u) ==
    /\ \E p \in pending : p[2] = u
    /\ Fault
    /\ pending' = {p \in pending : p[2] # u}
    /\ UNCHANGED <<zkVars, clientVars, grants, lastToken, resHigh, resTenure>>

DropSpec == Init /\ [][Next \/ \E u \in Clients \X (1..MaxRequests) : DropDelete(u)]_vars

DropFairSpec == DropSpec /\ Fairness

=============================================================================
