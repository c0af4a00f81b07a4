------------------------------ MODULE LossClock ------------------------------
(***************************************************************************)
(* impl/zklock's lossClock as pure operators: the client's bounded memory  *)
(* of acknowledgements and what a sync proves from it.  A clock is a       *)
(* record [mem, proven, grain]:                                            *)
(*  mem     the acknowledgements kept, oldest first, each [sent, at];      *)
(*  proven  the newest send time proven heard by the leader (the base the  *)
(*          loss deadline counts from);                                    *)
(*  grain   under "thin", the least time between two kept arrivals (0      *)
(*          until the memory first fills).                                 *)
(* Acked(c, s, a, sync) is the clock after an acknowledgement of a request *)
(* sent at s arrived at a.  A sync first proves every entry that arrived   *)
(* at least Lag before it was sent (SessionTiming's synced rule); then the *)
(* acknowledgement is kept, unless it is already proven or, under "thin",  *)
(* it arrived less than grain after the newest entry kept.  A full memory  *)
(* makes room first, as Merge says:                                        *)
(*  "oldest": the two oldest entries become one with the older send time   *)
(*            and the newer arrival (the code before the fix): it never    *)
(*            proves more, but under load the head's arrival is always     *)
(*            recent and no sync proves it again;                          *)
(*  "thin":   the grain doubles (the first time, to twice the even spacing *)
(*            of the memory's span) and the entries closer than it to the  *)
(*            one kept before them go, again while the memory stays full.  *)
(*            Only genuine acknowledgements are kept, so it never proves   *)
(*            more than they would; they lie on an even grid, so it proves *)
(*            nearly as much.  A sync that leaves the memory below a       *)
(*            quarter full halves the grain.                               *)
(*  "newer":  a mutant, the two oldest become one with the NEWER send time *)
(*            and the older arrival: it proves a send time before it was   *)
(*            acknowledged long enough ago (ProvesNoMore's control).       *)
(* SessionTimingLoad INSTANCEs it; model/lossclock is the Go mirror.       *)
(***************************************************************************)
EXTENDS Integers, Sequences

CONSTANTS
    Lag,      \* the synced rule's lag, in ticks
    MaxAcks,  \* the acknowledgements the memory keeps (the code: 4,096)
    Merge     \* "oldest", "thin" (or the mutant "newer"): what a full memory does

ASSUME /\ Lag \in Nat
       /\ MaxAcks \in Nat /\ MaxAcks >= 2
       /\ Merge \in {"oldest", "thin", "newer"}

Max(S) == CHOOSE x \in S : \A y \in S : y <= x

\* The clock of a new session: its creation, sent at time 0 through the
\* leader, counts as proven.
Init == [mem |-> <<>>, proven |-> 0, grain |-> 0]

\* The greedy grid: after kept's last entry, each entry of rest at least g
\* after the one kept before it.
RECURSIVE KeepSpaced(_, _, _)
KeepSpaced(kept, rest, g) ==
    IF rest = <<>> THEN kept
    ELSE IF Head(rest).at - kept[Len(kept)].at >= g
         THEN KeepSpaced(Append(kept, Head(rest)), Tail(rest), g)
         ELSE KeepSpaced(kept, Tail(rest), g)

\* "thin" on a full memory m with the new grain g: <<entries kept, grain>>.
RECURSIVE Thin(_, _)
Thin(m, g) ==
    LET k == KeepSpaced(<<m[1]>>, Tail(m), g)
    IN IF Len(k) < MaxAcks THEN <<k, g>> ELSE Thin(k, 2 * g)

\* A sync sent at s proves what arrived at or before s - Lag.
Prove(c, s) ==
    LET by == s - Lag
        m == SelectSeq(c.mem, LAMBDA e : e.at > by)
    IN [mem |-> m,
        proven |-> Max({c.proven} \cup {c.mem[j].sent : j \in {k \in DOMAIN c.mem : c.mem[k].at <= by}}),
        grain |-> IF Len(m) * 4 < MaxAcks THEN c.grain \div 2 ELSE c.grain]

\* Keep the acknowledgement [s, a] in the clock c (already proven by it if
\* a sync).
Keep(c, s, a) ==
    LET m == c.mem
        new == [sent |-> s, at |-> a]
    IN IF s <= c.proven \/ (m # <<>> /\ a - m[Len(m)].at < c.grain) THEN c
       ELSE IF Len(m) < MaxAcks THEN [c EXCEPT !.mem = Append(m, new)]
       ELSE IF Merge = "oldest"
            THEN [c EXCEPT !.mem = Append(<<[sent |-> m[1].sent, at |-> m[2].at]>> \o SubSeq(m, 3, Len(m)), new)]
       ELSE IF Merge = "newer"
            THEN [c EXCEPT !.mem = Append(<<[sent |-> m[2].sent, at |-> m[1].at]>> \o SubSeq(m, 3, Len(m)), new)]
       ELSE LET t == Thin(m, Max({2 * c.grain, (2 * (m[Len(m)].at - m[1].at)) \div MaxAcks, 1}))
            IN [c EXCEPT !.mem = Append(t[1], new), !.grain = t[2]]

\* lossClock.acked.
Acked(c, s, a, sync) == Keep(IF sync THEN Prove(c, s) ELSE c, s, a)
=============================================================================
