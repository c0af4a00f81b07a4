package nemesis

import (
	"context"
	"errors"
	"fmt"
	"path"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/checker"
	"github.com/zklock/zklock/cmd/chaos/internal/schedule"
	"github.com/zklock/zklock/cmd/chaos/internal/workload"
	"github.com/zklock/zklock/traceevent"
)

// dial opens a raw session of its own to the ensemble, the intruder's or
// the operator's: over TLS when the campaign runs over TLS (without client
// certificates, TLS hides the traffic but does not say who may log in).
func (in *Injector) dial(ctx context.Context) (*zk.Conn, error) {
	if in.w.TLS != nil {
		return workload.ConnectTLS(ctx, in.clu.Addrs(), in.w.Timeout, in.w.TLS)
	}
	return workload.Connect(ctx, in.clu.Addrs(), in.w.Timeout)
}

// replaceHold is how long an operator-replace keeps the node it made in
// the holder's place (an ephemeral node of its own session, gone when the
// session closes).
const replaceHold = 2 * time.Second

// operator carries out an operator's fault: operator-delete and
// operator-replace on a lease holder's node, through a session of its own
// with the campaign's credentials (so the ACLs let it), or wipe on the
// whole ensemble. It fills ev and records the fault, named by its kind
// (the checker reads these names: checker.FaultOperatorDelete, ...).
func (in *Injector) operator(ctx context.Context, f schedule.Fault, ev *Event, fault func(string, string, int64, int64)) {
	switch f.Kind {
	case schedule.Wipe:
		in.wipe(ctx, ev)
		return
	case schedule.Restore:
		in.restore(ctx, ev)
		return
	}
	conn, err := in.dial(ctx)
	if err != nil {
		ev.Skipped = fmt.Sprintf("the operator could not connect: %v", err)
		return
	}
	var lockPath, node string
	replaced := false
	defer func() {
		// The replacement is an ephemeral node of our session: closing it
		// deletes the node, the outsider's last step on it.
		start := time.Now().UnixNano()
		conn.Close()
		if replaced {
			in.traceEnv(traceevent.ForeignDelete, lockPath, node, start, nil)
		}
	}()
	if in.w.Cfg.Auth != nil {
		if err := conn.AddAuth(workload.AuthScheme, in.w.Cfg.Auth); err != nil {
			ev.Skipped = fmt.Sprintf("the operator could not authenticate: %v", err)
			return
		}
	}
	paths, skip := operatorScope(in.w, f.Kind)
	if skip != "" {
		ev.Skipped = skip
		return
	}
	c := in.pickOperated(ctx, f, paths)
	if c == nil {
		ev.Skipped = fmt.Sprintf("no %s within %v", f.Role, candidateWait)
		return
	}
	heldPath, held, ok := c.Held()
	if !ok || held == "" {
		ev.Skipped = fmt.Sprintf("%s released before the operator came", c.Name())
		return
	}
	lockPath, node = heldPath, held
	ev.Target = c.Name()
	in.w.Mon.SetCurrent(fmt.Sprintf("%s %s", f.Kind, c.Name()))
	rec := in.w.Rec
	call, start := rec.Now(), time.Now().UnixNano()
	detail, did, err := operate(conn, f.Kind, node)
	end := time.Now().UnixNano()
	fault(string(f.Kind), c.Name(), call, rec.Now())
	switch did {
	case deleted:
		in.traceEnv(traceevent.ForeignDelete, lockPath, node, start, &end)
	case replacedNode:
		in.traceEnv(traceevent.ForeignReplace, lockPath, node, start, &end)
		replaced = true
	}
	ev.Detail = detail
	if err != nil {
		ev.Error = err.Error()
		return
	}
	if f.Kind == schedule.OperatorReplace {
		Sleep(ctx, replaceHold)
	}
}

