------------------------ MODULE PredecessorLockSymmetric ------------------------
(***************************************************************************)
(* PredecessorLock checked with SYMMETRY over its clients, for larger      *)
(* bounds than the plain state graph allows.                               *)
(*                                                                         *)
(* Sound for safety: the clients are interchangeable model values.  No     *)
(* action, invariant or action property of PredecessorLock names a client; *)
(* every CHOOSE picks from a set with one element that satisfies its       *)
(* predicate (NodeAt: sequence numbers of the nodes present are unique;    *)
(* FindOwnNode: a request has at most one node; SortWatches: the events of *)
(* one client differ in their request number or name), so its result    *)
(* does not depend on the order of the model values; and the configs of   *)
(* this module check no liveness (TLC's symmetry reduction may miss a bad  *)
(* cycle).  The state counts are those of the quotient graph, which the   *)
(* Go model does not compute: these configs are TLC-only.                 *)
(***************************************************************************)
EXTENDS PredecessorLock, TLC

ClientSymmetry == Permutations(Clients)

=============================================================================
