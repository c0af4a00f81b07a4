------------------------------- MODULE Broken -------------------------------
(* A module with a syntax error: the runner must reject any config of it.   *)
EXTENDS Naturals
VARIABLE x
Init == x = 0
Next == x' = x + 1 /\
==============================================================================