// operatorScope says which lock paths an operator's fault of kind k may
// strike in w: any (nil) when the campaign is not traced; when it is, the
// paths whose model in model/trace replays the outsider's steps on a
// holder's node: an exclusive lock's (PredecessorLockForeign), a
// read/write lock's, read or write lease alike (SharedLockForeign), and an
// election's leader's (ElectionForeign). skip says why the fault strikes
// nothing: in a traced election, an operator-replace.
func operatorScope(w *workload.Workload, k schedule.Kind) (paths map[string]bool, skip string) {
	if w.Env == nil {
		return nil, ""
	}
	if w.Cfg.Lock == workload.LockElection && k == schedule.OperatorReplace {
		// ElectionForeign has no Proclaim through a node the outsider
		// replaced (the multi's check passes on the replacement) nor an
		// observer whose watched head is replaced: a trace with one would
		// be judged by a model that does not have the step.
		return nil, "the trace's model of an election (ElectionForeign) replays an operator's delete of a leader's node, not a replacement"
	}
	paths = map[string]bool{}
	for _, lp := range append(append([]*workload.LockPath(nil), w.Excl...), w.RW...) {
		paths[lp.Path] = true
	}
	return paths, ""
}

// pickOperated picks the holder an operator's fault strikes: any, or one
// holding a lease on a path of paths when paths is not nil
// (operatorScope). Only holders: the outsider of ElectionForeign and
// SharedLockForeign touches no node a client is still acquiring with.
func (in *Injector) pickOperated(ctx context.Context, f schedule.Fault, paths map[string]bool) *workload.Client {
	if paths == nil {
		return in.pickClient(ctx, f)
	}
	deadline := time.Now().Add(candidateWait)
	for {
		var cands []*workload.Client
		for _, c := range in.candidates(f) {
			if p, _, ok := c.Held(); ok && paths[p] {
				cands = append(cands, c)
			}
		}
		if len(cands) > 0 {
			return cands[int(f.Pick%uint32(len(cands)))]
		}
		if time.Now().After(deadline) || !Sleep(ctx, 20*time.Millisecond) {
			return nil
		}
	}
}

// traceEnv records the operator's step on node of lockPath in the trace,
// if the campaign has one; end nil: its outcome was not confirmed.
func (in *Injector) traceEnv(a traceevent.Action, lockPath, node string, start int64, end *int64) {
	if in.w.Env == nil {
		return
	}
	in.w.Env(traceevent.Event{Lock: lockPath, Action: a, Node: path.Base(node), Start: start, End: end})
}

// What operate did to the node, whatever error it returns.
type operated int

const (
	untouched operated = iota
	deleted
	replacedNode
)

// operate deletes node and, for operator-replace, creates one of the same
// name with the same data and ACL in its place, its version set to the
// old one's by as many writes, all in one transaction. It says what it
// did, error or not.
func operate(conn *zk.Conn, kind schedule.Kind, node string) (string, operated, error) {
	data, st, err := conn.Get(node)
	if err != nil {
		return "", untouched, fmt.Errorf("reading %s: %w", node, err)
	}
	acl, _, err := conn.GetACL(node)
	if err != nil {
		return "", untouched, fmt.Errorf("reading the ACL of %s: %w", node, err)
	}
	if kind != schedule.OperatorReplace {
		if err := conn.Delete(node, -1); err != nil {
			return "", untouched, fmt.Errorf("deleting %s: %w", node, err)
		}
		return fmt.Sprintf("deleted %s (czxid 0x%x)", node, st.Czxid), deleted, nil
	}
	// The delete, the create and the writes that bring the replacement to
	// the old version in one multi, one transaction: no reader sees the
	// name missing, nor the replacement at another version, in between
	// (the spec's ForeignReplace is one step; separate calls would be a
	// ForeignDelete, a create and setData the trace vocabulary has no
	// step for, and a waiter's watch would fire on the setData).
	ops := []any{&zk.DeleteRequest{Path: node, Version: -1},
		&zk.CreateRequest{Path: node, Data: data, Acl: acl, Flags: zk.FlagEphemeral}}
	for v := int32(0); v < st.Version; v++ {
		ops = append(ops, &zk.SetDataRequest{Path: node, Data: data, Version: v})
	}
	if _, err := conn.Multi(ops...); err != nil {
		return "", untouched, fmt.Errorf("replacing %s: %w", node, err)
	}
	return fmt.Sprintf("replaced %s (czxid 0x%x) by a node of the same name, data and version %d", node, st.Czxid, st.Version), replacedNode, nil
}

