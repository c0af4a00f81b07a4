package checker_test

import (
	"github.com/zklock/zklock/checker"
)

// Builders for handmade histories. Times are small integers; only their order
// matters to the checks.

func acq(client, path string, call, ret, token int64) checker.Record {
	return acqMode(client, path, checker.ModeExclusive, call, ret, token)
}

func acqMode(client, path string, mode checker.Mode, call, ret, token int64) checker.Record {
	return checker.Record{Kind: checker.KindAcquire, Client: client, Session: "s-" + client, Path: path, Mode: mode,
		Call: call, Return: ret, Outcome: checker.OutcomeOK, Token: token, Node: node(path, client, token)}
}

func acqNot(client, path string, call, ret int64, o checker.Outcome) checker.Record {
	return checker.Record{Kind: checker.KindAcquire, Client: client, Session: "s-" + client, Path: path,
		Mode: checker.ModeExclusive, Call: call, Return: ret, Outcome: o}
}

func rel(client, path string, call, ret, token int64, o checker.Outcome) checker.Record {
	return checker.Record{Kind: checker.KindRelease, Client: client, Session: "s-" + client, Path: path,
		Call: call, Return: ret, Outcome: o, Token: token}
}

func lost(client, path string, known, done, token int64) checker.Record {
	return checker.Record{Kind: checker.KindLost, Client: client, Session: "s-" + client, Path: path,
		Call: known, Return: done, Outcome: checker.OutcomeOK, Token: token}
}

func write(client, reg string, call, ret, token int64, value string, o checker.Outcome) checker.Record {
	return checker.Record{Kind: checker.KindWrite, Client: client, Session: "s-" + client, Register: reg,
		Call: call, Return: ret, Outcome: o, Token: token, Value: value}
}

func read(client, reg string, call, ret int64, value string) checker.Record {
	return checker.Record{Kind: checker.KindRead, Client: client, Session: "s-" + client, Register: reg,
		Call: call, Return: ret, Outcome: checker.OutcomeOK, Value: value}
}

func fault(name, target string, from, to int64) checker.Record {
	return checker.Record{Kind: checker.KindFault, Fault: name, Target: target, Call: from, Return: to}
}

func leftover(path string, at int64, nodes ...string) checker.Record {
	return checker.Record{Kind: checker.KindLeftover, Path: path, Call: at, Return: at, Nodes: nodes}
}

func node(path, client string, token int64) string {
	return path + "/_c_" + client + "-lock-" + string(rune('0'+token%10))
}

const (
	ok      = checker.OutcomeOK
	failed  = checker.OutcomeFailed
	unknown = checker.OutcomeUnknown
)
