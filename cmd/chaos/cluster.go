package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/zklock/zklock/ensemble"
)

// cluster is the ensemble under test and what the campaign can do to its
// servers. Servers are numbered by index in Addrs and named zk1, zk2, ...
type cluster interface {
	Addrs() []string
	// Leader returns the leader's index and the followers' indices.
	Roles(ctx context.Context) (leader int, followers []int, err error)
	// Kill kills server i with SIGKILL, keeps it down for about down, brings
	// it back and waits until the ensemble is healthy.
	Kill(ctx context.Context, i int, down time.Duration) error
	// Pause stops server i (SIGSTOP) for d, continues it and waits until the
	// ensemble is healthy.
	Pause(ctx context.Context, i int, d time.Duration) error
	// Heal brings every server back, heals every link between servers and
	// waits for a healthy ensemble.
	Heal(ctx context.Context) error
	// Partition sets the links between servers: two servers stay joined
	// only if a group holds both (see ensemble.Ensemble.Partition).
	Partition(groups ...[]int) error
	// CutLink and HealLink cut and heal the link between servers i and j.
	CutLink(i, j int) error
	HealLink(i, j int) error
	// HealLinks heals every link and waits until the ensemble is healthy.
	HealLinks(ctx context.Context) error
	// Timing is the servers' tickTime and syncLimit, which zklock's loss
	// rule needs (zklock.WithEnsembleTiming).
	Timing() (tickTime time.Duration, syncLimit int)
	// Describe says what the cluster is, for the report.
	Describe() string
	// Close releases the cluster; with a non-empty dir, server logs worth
	// keeping are copied there first.
	Close(keepLogsIn string) error
}

func serverName(i int) string { return fmt.Sprintf("zk%d", i+1) }

// healTimeout bounds a wait for the ensemble's health after a fault: three
// JVMs restarting on two cores can take a while.
const healTimeout = 2 * time.Minute

// localCluster is an ensemble started by this process (or, in tests, shared
// with it: then it is healed but not stopped).
type localCluster struct {
	e     *ensemble.Ensemble
	owned bool
}

func startLocal(ctx context.Context, syncLimit int) (*localCluster, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	e, err := ensemble.Start(ctx, ensemble.Config{SyncLimit: syncLimit})
	if err != nil {
		return nil, fmt.Errorf("starting a local ensemble: %w", err)
	}
	return &localCluster{e: e, owned: true}, nil
}

func (l *localCluster) Addrs() []string { return l.e.Addrs() }

func (l *localCluster) Timing() (time.Duration, int) { return l.e.TickTime(), l.e.SyncLimit() }

func (l *localCluster) Describe() string {
	return fmt.Sprintf("local %d-node ensemble, ZooKeeper %s (tickTime %v, syncLimit %d) at %s", l.e.Size(), l.e.Version(), l.e.TickTime(), l.e.SyncLimit(), strings.Join(l.e.Addrs(), ","))
}

func (l *localCluster) Partition(groups ...[]int) error { return l.e.Partition(groups...) }
func (l *localCluster) CutLink(i, j int) error          { return l.e.CutLink(i, j) }
func (l *localCluster) HealLink(i, j int) error         { return l.e.HealLink(i, j) }

// HealLinks heals on its own context, like bringBack: a partition that has
// begun is healed even when the campaign is interrupted.
func (l *localCluster) HealLinks(ctx context.Context) error {
	if err := l.e.HealAll(); err != nil {
		return err
	}
	hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), healTimeout)
	defer cancel()
	return l.e.WaitHealthy(hctx)
}

func (l *localCluster) Roles(ctx context.Context) (int, []int, error) {
	leader, err := l.e.Leader(ctx)
	if err != nil {
		return -1, nil, err
	}
	var followers []int
	for i := 0; i < l.e.Size(); i++ {
		if i != leader && l.e.Running(i) && !l.e.Paused(i) {
			followers = append(followers, i)
		}
	}
	return leader, followers, nil
}

func (l *localCluster) Kill(ctx context.Context, i int, down time.Duration) error {
	if err := l.e.Kill(i); err != nil {
		return err
	}
	sleepCtx(ctx, down)
	return l.bringBack(i)
}

func (l *localCluster) Pause(ctx context.Context, i int, d time.Duration) error {
	if err := l.e.Pause(i); err != nil {
		return err
	}
	sleepCtx(ctx, d)
	if err := l.e.Resume(i); err != nil {
		return err
	}
	hctx, cancel := context.WithTimeout(context.Background(), healTimeout)
	defer cancel()
	return l.e.WaitHealthy(hctx)
}

// bringBack restarts server i and waits for health, on its own context:
// a fault that has begun is healed even when the campaign is interrupted.
func (l *localCluster) bringBack(i int) error {
	hctx, cancel := context.WithTimeout(context.Background(), healTimeout)
	defer cancel()
	if err := l.e.Restart(hctx, i); err != nil {
		return err
	}
	return l.e.WaitHealthy(hctx)
}

