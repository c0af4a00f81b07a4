-------------------- MODULE PredecessorLockForeignRenamed --------------------
(***************************************************************************)
(* PredecessorLockForeign with its constant WatchOwn named OwnWatch, so    *)
(* that a module extending PredecessorLockMarked (whose action WatchOwn    *)
(* takes that name) can instantiate it: PredecessorLockMarkedForeign.      *)
(* No definition of its own.                                               *)
(***************************************************************************)
EXTENDS PredecessorLock

CONSTANTS OwnWatch, Stranger

Foreign == INSTANCE PredecessorLockForeign WITH WatchOwn <- OwnWatch
=============================================================================
