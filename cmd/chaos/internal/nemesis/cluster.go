// Package nemesis injects a campaign's faults: it carries out a schedule
// (package schedule) one fault at a time on the clients' fault-injecting
// proxies, their processes (an in-process freeze), the links between the
// servers of a local ensemble, and the servers themselves (kill -9 and
// SIGSTOP, on a local ensemble directly, on an operator's through
// --kill-cmd), healing each before the next; it chooses each fault's
// target, by its role, at the moment of injection.
package nemesis

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// Cluster is the ensemble under test and what the campaign can do to its
// servers. Servers are numbered by index in Addrs and named zk1, zk2, ...
type Cluster interface {
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

// Sleep sleeps for d or until ctx ends; it reports whether d passed.
func Sleep(ctx context.Context, d time.Duration) bool {
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
