------------------------------- MODULE Counter -------------------------------
(* A tiny spec for the runner's self-test (cmd/tlc/selftest.go): each       *)
(* Counter.*.cfg says whether the runner's checks must accept or reject it. *)
EXTENDS Naturals
VARIABLE x

Init  == x = 0
Inc   == x < 3 /\ x' = x + 1
Reset == x = 3 /\ x' = 0
Never == x > 5 /\ x' = x     \* never enabled: a dead action
Next  == Inc \/ Reset
Spec  == Init /\ [][Next]_x
SpecWithDeadAction == Init /\ [][Next \/ Never]_x
FairSpec == Spec /\ WF_x(Next)

Bounded   == x <= 3           \* holds
Small     == x < 3            \* violated when x reaches 3
NotTwo    == x # 2            \* violated when x reaches 2
Monotone  == [][x' >= x]_x    \* action property, violated by Reset
ReachesThree == <>(x = 3)     \* holds under FairSpec
ReachesFour  == <>(x = 4)     \* violated under FairSpec
==============================================================================
