-------------------- MODULE SharedLockRefinesPredecessor --------------------
(***************************************************************************)
(* SharedLock with writers only refines PredecessorLock: every behaviour   *)
(* of the read/write lock in which every request is a write request is,    *)
(* under the refinement mapping below, a behaviour of the exclusive lock   *)
(* (with GrantRule "reread": both grant by re-reading the own node, and    *)
(* both pause only holders).  So what TLC shows of PredecessorLock holds  *)
(* of RWMutex used for writes only, beyond the bounds of SharedLock's own  *)
(* configs as far as PredecessorLock's reach.                              *)
(*                                                                         *)
(* The mapping: a node or watch forgets its kind (a write node's name is   *)
(* its sequence number), a target name its kind; the fenced resource is    *)
(* never written (SharedLock has no Write step).  PredecessorLock counts   *)
(* grants (grants, tenure, lastToken), which SharedLock does not: they are *)
(* history variables added here, set at Grant as PredecessorLock sets them *)
(* and cleared when a client goes idle; a history variable does not        *)
(* constrain the behaviours of SharedLock (Abadi and Lamport, "The         *)
(* Existence of Refinement Mappings", 1991).                               *)
(*                                                                         *)
(* The exclusive lock's waiter with two nodes ahead also watches the node  *)
(* two ahead (WatchSecond), a step RWMutex's writers do not take (their    *)
(* watched writer may be downgraded in place, so its deletion is never     *)
(* their grant, and an early re-listing would buy nothing).  The configs   *)
(* therefore compare with PredecessorLock's protocol with one watch per    *)
(* waiter: they override its definition SecondWatch with OneWatch below    *)
(* (`SecondWatch <- [PredecessorLock] OneWatch`, TLC's definition          *)
(* override).  Everything else is PredecessorLock as it stands.            *)
(***************************************************************************)
EXTENDS SharedLock

VARIABLES
    grants,     \* history: grants so far
    lastToken,  \* history: token of the most recent grant
    tenure      \* history: grant number of each client's lease, 0 unless holding

hist == <<grants, lastToken, tenure>>

(* The writers-only SharedLock, with the history variables. *)
WRequestLock(c) == RequestLock(c, "write") /\ UNCHANGED hist

WGrant(c) ==
    /\ Grant(c)
    /\ grants' = grants + 1
    /\ lastToken' = token'[c]
    /\ tenure' = [tenure EXCEPT ![c] = grants + 1]

\* The steps that end a request: tenure goes back to 0 as in Idle.
WEnd(c) ==
    /\ Release(c) \/ Cancel(c) \/ LearnExpiry(c)
    /\ tenure' = [tenure EXCEPT ![c] = 0]
    /\ UNCHANGED <<grants, lastToken>>

\* Every other step of a client leaves the history alone.
WStep(c) ==
    /\ \/ CreateOk(c) \/ CreateReplyLost(c) \/ FindOwnNode(c) \/ ListChildren(c)
       \/ WatchPredecessor(c) \/ PredecessorGone(c) \/ IgnoreNotification(c)
       \/ Downgrade(c)
    /\ UNCHANGED hist

WEnv == EnvNext /\ UNCHANGED hist

WInit == Init /\ grants = 0 /\ lastToken = 0 /\ tenure = [c \in Clients |-> 0]

WNext == (\E c \in Clients : WRequestLock(c) \/ WStep(c) \/ WGrant(c) \/ WEnd(c)) \/ WEnv

WSpec == WInit /\ [][WNext]_<<vars, hist>>

(* PredecessorLock's SecondWatch as the configs override it. *)
OneWatch == FALSE

(* The refinement mapping (variables of the same name map to themselves). *)
PL == INSTANCE PredecessorLock WITH
        nodes     <- {[seq |-> n.seq, owner |-> n.owner, uuid |-> n.uuid, czxid |-> n.czxid] :
                       n \in nodes},
        watches   <- {[node |-> w.node[1], req |-> w.req] : w \in watches},
        target    <- [c \in Clients |-> target[c][1]],
        second    <- [c \in Clients |-> -1],
        inbox     <- [c \in Clients |-> [i \in DOMAIN inbox[c] |->
                         [node |-> inbox[c][i].node[1], req |-> inbox[c][i].req]]],
        resHigh   <- 0,
        resTenure <- 0,
        Fencing   <- TRUE,
        GrantRule <- "reread"

Refinement == PL!Spec

-----------------------------------------------------------------------------
(***************************************************************************)
(* Positive control: with read requests too, SharedLock does not refine    *)
(* PredecessorLock: a reader behind a read node is granted, where          *)
(* PredecessorLock's ListChildren would make it wait.                      *)
(***************************************************************************)
RWRequestLock(c) == \E k \in Kinds : RequestLock(c, k) /\ UNCHANGED hist

RWNext == (\E c \in Clients : RWRequestLock(c) \/ WStep(c) \/ WGrant(c) \/ WEnd(c)) \/ WEnv

RWSpec == WInit /\ [][RWNext]_<<vars, hist>>

=============================================================================
