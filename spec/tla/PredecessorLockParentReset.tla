----------------------- MODULE PredecessorLockParentReset -----------------------
(***************************************************************************)
(* PredecessorLock with the lock's parent deleted and re-created.          *)
(*                                                                         *)
(* impl/zklock creates missing parents as CONTAINER nodes (contender.go,   *)
(* ensureParents), and ZooKeeper's container manager deletes a container   *)
(* once it has no children (ZooKeeper Programmer's Guide, "Container       *)
(* Nodes").  The next acquisition creates the parent again.  The new       *)
(* parent's sequence counter (derived from its cversion) starts at 0, so   *)
(* sequence numbers are reused, while zxids, and so czxids, keep growing   *)
(* across the ensemble's whole history.  This is why the fencing token is  *)
(* the czxid of the lock node and not its sequence number: in PredecessorLock *)
(* alone, whose counter never goes back, the two orders agree and a        *)
(* spec with sequence-number tokens passes too (PredecessorLockSeqToken,   *)
(* config NoReset); with RecreateParent it does not (config Safety).       *)
(***************************************************************************)
EXTENDS PredecessorLock

(* The container manager deletes the empty parent, and a later create      *)
(* re-creates it (ZK!RecreateParent: two write transactions, one step      *)
(* here; between them a create fails with NoNode and ensureParents creates *)
(* the parent again, a step the spec does not need).  Only possible when   *)
(* the parent has no children at all (nodes of abandoned sessions          *)
(* included), and only after it had some: the container manager skips a   *)
(* container whose cversion is still 0, and nextSeq > 0 is exactly that    *)
(* here (deletes follow creates); the guard also keeps the state space     *)
(* finite.  No watch fires: watches on the children fired with their       *)
(* deletion, and no client of this protocol sets a child watch on the      *)
(* parent.  No client takes a step.                                        *)
RecreateParent ==
    /\ ZK!RecreateParent
    /\ UNCHANGED <<clientVars, histVars>>

ResetNext == Next \/ RecreateParent

ResetSpec == Init /\ [][ResetNext]_vars

=============================================================================