func (l *localCluster) Heal(ctx context.Context) error {
	hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), healTimeout)
	defer cancel()
	return l.e.Heal(hctx)
}

func (l *localCluster) Close(keepLogsIn string) error {
	if keepLogsIn != "" {
		for i, p := range l.e.LogPaths() {
			copyFile(p, filepath.Join(keepLogsIn, serverName(i)+".log"))
		}
	}
	if !l.owned {
		return nil
	}
	return l.e.Stop()
}

// externalCluster is an ensemble the campaign did not start (--servers).
// Server faults go through the operator's --kill-cmd.
type externalCluster struct {
	addrs     []string
	killCmd   string
	tickTime  time.Duration // as the operator says (--tick-time, --sync-limit)
	syncLimit int
}

// openExternal checks that every server answers before the campaign starts.
func openExternal(ctx context.Context, addrs []string, killCmd string, tickTime time.Duration, syncLimit int) (*externalCluster, error) {
	x := &externalCluster{addrs: addrs, killCmd: killCmd, tickTime: tickTime, syncLimit: syncLimit}
	for i, a := range addrs {
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		_, err := srvr(pctx, a)
		cancel()
		if err != nil {
			return nil, fmt.Errorf("server %s (%s) unreachable: %w", serverName(i), a, err)
		}
	}
	return x, nil
}

func srvr(ctx context.Context, addr string) (ensemble.Stat, error) {
	out, err := ensemble.FourLetterWord(ctx, addr, "srvr")
	if err != nil {
		return ensemble.Stat{}, err
	}
	return ensemble.ParseSrvr(out)
}

func (x *externalCluster) Addrs() []string { return x.addrs }

func (x *externalCluster) Timing() (time.Duration, int) { return x.tickTime, x.syncLimit }

func (x *externalCluster) Describe() string {
	return "external ensemble at " + strings.Join(x.addrs, ",")
}

func (x *externalCluster) Roles(ctx context.Context) (int, []int, error) {
	leader := -1
	var followers []int
	for i, a := range x.addrs {
		st, err := srvr(ctx, a)
		if err != nil {
			continue
		}
		switch st.Mode {
		case ensemble.ModeLeader, ensemble.ModeStandalone:
			if leader >= 0 {
				return -1, nil, ensemble.ErrNoLeader
			}
			leader = i
		case ensemble.ModeFollower:
			followers = append(followers, i)
		}
	}
	if leader < 0 {
		return -1, nil, ensemble.ErrNoLeader
	}
	return leader, followers, nil
}

func (x *externalCluster) Kill(ctx context.Context, i int, down time.Duration) error {
	if err := x.run(ctx, i, "KILL"); err != nil {
		return err
	}
	sleepCtx(ctx, down)
	return x.Heal(ctx)
}

func (x *externalCluster) Pause(ctx context.Context, i int, d time.Duration) error {
	if err := x.run(ctx, i, "STOP"); err != nil {
		return err
	}
	sleepCtx(ctx, d)
	if err := x.run(context.WithoutCancel(ctx), i, "CONT"); err != nil {
		return err
	}
	return x.Heal(ctx)
}

// run runs --kill-cmd for server i with the signal substituted.
func (x *externalCluster) run(ctx context.Context, i int, signal string) error {
	host, port, _ := net.SplitHostPort(x.addrs[i])
	cmd := strings.NewReplacer("{addr}", x.addrs[i], "{host}", host, "{port}", port, "{signal}", signal).Replace(x.killCmd)
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(cctx, "sh", "-c", cmd).CombinedOutput()
	if err != nil {
		return fmt.Errorf("--kill-cmd %q: %w: %s", cmd, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// Heal waits until every server answers and exactly one leads: bringing a
// killed server back is the --kill-cmd's (or its supervisor's) job.
func (x *externalCluster) Heal(ctx context.Context) error {
	hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), healTimeout)
	defer cancel()
	var last error
	for {
		last = nil
		for _, a := range x.addrs {
			if _, err := srvr(hctx, a); err != nil {
				last = err
				break
			}
		}
		if last == nil {
			if _, _, err := x.Roles(hctx); err == nil {
				return nil
			} else {
				last = err
			}
		}
		if !sleepCtx(hctx, 500*time.Millisecond) {
			return fmt.Errorf("external ensemble not healthy after %v: %w", healTimeout, last)
		}
	}
}

func (x *externalCluster) Close(string) error { return nil }

// errNoLinks: an external ensemble's links between servers are not ours to
// cut (config.validate refuses the link faults with --servers).
var errNoLinks = errors.New("cutting links between servers needs the local ensemble")

func (x *externalCluster) Partition(...[]int) error            { return errNoLinks }
func (x *externalCluster) CutLink(int, int) error              { return errNoLinks }
func (x *externalCluster) HealLink(int, int) error             { return errNoLinks }
func (x *externalCluster) HealLinks(ctx context.Context) error { return x.Heal(ctx) }

// sleepCtx sleeps for d or until ctx ends; it reports whether d passed.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	return errors.Join(err, out.Close())
}
