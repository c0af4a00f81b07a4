package schedule

import "strings"

// The operator's faults: what someone with the campaign's credentials
// does to the ensemble by hand. OperatorDelete and OperatorReplace are in
// All (zklock's every lease watches its own node, and a traced campaign
// replays them as environment events: PredecessorLockForeign,
// SharedLockForeign, ElectionForeign); Wipe is
// opt-in, and so is Restore, --faults names them: they send the
// ensemble's history back, and a trace orders every step by zxids in one
// history.
const (
	// OperatorDelete: a raw session deletes the current holder's node.
	OperatorDelete Kind = "operator-delete"
	// OperatorReplace: it deletes the node and creates one of the same
	// name in its place, in one multi (same data; its version set to the
	// old one's).
	OperatorReplace Kind = "operator-replace"
	// Wipe: every server is stopped, its data emptied, and started again:
	// the ensemble's history starts over (zxids go back, sessions are gone).
	Wipe Kind = "wipe"
	// Restore: the first takes a backup of every server's data; each later
	// one stops every server, puts the backup back and starts it again:
	// the ensemble's history goes back to the backup's moment.
	Restore Kind = "restore"
)

// operatorKinds are the operator's kinds in All.
var operatorKinds = []Info{
	{Kind: OperatorDelete, Help: "an operator's session (the campaign's credentials) deletes a lease holder's lock node"},
	{Kind: OperatorReplace, Help: "an operator's session deletes a lease holder's lock node and creates one of the same name, the same data and version"},
}

// OptIn lists the kinds --faults takes by name only, never as "all".
var OptIn = []Info{
	{Kind: Wipe, Server: true, Help: "stop every server, empty its data directory and start it again (the ensemble's history starts over)"},
	{Kind: Restore, Server: true, Help: "the first takes a backup of every server's data; each later one stops every server, puts the backup back and starts it again"},
}

func optInNames() string {
	names := make([]string, len(OptIn))
	for i, f := range OptIn {
		names[i] = string(f.Kind)
	}
	return strings.Join(names, ",")
}
