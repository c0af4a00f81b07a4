package nemesis

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"strings"
	"time"

	"github.com/zklock/zklock/ensemble"
)

// externalCluster is an ensemble the campaign did not start (--servers).
// Server faults go through the operator's --kill-cmd.
type externalCluster struct {
	addrs     []string
	killCmd   string
	tickTime  time.Duration // as the operator says (--tick-time, --sync-limit)
	syncLimit int
}

// OpenExternal is the ensemble at addrs, which the campaign did not start
// (--servers): server faults run killCmd, and its servers' tickTime and
// syncLimit are as the operator says. It checks that every server answers
// before the campaign starts.
func OpenExternal(ctx context.Context, addrs []string, killCmd string, tickTime time.Duration, syncLimit int) (Cluster, error) {
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
	Sleep(ctx, down)
	return x.Heal(ctx)
}

func (x *externalCluster) Pause(ctx context.Context, i int, d time.Duration) error {
	if err := x.run(ctx, i, "STOP"); err != nil {
		return err
	}
	Sleep(ctx, d)
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
		if !Sleep(hctx, 500*time.Millisecond) {
			return fmt.Errorf("external ensemble not healthy after %v: %w", healTimeout, last)
		}
	}
}

func (x *externalCluster) Close(string) error { return nil }

// errNoLinks: an external ensemble's links between servers are not ours to
// cut (cmd/chaos refuses the link faults with --servers).
var errNoLinks = errors.New("cutting links between servers needs the local ensemble")

func (x *externalCluster) Partition(...[]int) error            { return errNoLinks }
func (x *externalCluster) CutLink(int, int) error              { return errNoLinks }
func (x *externalCluster) HealLink(int, int) error             { return errNoLinks }
func (x *externalCluster) HealLinks(ctx context.Context) error { return x.Heal(ctx) }
