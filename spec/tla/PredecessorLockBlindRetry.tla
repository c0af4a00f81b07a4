---------------------- MODULE PredecessorLockBlindRetry ----------------------
(***************************************************************************)
(* MUTANT (must fail NoOrphans): after a connection loss during create the *)
(* client simply creates again, the mistake ZooKeeper recipes,             *)
(* "Recoverable Errors and the GUID", warns about (sequential create is    *)
(* not idempotent).  Such a client never looks for its node by uuid, so it *)
(* only knows, and on cancel only deletes, the node of its last create:    *)
(* the first node stays behind as an orphan for as long as the session     *)
(* lives, and the client's second node waits behind it forever (a          *)
(* self-deadlock unless cancelled).                                        *)
(***************************************************************************)
EXTENDS PredecessorLock

(* The create succeeds but the reply is lost; the client retries blindly.  *)
(* Replaces CreateReplyLost + FindOwnNode.  The mistake the GUID paragraph *)
(* of the recipes page warns about.                                        *)
CreateReplyLostRetry(c) ==
    /\ WithReplyLoss
    /\ ~paused[c]
    /\ pc[c] = "create"
    /\ Live(c)
    /\ Fault
    /\ ZK!CreateNode(LAMBDA s, z : NodeOf(c, s, z))
    /\ UNCHANGED <<clientVars, grants, lastToken, resHigh, resTenure>>

(* Cancel without the uuid search: delete the node the client knows, if    *)
(* any.  Replaces Cancel.                                                  *)
CancelKnown(c) ==
    /\ WithCancel
    /\ ~paused[c]
    /\ pc[c] \in Acquiring
    /\ Live(c)
    /\ ZK!DeleteNodes({n \in nodes : n.seq = node[c]})
    /\ Idle(c)
    /\ UNCHANGED <<sess, reqNo, paused, histVars>>

BlindClientNext(c) ==
    \/ RequestLock(c)
    \/ CreateOk(c)
    \/ CreateReplyLostRetry(c)
    \/ ListChildren(c)
    \/ WatchSecond(c)
    \/ WatchPredecessor(c)
    \/ PredecessorGone(c)
    \/ IgnoreNotification(c)
    \/ Grant(c)
    \/ Write(c)
    \/ Release(c)
    \/ CancelKnown(c)
    \/ LearnExpiry(c)

BlindSpec == Init /\ [][(\E c \in Clients : BlindClientNext(c)) \/ EnvNext]_vars

(* The same fairness as PredecessorLock!FairSpec, over the mutant's steps: *)
(* the client whose second node waits behind its own orphan never gets the *)
(* lock (StarvationFree fails).                                            *)
BlindProgress(c) ==
    \/ CreateOk(c) \/ CreateReplyLostRetry(c) \/ ListChildren(c)
    \/ WatchSecond(c) \/ WatchPredecessor(c) \/ PredecessorGone(c) \/ IgnoreNotification(c)
    \/ Grant(c) \/ Release(c) \/ LearnExpiry(c)

BlindFairSpec ==
    /\ BlindSpec
    /\ \A c \in Clients : WF_vars(BlindProgress(c)) /\ WF_vars(ResumeClient(c))
    /\ WF_vars(\E s \in Sessions : Abandoned(s) /\ ExpireSession(s))

=============================================================================
