package nemesis

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/checker"
	"github.com/zklock/zklock/cmd/chaos/internal/schedule"
	"github.com/zklock/zklock/cmd/chaos/internal/workload"
)

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
	if f.Kind == schedule.Wipe {
		in.wipe(ctx, ev)
		return
	}
	connect := workload.Connect
	if in.w.TLS != nil {
		connect = func(ctx context.Context, addrs []string, timeout time.Duration) (*zk.Conn, error) {
			return workload.ConnectTLS(ctx, addrs, timeout, in.w.TLS)
		}
	}
	conn, err := connect(ctx, in.clu.Addrs(), in.w.Timeout)
	if err != nil {
		ev.Skipped = fmt.Sprintf("the operator could not connect: %v", err)
		return
	}
	defer conn.Close() // a replacement node goes with it
	if in.w.Cfg.Auth != nil {
		if err := conn.AddAuth(workload.AuthScheme, in.w.Cfg.Auth); err != nil {
			ev.Skipped = fmt.Sprintf("the operator could not authenticate: %v", err)
			return
		}
	}
	c := in.pickClient(ctx, f)
	if c == nil {
		ev.Skipped = fmt.Sprintf("no %s within %v", f.Role, candidateWait)
		return
	}
	_, node, ok := c.Held()
	if !ok || node == "" {
		ev.Skipped = fmt.Sprintf("%s released before the operator came", c.Name())
		return
	}
	ev.Target = c.Name()
	in.w.Mon.SetCurrent(fmt.Sprintf("%s %s", f.Kind, c.Name()))
	rec := in.w.Rec
	call := rec.Now()
	detail, err := operate(conn, f.Kind, node)
	fault(string(f.Kind), c.Name(), call, rec.Now())
	ev.Detail = detail
	if err != nil {
		ev.Error = err.Error()
		return
	}
	if f.Kind == schedule.OperatorReplace {
		Sleep(ctx, replaceHold)
	}
}

// operate deletes node and, for operator-replace, creates one of the same
// name with the same data and ACL in its place, its version set to the
// old one's by as many writes.
func operate(conn *zk.Conn, kind schedule.Kind, node string) (string, error) {
	data, st, err := conn.Get(node)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", node, err)
	}
	acl, _, err := conn.GetACL(node)
	if err != nil {
		return "", fmt.Errorf("reading the ACL of %s: %w", node, err)
	}
	if err := conn.Delete(node, -1); err != nil {
		return "", fmt.Errorf("deleting %s: %w", node, err)
	}
	if kind != schedule.OperatorReplace {
		return fmt.Sprintf("deleted %s (czxid 0x%x)", node, st.Czxid), nil
	}
	if _, err := conn.Create(node, data, zk.FlagEphemeral, acl); err != nil {
		if errors.Is(err, zk.ErrNoNode) {
			return fmt.Sprintf("deleted %s; its parent was gone before the replacement", node), nil
		}
		return "", fmt.Errorf("replacing %s: %w", node, err)
	}
	var version int32
	for version < st.Version {
		nst, err := conn.Set(node, data, version)
		if err != nil {
			return "", fmt.Errorf("setting the replacement's version: %w", err)
		}
		version = nst.Version
	}
	return fmt.Sprintf("replaced %s (czxid 0x%x) by a node of the same name, data and version %d", node, st.Czxid, version), nil
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
	ev.Target = "all servers"
	in.w.Mon.SetCurrent("wipe")
	rec := in.w.Rec
	call := rec.Now()
	err := w.Wipe(ctx)
	// The registers kept in ZooKeeper went back with it: the checker
	// judges their writes within one history.
	var regs []string
	for _, lp := range append(append([]*workload.LockPath(nil), in.w.Excl...), in.w.RW...) {
		regs = append(regs, lp.ZKRegister())
	}
	rec.Add(checker.Record{Kind: checker.KindFault, Fault: checker.FaultWipe, Target: checker.TargetAll,
		Call: call, Return: rec.Now(), Nodes: regs})
	in.w.Mon.Faults.Add(1)
	if err != nil {
		ev.Error = err.Error()
		return
	}
	ev.Detail = "every server stopped, its data emptied, started again; the campaign's lock paths and data nodes made again"
	if err := in.remakePaths(ctx); err != nil {
		ev.Error = fmt.Sprintf("the campaign's nodes could not be made again after the wipe: %v", err)
	}
}

// remakePaths makes the campaign's lock paths and data nodes again after a
// wipe, as the operator restoring service would, with the ACLs the
// campaign made them with.
func (in *Injector) remakePaths(ctx context.Context) error {
	conn, err := workload.Connect(ctx, in.clu.Addrs(), in.w.Timeout)
	if in.w.TLS != nil {
		conn, err = workload.ConnectTLS(ctx, in.clu.Addrs(), in.w.Timeout, in.w.TLS)
	}
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
