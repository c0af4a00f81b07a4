------------------------- MODULE PredecessorLockSeqToken -------------------------
(***************************************************************************)
(* MUTANT (must fail TokensIncrease once the parent can be re-created):    *)
(* the fencing token is the lock node's sequence number (plus one, so that *)
(* 0 still means "no token") instead of its czxid.  Without                *)
(* RecreateParent sequence numbers only grow and grants follow them        *)
(* (GrantsInSequenceOrder), so SeqNoResetSpec passes every property the    *)
(* czxid passes: the spec without parent re-creation cannot tell the two   *)
(* tokens apart.  With it (SeqSpec) the counter restarts at 0 and a later  *)
(* grant gets a token that does not exceed the previous one.               *)
(***************************************************************************)
EXTENDS PredecessorLockParentReset

\* Only the "reread" grant reads the token at the grant; the local grants
\* take it with the node (KnownToken), which this mutant does not change.
ASSUME GrantRule = "reread"

(* As Grant with GrantRule "reread", but the token is the sequence number. *)
GrantSeqToken(c) ==
    /\ ~paused[c]
    /\ pc[c] = "grant"
    /\ Live(c)
    /\ OwnNodeExists(c)
    /\ LET t == ZK!NodeAt(node[c]).seq + 1
       IN  /\ token' = [token EXCEPT ![c] = t]
           /\ lastToken' = t
    /\ grants' = grants + 1
    /\ tenure' = [tenure EXCEPT ![c] = grants + 1]
    /\ pc' = [pc EXCEPT ![c] = "hold"]
    /\ UNCHANGED <<zkVars, sess, reqNo, node, target, second, soleBlocker, paused, faults, resHigh,
                   resTenure, pending>>

SeqClientNext(c) ==
    \/ RequestLock(c)
    \/ CreateOk(c)
    \/ CreateReplyLost(c)
    \/ FindOwnNode(c)
    \/ ListChildren(c)
    \/ WatchSecond(c)
    \/ WatchPredecessor(c)
    \/ PredecessorGone(c)
    \/ IgnoreNotification(c)
    \/ GrantSeqToken(c)
    \/ Write(c)
    \/ Release(c)
    \/ Cancel(c)
    \/ LearnExpiry(c)

\* Sequence-number tokens, the parent never re-created (expected to pass).
SeqNoResetSpec == Init /\ [][(\E c \in Clients : SeqClientNext(c)) \/ EnvNext]_vars

\* Sequence-number tokens, the parent re-created when empty (expected to fail).
SeqSpec == Init /\ [][(\E c \in Clients : SeqClientNext(c)) \/ EnvNext \/ RecreateParent]_vars

=============================================================================
