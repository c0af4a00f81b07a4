---------------------- MODULE PredecessorLockHerdParent ----------------------
(***************************************************************************)
(* MUTANT (must fail NoHerd): the naive recipe that ZooKeeper recipes,     *)
(* "Locks", step 2 warns against (getChildren with the watch flag set):    *)
(* a waiter lists the children with a child watch on the lock's parent     *)
(* (getChildren(<lock>, watch=true)) instead of watching its predecessor.  *)
(* Every create or delete under the parent then wakes every waiter: the   *)
(* herd effect.  Mutual exclusion still holds (each wake-up re-lists);     *)
(* what breaks is NoHerd: the parent is watched by all waiting clients.    *)
(***************************************************************************)
EXTENDS PredecessorLock

(* getChildren(<lock>, watch=true): list and arm a child watch on the      *)
(* parent atomically.  First: the lock is ours.  Otherwise wait for any   *)
(* child change.  Locks step 2 with the watch flag it says must not be     *)
(* set.  Replaces ListChildren and WatchPredecessor.                       *)
ListChildrenWatchParent(c) ==
    /\ ~paused[c]
    /\ pc[c] = "list"
    /\ Live(c)
    /\ LET before == {n \in nodes : n.seq < node[c]}
       IN  IF before = {}
           THEN /\ pc' = [pc EXCEPT ![c] = "grant"]
                /\ UNCHANGED <<zkVars, pending>>
           ELSE /\ pc' = [pc EXCEPT ![c] = "wait"]
                /\ ZK!SetWatch(Parent, Uuid(c))
    /\ UNCHANGED <<sess, reqNo, node, target, second, soleBlocker, token, tenure, paused, histVars>>

HerdClientNext(c) ==
    \/ RequestLock(c)
    \/ CreateOk(c)
    \/ CreateReplyLost(c)
    \/ FindOwnNode(c)
    \/ ListChildrenWatchParent(c)
    \/ PredecessorGone(c)
    \/ IgnoreNotification(c)
    \/ Grant(c)
    \/ Write(c)
    \/ Release(c)
    \/ Cancel(c)
    \/ LearnExpiry(c)

HerdSpec == Init /\ [][(\E c \in Clients : HerdClientNext(c)) \/ EnvNext]_vars

=============================================================================
