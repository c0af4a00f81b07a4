------------------------------- MODULE Rewind -------------------------------
(***************************************************************************)
(* A wiped or restored ensemble: which promises survive when the           *)
(* ensemble's history goes back.                                           *)
(*                                                                         *)
(* A rewind is an operator's act on the whole ensemble: every server is    *)
(* stopped, its data emptied (a wipe) or replaced by an older copy (a      *)
(* restore), and started again.  The ensemble's state and its zxid        *)
(* counter go back to an earlier point (0: empty), and every session it    *)
(* knew is gone.  The sessions and ephemeral nodes an older copy still     *)
(* holds are abstracted away: nobody renews them, the restored ensemble    *)
(* expires them, and a grant waits for their nodes to go anyway; so the    *)
(* rewound state has no lock holder.                                       *)
(*                                                                         *)
(* The lock is one node (the queue of PredecessorLock is not the point     *)
(* here): a client with a live session creates it when it is absent and    *)
(* is then granted, its token the node's czxid.  Each client is one        *)
(* process with its own sessions, one after the other.                     *)
(*                                                                         *)
(* A client whose session the ensemble forgot learns of it on its next     *)
(* contact:                                                                *)
(*  - MeetExpired: the history is at or past what the session has seen:    *)
(*    the server answers "session expired", and the client ends at once   *)
(*    (today's code, both rules);                                          *)
(*  - MeetOlder: the history is older than what the session has seen:     *)
(*    the server refuses the handshake (ZooKeeper: "Refusing session       *)
(*    request for client ... as it has seen zxid ...") and closes.  Rule   *)
(*    "atonce": the client ends the session at once (impl/zklock's         *)
(*    ErrHistoryRewound); rule "deadline": it retries, believing, until    *)
(*    its loss deadline (LossDeadline), which time alone decides.         *)
(* LossDeadline may happen at any point after the ensemble forgot the     *)
(* session: time is not modelled.                                          *)
(*                                                                         *)
(* What survives a rewind (Safety):                                        *)
(*  - BeliefExclusion: two clients believe at once only while one of them *)
(*    is a forgotten session that has not yet contacted the rewound        *)
(*    ensemble.  That window is the                                        *)
(*    client's reconnect period, no longer: a holder does not wait for     *)
(*    its loss deadline.                                                   *)
(*  - TokensGrowOrSaid: a process never hands out a token lower than (or  *)
(*    equal to) one it handed out before without saying so (TokenRule      *)
(*    "flag": the lease                                                    *)
(*    carries the fact; "silent": it does not).                            *)
(* What does not survive (TokensIncrease, a witness expected to fail):     *)
(* the order of tokens across the ensemble's whole history.  A fenced     *)
(* resource whose high-water token is from before the rewind refuses      *)
(* every later holder until an operator resets it.                         *)
(*                                                                         *)
(* model/rewind is the Go mirror: keep them in step.                       *)
(***************************************************************************)
EXTENDS Naturals

CONSTANTS
    Clients,     \* the client processes
    NoOne,       \* no client
    Rule,        \* "atonce" or "deadline": what a refused handshake does
    TokenRule,   \* "flag" or "silent": whether a lower token is said
    MaxZxid,     \* the zxid counter stops here
    MaxRewinds   \* rewinds of the ensemble

ASSUME /\ Rule \in {"atonce", "deadline"}
       /\ TokenRule \in {"flag", "silent"}
       /\ MaxZxid \in Nat /\ MaxRewinds \in Nat
       /\ NoOne \notin Clients

VARIABLES
    zxid,      \* the ensemble's last zxid: where its history is
    holder,    \* the client whose lock node exists, or NoOne
    known,     \* the sessions (by client) the ensemble knows
    live,      \* live[c]: c believes its session lives
    believes,  \* believes[c]: c believes it holds the lock
    seen,      \* seen[c]: the highest zxid c's session has seen
    met,       \* met[c]: c's session met the rewound ensemble and was refused
    token,     \* token[c]: the token of c's last grant
    high,      \* high[c]: the highest token process c handed out
    lower,     \* lower[c]: c's last grant was not above a token it handed out before
    said,      \* said[c]: c's last grant said so
    top,       \* the highest token ever granted
    dropped,   \* some grant's token was lower than an earlier grant's
    rewinds    \* rewinds so far

vars == <<zxid, holder, known, live, believes, seen, met, token, high, lower, said, top, dropped, rewinds>>

Zxids == 0..MaxZxid

TypeOK ==
    /\ zxid \in Zxids
    /\ holder \in Clients \cup {NoOne}
    /\ known \subseteq Clients
    /\ live \in [Clients -> BOOLEAN]
    /\ believes \in [Clients -> BOOLEAN]
    /\ seen \in [Clients -> Zxids]
    /\ met \in [Clients -> BOOLEAN]
    /\ token \in [Clients -> Zxids]
    /\ high \in [Clients -> Zxids]
    /\ lower \in [Clients -> BOOLEAN]
    /\ said \in [Clients -> BOOLEAN]
    /\ top \in Zxids
    /\ dropped \in BOOLEAN
    /\ rewinds \in 0..MaxRewinds

Init ==
    /\ zxid = 0
    /\ holder = NoOne
    /\ known = {}
    /\ live = [c \in Clients |-> FALSE]
    /\ believes = [c \in Clients |-> FALSE]
    /\ seen = [c \in Clients |-> 0]
    /\ met = [c \in Clients |-> FALSE]
    /\ token = [c \in Clients |-> 0]
    /\ high = [c \in Clients |-> 0]
    /\ lower = [c \in Clients |-> FALSE]
    /\ said = [c \in Clients |-> FALSE]
    /\ top = 0
    /\ dropped = FALSE
    /\ rewinds = 0

\* c opens a new session (createSession is a transaction of its own).
Connect(c) ==
    /\ ~live[c]
    /\ zxid < MaxZxid
    /\ zxid' = zxid + 1
    /\ known' = known \cup {c}
    /\ live' = [live EXCEPT ![c] = TRUE]
    /\ seen' = [seen EXCEPT ![c] = zxid + 1]
    /\ met' = [met EXCEPT ![c] = FALSE]
    /\ UNCHANGED <<holder, believes, token, high, lower, said, top, dropped, rewinds>>

\* c creates the lock node, absent, and is granted: its token is the
\* node's czxid.  A token not above one the process handed out before (in
\* one history it is always above) is said (TokenRule "flag") or not
\* ("silent").
Acquire(c) ==
    /\ live[c] /\ c \in known
    /\ holder = NoOne
    /\ ~believes[c]
    /\ zxid < MaxZxid
    /\ zxid' = zxid + 1
    /\ holder' = c
    /\ believes' = [believes EXCEPT ![c] = TRUE]
    /\ seen' = [seen EXCEPT ![c] = zxid + 1]
    /\ token' = [token EXCEPT ![c] = zxid + 1]
    /\ high' = [high EXCEPT ![c] = IF zxid + 1 > high[c] THEN zxid + 1 ELSE high[c]]
    /\ lower' = [lower EXCEPT ![c] = zxid + 1 <= high[c]]
    /\ said' = [said EXCEPT ![c] = TokenRule = "flag" /\ zxid + 1 <= high[c]]
    /\ top' = IF zxid + 1 > top THEN zxid + 1 ELSE top
    /\ dropped' = (dropped \/ zxid + 1 < top)
    /\ UNCHANGED <<known, live, met, rewinds>>

\* c deletes its lock node.
Release(c) ==
    /\ live[c] /\ c \in known
    /\ believes[c] /\ holder = c
    /\ zxid < MaxZxid
    /\ zxid' = zxid + 1
    /\ holder' = NoOne
    /\ believes' = [believes EXCEPT ![c] = FALSE]
    /\ seen' = [seen EXCEPT ![c] = zxid + 1]
    /\ UNCHANGED <<known, live, met, token, high, lower, said, top, dropped, rewinds>>

\* The operator wipes the ensemble (to 0) or restores an older copy (to
\* an earlier zxid): its state and counter go back, its sessions are gone.
Rewind ==
    /\ rewinds < MaxRewinds
    /\ zxid > 0
    /\ \E z \in 0..(zxid - 1) : zxid' = z
    /\ holder' = NoOne
    /\ known' = {}
    /\ rewinds' = rewinds + 1
    /\ UNCHANGED <<live, believes, seen, met, token, high, lower, said, top, dropped>>

\* c's session, forgotten, reconnects to a history at or past what it has
\* seen: the server says the session expired, and c ends it at once.
MeetExpired(c) ==
    /\ live[c] /\ c \notin known
    /\ seen[c] <= zxid
    /\ live' = [live EXCEPT ![c] = FALSE]
    /\ believes' = [believes EXCEPT ![c] = FALSE]
    /\ UNCHANGED <<zxid, holder, known, seen, met, token, high, lower, said, top, dropped, rewinds>>

\* c's session reconnects to a history older than what it has seen: the
\* server refuses the handshake.  "atonce": c ends the session;
\* "deadline": it keeps believing and retries.
MeetOlder(c) ==
    /\ live[c] /\ c \notin known
    /\ seen[c] > zxid
    /\ ~met[c]
    /\ met' = [met EXCEPT ![c] = TRUE]
    /\ IF Rule = "atonce"
          THEN /\ live' = [live EXCEPT ![c] = FALSE]
               /\ believes' = [believes EXCEPT ![c] = FALSE]
          ELSE UNCHANGED <<live, believes>>
    /\ UNCHANGED <<zxid, holder, known, seen, token, high, lower, said, top, dropped, rewinds>>

\* c's loss deadline passes for a session the ensemble no longer knows.
LossDeadline(c) ==
    /\ live[c] /\ c \notin known
    /\ live' = [live EXCEPT ![c] = FALSE]
    /\ believes' = [believes EXCEPT ![c] = FALSE]
    /\ UNCHANGED <<zxid, holder, known, seen, met, token, high, lower, said, top, dropped, rewinds>>

\* Action by action, each over the clients (the Go mirror's order).
Next ==
    \/ Rewind
    \/ \E c \in Clients : Connect(c)
    \/ \E c \in Clients : Acquire(c)
    \/ \E c \in Clients : Release(c)
    \/ \E c \in Clients : MeetExpired(c)
    \/ \E c \in Clients : MeetOlder(c)
    \/ \E c \in Clients : LossDeadline(c)

Spec == Init /\ [][Next]_vars

\* One holder in the ensemble's state at a time (no rewind changes that).
NodeExclusion == \A c \in Clients : believes[c] /\ c \in known => holder = c

\* Two clients believe at once only while one of them is a session the
\* ensemble forgot that has not yet met the rewound ensemble.
BeliefExclusion ==
    \A a, b \in Clients :
        (a # b /\ believes[a] /\ believes[b]) =>
            \E x \in {a, b} : x \notin known /\ ~met[x]

\* A process hands out a token not above one it handed out before only
\* saying so.
TokensGrowOrSaid == \A c \in Clients : lower[c] => said[c]

\* A witness, expected to fail when the ensemble rewinds: every grant's
\* token is above every earlier grant's.
TokensIncrease == ~dropped

=============================================================================
