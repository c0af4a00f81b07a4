------------------------ MODULE PredecessorLockMarkedForged ------------------------
(***************************************************************************)
(* PredecessorLockMarked with an outsider who may set data on any lock     *)
(* node (ForgeMark, bounded by the fault budget and WithForgery): a forged *)
(* mark. A waiter cannot tell a forged mark from its predecessor's, so     *)
(* the one config, ForgedMark, must fail MutualExclusion: whoever may      *)
(* write the lock path can break the marker hand-off, as it can already    *)
(* delete a holder's node; ACLs are the defence. A module of its own so    *)
(* that the marker's passing configs, none of which a forger could pass,   *)
(* do not carry a step they never take.                                    *)
(***************************************************************************)
EXTENDS PredecessorLockMarked

FNext == MNext \/ ForgeMark

FSpec == MInit /\ [][FNext]_allVars
=============================================================================
