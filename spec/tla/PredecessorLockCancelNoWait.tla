---------------------- MODULE PredecessorLockCancelNoWait ----------------------
(***************************************************************************)
(* MUTANT (must fail NoOrphansEventually): the clean-up of a request       *)
(* cancelled with its create in flight does not wait for the create's      *)
(* outcome: it lists the children at once, finds no node of the uuid (the  *)
(* create has not been applied yet), deletes nothing and ends.  The create *)
(* lands later in a session the client goes on using: an orphan that no    *)
(* one deletes, and that blocks every later request behind it.             *)
(***************************************************************************)
EXTENDS PredecessorLockCancelInFlight

(* CancelInFlight without the wait: nobody deletes what the create makes. *)
CancelNoWait(c) ==
    /\ WithCancel
    /\ ~paused[c]
    /\ pc[c] = "create"
    /\ Live(c)
    /\ flight' = flight \cup {[s |-> Sess(c), u |-> Uuid(c), waited |-> FALSE]}
    /\ Idle(c)
    /\ UNCHANGED <<zkVars, pending, sess, reqNo, paused, histVars>>

NWNext ==
    \/ FBase
    \/ \E c \in Clients : CancelNoWait(c)
    \/ \E u \in Clients \X (1..MaxRequests) : FlightLands(u)

NWFairSpec == FInit /\ [][NWNext]_fVars /\ Fairness

=============================================================================