// wiper is a cluster that can wipe its servers' data (the local ensemble).
type wiper interface {
	Wipe(ctx context.Context) error
}

// wipe stops every server, empties its data and starts it again.
func (in *Injector) wipe(ctx context.Context, ev *Event) {
	w, ok := in.clu.(wiper)
	if !ok {
		ev.Skipped = "only a local ensemble can be wiped"
		return
	}
	in.rewind(ctx, ev, checker.FaultWipe, w.Wipe,
		"every server stopped, its data emptied, started again; the campaign's lock paths and data nodes made again")
}

// rewind runs do, which sends the whole ensemble's history back (a wipe, a
// restore), records it as the fault name, and makes the campaign's nodes
// again.
func (in *Injector) rewind(ctx context.Context, ev *Event, name string, do func(context.Context) error, detail string) {
	ev.Target = "all servers"
	in.w.Mon.SetCurrent(name)
	rec := in.w.Rec
	call := rec.Now()
	err := do(ctx)
	// The registers kept in ZooKeeper went back with it: the checker
	// judges their writes within one history.
	var regs []string
	for _, lp := range append(append([]*workload.LockPath(nil), in.w.Excl...), in.w.RW...) {
		regs = append(regs, lp.ZKRegister())
	}
	rec.Add(checker.Record{Kind: checker.KindFault, Fault: name, Target: checker.TargetAll,
		Call: call, Return: rec.Now(), Nodes: regs})
	in.w.Mon.Faults.Add(1)
	if err != nil {
		ev.Error = err.Error()
		return
	}
	ev.Detail = detail
	if err := in.remakePaths(ctx); err != nil {
		ev.Error = fmt.Sprintf("the campaign's nodes could not be made again after the %s: %v", name, err)
	}
}

// remakePaths makes the campaign's lock paths and data nodes again after a
// wipe, as the operator restoring service would, with the ACLs the
// campaign made them with.
func (in *Injector) remakePaths(ctx context.Context) error {
	conn, err := in.dial(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if in.w.Cfg.Auth != nil {
		if err := conn.AddAuth(workload.AuthScheme, in.w.Cfg.Auth); err != nil {
			return err
		}
	}
	for _, lp := range append(append([]*workload.LockPath(nil), in.w.Excl...), in.w.RW...) {
		for _, p := range []string{lp.Path, lp.Data} {
			if err := makeAll(conn, p, in.w.Cfg.Auth != nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// makeAll creates p and its missing ancestors: /zklock-chaos open to all,
// the rest with workload.LockACL when the campaign has credentials.
func makeAll(conn *zk.Conn, p string, acl bool) error {
	for i := 1; i <= len(p); i++ {
		if i < len(p) && p[i] != '/' {
			continue
		}
		dir := p[:i]
		a := zk.WorldACL(zk.PermAll)
		if acl && dir != "/zklock-chaos" {
			a = workload.LockACL()
		}
		if _, err := conn.Create(dir, nil, 0, a); err != nil && !errors.Is(err, zk.ErrNodeExists) {
			return fmt.Errorf("creating %s: %w", dir, err)
		}
	}
	return nil
}

// Wipe wipes the local ensemble (ensemble.Ensemble.Wipe), on its own
// context like bringBack: a wipe that has begun ends with the ensemble up.
func (l *localCluster) Wipe(ctx context.Context) error {
	hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), healTimeout)
	defer cancel()
	return l.e.Wipe(hctx)
}
