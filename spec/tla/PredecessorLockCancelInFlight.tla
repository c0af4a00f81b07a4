--------------------- MODULE PredecessorLockCancelInFlight ---------------------
(***************************************************************************)
(* PredecessorLock with a create still in flight when its request is       *)
(* cancelled.  In PredecessorLock a create is one step (sent, applied and  *)
(* answered), so Cancel sees it done or not done.  In impl/zklock the      *)
(* create is sent (contender.create) and the caller's context may end      *)
(* before its reply: Lock returns at once, and the clean-up                *)
(* (contender.cancel, removeOwnNodes) first waits for the create's         *)
(* outcome, then deletes the node it made (or, when the outcome is a lost  *)
(* connection, every node carrying the request's uuid), in the background  *)
(* if the delete does not land at once.  Meanwhile the server may apply    *)
(* the create at any time while the session lives.                         *)
(*                                                                         *)
(* `flight` holds the creates of cancelled requests that are sent and not  *)
(* answered: [s |-> session, u |-> uuid, waited |-> BOOLEAN], waited       *)
(* saying that the clean-up waits for the outcome (always, here; FALSE is  *)
(* PredecessorLockCancelNoWait, the must-fail control).  With one          *)
(* linearizable server (ZooKeeper.tla) an applied create is visible to     *)
(* every later call, so the create applied and its reply received, and the *)
(* create applied with its reply lost followed by the clean-up's listing   *)
(* by uuid, lead to the same state: the node, with its delete pending.     *)
(***************************************************************************)
EXTENDS PredecessorLock

VARIABLE flight     \* creates of cancelled requests: sent, not answered

fVars == <<vars, flight>>

FInit == Init /\ flight = {}

FTypeOK ==
    /\ TypeOK
    /\ flight \subseteq [s : Sessions, u : Clients \X (1..MaxRequests), waited : BOOLEAN]

(* The request's context ends with its create sent and not answered       *)
(* (impl/zklock: contender.create returns ctx.Err() and keeps the create's *)
(* reply channel in c.inflight): Lock returns, the client is idle, and the *)
(* clean-up (contender.cancel -> removeOwnNodes) waits for the reply.      *)
(* Cancel(c) in "create" is the same context ending before the create was  *)
(* sent (or after a reply that made nothing).                              *)
CancelInFlight(c) ==
    /\ WithCancel
    /\ ~paused[c]
    /\ pc[c] = "create"
    /\ Live(c)
    /\ flight' = flight \cup {[s |-> Sess(c), u |-> Uuid(c), waited |-> TRUE]}
    /\ Idle(c)
    /\ UNCHANGED <<zkVars, pending, sess, reqNo, paused, histVars>>

(* The server applies the in-flight create of request u while its session *)
(* lives: the node is created (child watches fire), and the clean-up that  *)
(* waited for the outcome deletes it: the delete is pending until          *)
(* DeleteLands or the session's expiry.  A clean-up that did not wait      *)
(* (waited = FALSE) has already listed, found nothing and ended: nobody    *)
(* deletes the node.  A step of the network and the server, so a paused    *)
(* client's create lands too.  (A request has one create in flight at      *)
(* most: the parameter is its uuid, as DeleteLands'.)                      *)
FlightLands(u) ==
    /\ \E f \in flight : f.u = u
    /\ LET f == CHOOSE f \in flight : f.u = u
       IN  /\ ZK!IsLive(f.s)
           /\ nextSeq < MaxSeq
           /\ ZK!Txn({}, {[seq |-> nextSeq, owner |-> f.s, uuid |-> u, czxid |-> zxid + 1]},
                     watches)
           /\ nextSeq' = nextSeq + 1
           /\ zxid' = zxid + 1
           /\ flight' = flight \ {f}
           /\ pending' = IF f.waited THEN pending \cup {<<f.s, u>>} ELSE pending
    /\ UNCHANGED <<live, clientVars, histVars>>

(* Every step of PredecessorLock; a create in flight dies with its session *)
(* (ExpireSession: a create on an expired session fails, and the node it   *)
(* might have made goes with the session).                                 *)
FBase == Next /\ flight' = {f \in flight : f.s \in live'}

FNext ==
    \/ FBase
    \/ \E c \in Clients : CancelInFlight(c)
    \/ \E u \in Clients \X (1..MaxRequests) : FlightLands(u)

FSpec == FInit /\ [][FNext]_fVars

FFairSpec == FSpec /\ Fairness

=============================================================================
