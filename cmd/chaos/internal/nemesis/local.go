package nemesis

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/zklock/zklock/ensemble"
)

// localCluster is an ensemble started by this process (or, in tests, shared
// with it: then it is healed but not stopped).
type localCluster struct {
	e     *ensemble.Ensemble
	owned bool
}

// StartLocal starts a local 3-node ensemble with syncLimit; Close stops it.
func StartLocal(ctx context.Context, syncLimit int) (Cluster, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	e, err := ensemble.Start(ctx, ensemble.Config{SyncLimit: syncLimit})
	if err != nil {
		return nil, fmt.Errorf("starting a local ensemble: %w", err)
	}
	return &localCluster{e: e, owned: true}, nil
}

// SharedLocal is the local ensemble e, which the caller started and stops:
// Close heals it but does not stop it.
func SharedLocal(e *ensemble.Ensemble) Cluster { return &localCluster{e: e} }

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
	Sleep(ctx, down)
	return l.bringBack(i)
}

func (l *localCluster) Pause(ctx context.Context, i int, d time.Duration) error {
	if err := l.e.Pause(i); err != nil {
		return err
	}
	Sleep(ctx, d)
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
