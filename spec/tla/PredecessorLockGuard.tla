------------------------- MODULE PredecessorLockGuard -------------------------
(***************************************************************************)
(* PredecessorLock with Lease.Guard (impl/zklock/lease.go): the holder's   *)
(* writes to ZooKeeper go in one multi whose first operation checks the    *)
(* lock node (its path and data version). ZooKeeper applies a multi as one *)
(* transaction or not at all (the ZooKeeper Java API, ZooKeeper.multi: all *)
(* the operations succeed or none does; Op.check), so a guarded write      *)
(* lands only while the lock node stands; the node is ephemeral, so it     *)
(* stands only while the session that made it is live. The write is        *)
(* checked where it lands, on the server, not where it is decided, so a    *)
(* pause between deciding and sending cannot let a stale write through.    *)
(*                                                                         *)
(* `guarded` is the guarded resource, a node the holders write: the tenure *)
(* of the last guarded write the server applied (0: none yet) and the      *)
(* parity of the node's data version (every applied setData moves the      *)
(* version on, so every write changes the variable and GuardedExclusion    *)
(* sees each one, a rewrite by the same tenure included; only the change   *)
(* matters, so the parity keeps the state space finite). GuardedExclusion  *)
(* is what a user of Guard relies on. PredecessorLockGuardUnchecked is the *)
(* must-fail control: the same write without the check.                    *)
(***************************************************************************)
EXTENDS PredecessorLock

VARIABLE guarded    \* [tenure, version]: the last guarded write applied, the version parity

gVars == <<vars, guarded>>

GInit == Init /\ guarded = [tenure |-> 0, version |-> 0]

(* A write to the guarded node by client c lands. *)
Lands(c) == guarded' = [tenure |-> tenure[c], version |-> 1 - guarded.version]

GTypeOK == TypeOK /\ guarded \in [tenure : Nat, version : 0..1]

(* Lease.Guard: a multi [check(own node, version), the caller's ops] sent  *)
(* on the lease's session by a holder, paused and resumed or not, its      *)
(* session expired or not.  The server applies it as one transaction only  *)
(* if the node exists: the client's own node, which exists exactly while   *)
(* the session that made it is live.  Otherwise nothing lands, and the     *)
(* code ends the lease with ErrLockLost: on an expired session the call    *)
(* fails with SESSIONEXPIRED and the session ends with it (LearnExpiry's   *)
(* step); a missing node on a live session (Lease.recheck finds it gone:   *)
(* lostAt) ends the lease alone (unreachable here: KnownNodeExists).  The  *)
(* data version is not modeled: no action writes node data, so the        *)
(* version of our node never changes.                                      *)
GuardedWrite(c) ==
    /\ ~paused[c]
    /\ pc[c] = "hold"
    /\ IF Live(c) /\ OwnNodeExists(c)
       THEN /\ Lands(c)
            /\ UNCHANGED vars
       ELSE /\ UNCHANGED guarded
            /\ IF Live(c)
               THEN /\ Idle(c)
                    /\ UNCHANGED <<zkVars, sess, reqNo, paused, histVars, pending>>
               ELSE LearnExpiry(c)

(* Every step of PredecessorLock, the guarded resource unchanged (TLC     *)
(* reports them all as GBase: the conjunction hides their names).         *)
GBase == Next /\ UNCHANGED guarded

GNext ==
    \/ GBase
    \/ \E c \in Clients : GuardedWrite(c)

GSpec == GInit /\ [][GNext]_gVars

(* What users of Guard rely on: every guarded write that lands comes from *)
(* a tenure at least as new as the last one before it (never an older     *)
(* lease's write after a newer one's), and while no other client holds    *)
(* with its node standing.  Checked on every step that changes the         *)
(* resource, so on every write that lands.                                 *)
GuardedExclusion ==
    [][/\ guarded'.tenure >= guarded.tenure
       /\ \A d \in Clients : (pc[d] = "hold" /\ OwnNodeExists(d)) => tenure[d] = guarded'.tenure]_guarded

=============================================================================
