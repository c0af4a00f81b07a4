------------------------ MODULE PredecessorLockInductive ------------------------
(***************************************************************************)
(* An inductive invariant for MutualExclusion of PredecessorLock, checked  *)
(* by TLC the way Lamport checks one (Lamport, "Using TLC to Check         *)
(* Inductive Invariance", 2018): with every state of a bounded TypeOK that *)
(* satisfies IndInv as the initial states and Next as the next-state       *)
(* relation (one step of it: IndNext), IndInv must be an invariant.  That  *)
(* shows IndInv /\ Next => IndInv' on every state of the bound, so         *)
(* MutualExclusion holds in every reachable state because Init => IndInv  *)
(* and IndInv => MutualExclusion (both checked too: IndInv is an           *)
(* invariant of the PredecessorLock configs' Spec, see the config          *)
(* PredecessorLockInductive.Reachable).                                    *)
(*                                                                         *)
(* Why mutual exclusion holds, in words: sequence numbers of the nodes     *)
(* present are below the parent's counter (SeqsBelowCounter) and unique    *)
(* (UniqueSeqs), so a new node is always last; a client that saw no node  *)
(* before its own (ListChildren) and still has it has the smallest node    *)
(* present (FirstWhileGranted), until it leaves "grant"/"hold"; two such   *)
(* clients would have the same smallest sequence number, so the same node, *)
(* which cannot be owned by two sessions.  KnownNodeExists (a client that *)
(* knows its node and whose session is live has it) is what makes Release *)
(* delete the holder's own node, and nothing else.                         *)
(***************************************************************************)
EXTENDS PredecessorLock

\* 0 in the initial states, 1 after one step of Next: an inductive invariant
\* needs one step from each state of the bounded start, no more.
VARIABLE step

\* A node is owned by a live session of the client whose request created
\* it (an expired session's nodes are deleted with it).
NodesConsistent ==
    \A n \in nodes : /\ n.owner[1] = n.uuid[1]
                     /\ n.owner \in live
                     /\ n.uuid[2] <= reqNo[n.uuid[1]]

\* Every node present was created since the counter last was at its seq.
SeqsBelowCounter == \A n \in nodes : n.seq < nextSeq

\* No two nodes present share a sequence number.
UniqueSeqs == \A n, m \in nodes : n.seq = m.seq => n = m

\* A client that is about to hold, or holds, and still has its node, has
\* the first node present.
FirstWhileGranted ==
    \A c \in Clients :
        (pc[c] \in {"grant", "hold"} /\ OwnNodeExists(c)) =>
            \A n \in nodes : node[c] <= n.seq

\* The shape of one client's local state (control state p, request r, own
\* node n, target t, second s2, inbox ib, paused z) and of its sessions (session k,
\* live sessions).  Not needed for MutualExclusion: it excludes unreachable
\* states, which keeps the bounded start small.
LocalShape(c, p, r, n, t, s2, ib, z) ==
    /\ p # "idle" => r >= 1
    /\ (p \in KnowsNode) = (n # NoNode)
    /\ (p \in {"second", "watch", "wait"}) = (t # NoNode)
    /\ p \in {"second", "watch", "wait"} => t < n
    /\ s2 # NoNode => p \in {"second", "watch", "wait"} /\ s2 < t
    /\ p = "second" => s2 # NoNode
    /\ \A i \in 1..Len(ib) : ib[i].req[1] = c /\ ib[i].req[2] <= r
    /\ z => WithPause /\ IF GrantRule = "reread" THEN p = "hold" ELSE p # "idle"
    /\ p = "find" => WithReplyLoss

Shape ==
    \A c \in Clients :
        /\ LocalShape(c, pc[c], reqNo[c], node[c], target[c], second[c], inbox[c], paused[c])
        /\ \A k \in 1..MaxFaults + 1 : <<c, k>> \in live => k <= sess[c]

\* Faults spent so far pay for every session left behind, every current
\* session the server expired (LearnExpiry of a dead session is free, but
\* the expiry was a fault), and every pause going on.  This is what keeps
\* sess within 1..MaxFaults + 1.
Budget ==
    Cardinality({s \in Sessions : s[2] < sess[s[1]]})
      + Cardinality({c \in Clients : ~Live(c)}) + Cardinality({c \in Clients : paused[c]})
    <= faults

\* The hand-off in one notification (GrantOnHeadGone) grants on the
\* deletion of the watched node when that node was the only one before
\* ours: soleBlocker is set only while watching or waiting, and only when
\* no other node is before ours; and a notification of the current request
\* waiting in the inbox (of a request still going on) says the node it
\* names is gone (it may be the target, the second, or a node an earlier
\* listing of the request chose: only the target's may be the grant).
SoleBlockerSound ==
    \A c \in Clients :
        /\ soleBlocker[c] => pc[c] \in {"watch", "wait"}
        /\ soleBlocker[c] => \A n \in nodes : n.seq < node[c] => n.seq = target[c]

\* A target is a node that was present, so its sequence number is below
\* the counter: no node created later can take its number.
TargetsBelowCounter == \A c \in Clients : target[c] # NoNode => target[c] < nextSeq

NotifiedMeansGone ==
    \A c \in Clients : \A i \in 1..Len(inbox[c]) :
        (pc[c] # "idle" /\ inbox[c][i].req = Uuid(c)) =>
            /\ inbox[c][i].node < nextSeq
            /\ \A n \in nodes : n.seq # inbox[c][i].node

IndInv ==
    /\ TypeOK
    /\ Shape
    /\ Budget
    /\ NodesConsistent
    /\ SeqsBelowCounter
    /\ UniqueSeqs
    /\ KnownNodeExists
    /\ SoleBlockerSound
    /\ TargetsBelowCounter
    /\ NotifiedMeansGone
    /\ FirstWhileGranted
    /\ MutualExclusion

(* Positive control: IndInv without SeqsBelowCounter is not inductive (a  *)
(* create may reuse the sequence number of a node present, and a later    *)
(* node may come before the holder's).                                     *)
WeakIndInv ==
    /\ TypeOK
    /\ Shape
    /\ Budget
    /\ NodesConsistent
    /\ UniqueSeqs
    /\ KnownNodeExists
    /\ SoleBlockerSound
    /\ TargetsBelowCounter
    /\ NotifiedMeansGone
    /\ FirstWhileGranted
    /\ MutualExclusion

-----------------------------------------------------------------------------
(***************************************************************************)
(* The bounded TypeOK.  Sequence numbers, sessions and requests range      *)
(* over the config's bounds, inboxes hold at most one notification, and    *)
(* every variable IndInv reads ranges over its whole bounded type.  The    *)
(* variables no conjunct of IndInv reads are fixed, because no successor   *)
(* of a state depends on them in a variable IndInv reads: czxid, zxid,     *)
(* token, tenure, grants, lastToken, resHigh and resTenure are only copied *)
(* into each other (a create's czxid is zxid + 1, a grant's token a czxid, *)
(* a write compares a token with resHigh), and watches only decide which   *)
(* notifications a step appends to an inbox (inboxes, which enable         *)
(* PredecessorGone, range freely), so each takes one value.                *)
(***************************************************************************)
Uuids == Clients \X (1..MaxRequests)
Seq0 == 0..MaxSeq - 1 \cup {NoNode}
Locals == [pc : PCs, reqNo : 0..MaxRequests, node : Seq0, target : Seq0, second : Seq0,
           inbox : {<<>>} \cup {<<[node |-> t, req |-> u]>> : t \in 0..MaxSeq - 1, u \in Uuids},
           paused : BOOLEAN]
\* Every assignment of local states of the right shape to the clients
\* (a constant: TLC computes it once).
ShapedLocals ==
    {l \in [Clients -> {x \in Locals : \E c \in Clients :
                            LocalShape(c, x.pc, x.reqNo, x.node, x.target, x.second, x.inbox, x.paused)}] :
        \A c \in Clients : LocalShape(c, l[c].pc, l[c].reqNo, l[c].node, l[c].target, l[c].second,
                                       l[c].inbox, l[c].paused)}

\* The server's side first (few combinations), then each client's local
\* state from the local states of the right shape, then the invariant's
\* conjuncts that relate them: TLC prunes while it enumerates.
BoundedStart(strong) ==
    /\ nextSeq \in 0..MaxSeq
    /\ sess \in [Clients -> 1..MaxFaults + 1]
    /\ live \in SUBSET Sessions
    /\ \A c \in Clients : \A k \in 1..MaxFaults + 1 : <<c, k>> \in live => k <= sess[c]
    /\ faults \in 0..MaxFaults
    /\ Cardinality({s \in Sessions : s[2] < sess[s[1]]}) + Cardinality({c \in Clients : ~Live(c)}) <= faults
    /\ nodes \in SUBSET {n \in [seq : 0..MaxSeq - 1, owner : live, uuid : Uuids, czxid : {1}] :
                            n.owner[1] = n.uuid[1] /\ (strong => n.seq < nextSeq)}
    /\ UniqueSeqs
    /\ \E l \in ShapedLocals :
          /\ pc = [c \in Clients |-> l[c].pc]
          /\ reqNo = [c \in Clients |-> l[c].reqNo]
          /\ node = [c \in Clients |-> l[c].node]
          /\ target = [c \in Clients |-> l[c].target]
          /\ second = [c \in Clients |-> l[c].second]
          /\ inbox = [c \in Clients |-> l[c].inbox]
          /\ paused = [c \in Clients |-> l[c].paused]
    /\ soleBlocker \in [Clients -> BOOLEAN]
    /\ pending = {}
    /\ Budget
    /\ watches = {}
    /\ zxid = 1
    /\ token = [c \in Clients |-> 0]
    /\ tenure = [c \in Clients |-> 0]
    /\ grants = 0 /\ lastToken = 0 /\ resHigh = 0 /\ resTenure = 0

IndInit == BoundedStart(TRUE) /\ IndInv /\ step = 0
WeakInit == BoundedStart(FALSE) /\ WeakIndInv /\ step = 0

\* One step of PredecessorLock's Next from a state of the bounded start.
IndNext == step = 0 /\ Next /\ step' = 1

\* PredecessorLock's Spec, with step kept at 0: IndInv holds initially and
\* in every reachable state (config Reachable).
ReachSpec == Init /\ step = 0 /\ [][Next /\ UNCHANGED step]_<<vars, step>>

=============================================================================
