package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/zklock/zklock/impl/zklock"
)

// The semaphore axis: N clients, one session each, loop acquire/release of
// one lease of one semaphore of max leases, measured like the contended lock
// runs (contended in measure.go; the Java harness's semaphore-<max> kind for
// Curator's InterProcessSemaphoreV2), with no hand-off: several clients may
// hold at once, so "the last release before a grant" says nothing.

// kindSemaphorePrefix starts a semaphore run's kind: semaphore-<max>.
const kindSemaphorePrefix = "semaphore-"

// semaphoreKind is the run kind of a semaphore of max leases, as both the
// report and the Java harness name it.
func semaphoreKind(max int) string { return kindSemaphorePrefix + strconv.Itoa(max) }

func isSemaphoreKind(kind string) bool { return strings.HasPrefix(kind, kindSemaphorePrefix) }

// parseMaxes reads --semaphore: comma-separated lease counts, each at least
// 1, duplicates dropped; "" is none. The harness takes at most 9999.
func parseMaxes(s string) ([]int, error) {
	var maxes []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 || n > 9999 {
			return nil, fmt.Errorf("--semaphore: %q is not a number of leases from 1 to 9999", f)
		}
		if !slices.Contains(maxes, n) {
			maxes = append(maxes, n)
		}
	}
	return maxes, nil
}

// joinInts is "1, 3, 8".
func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}

// zklockSemClient is a zklock Session and a Semaphore on it.
type zklockSemClient struct {
	s *zklock.Session
	m *zklock.Semaphore
}

// dialZklockSemaphore returns the dialer of zklock's semaphore of max leases.
func dialZklockSemaphore(max int) dialer {
	return func(ctx context.Context, cfg config, path string, _ bool) (lockClient, error) {
		s, err := zklockSession(ctx, cfg, cfg.servers, cfg.sessionTimeout)
		if err != nil {
			return nil, err
		}
		m, err := zklock.NewSemaphore(s, path, max)
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("zklock semaphore: %w", err)
		}
		return &zklockSemClient{s: s, m: m}, nil
	}
}

func (c *zklockSemClient) lock(ctx context.Context, _ bool) (func(context.Context) error, error) {
	l, err := c.m.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	return l.Unlock, nil
}

func (c *zklockSemClient) close()           { c.s.Close() }
func (c *zklockSemClient) sessionID() int64 { return c.s.ID() }
func (c *zklockSemClient) server() string   { return c.s.Conn().Server() }

// measureSemaphores runs zklock's semaphore runs: each max, each client
// count, on a path of its own.
func measureSemaphores(ctx context.Context, cfg config, mk func(string) (string, error)) ([]run, error) {
	var runs []run
	for _, max := range cfg.semaphores {
		for _, n := range cfg.clients {
			kind := semaphoreKind(max)
			p, err := mk(fmt.Sprintf("%s-%d", kind, n))
			if err != nil {
				return nil, err
			}
			r, err := contended(ctx, cfg, implZklock, dialZklockSemaphore(max), p, n, kind)
			if err != nil {
				return nil, fmt.Errorf("%s N=%d: %w", kind, n, err)
			}
			runs = append(runs, r)
		}
	}
	return runs, nil
}

// semaphore: zklock's Semaphore against Curator's InterProcessSemaphoreV2,
// for each max and client count, with what bounds both; only when such
// runs were made.
func (rw *reportWriter) semaphore() {
	t, w := rw.t, rw.w
	if len(rw.cfg.semaphores) == 0 || !rw.has(implZklock) && !rw.has(implCurator) {
		return
	}
	w("## Semaphore: N clients on one semaphore of max leases\n\n")
	w("Each client has its own session and loops acquire/release of one lease, with nothing in between, for %v; "+
		"zklock's `Semaphore` and Curator's `InterProcessSemaphoreV2` on the same node layout. Acquire latency "+
		"includes queueing. `zklock ÷ Curator` is the median of the per-repetition ratios. Requests per "+
		"acquisition are what the three servers received during the window (`mntr`, every session's pings "+
		"and zklock's heartbeat syncs included), divided by the acquisitions in it.\n\n", rw.cfg.duration)
	w("| max | N | zklock acquisitions/s | Curator acquisitions/s | zklock ÷ Curator | zklock acquire p50 | " +
		"Curator acquire p50 | zklock requests per acquisition | Curator requests per acquisition |\n")
	w("|---|---|---|---|---|---|---|---|---|\n")
	for _, max := range rw.cfg.semaphores {
		kind := semaphoreKind(max)
		for _, n := range rw.cfg.clients {
			zk, cur := t.per(implZklock, kind, n, opsRate), t.per(implCurator, kind, n, opsRate)
			w("| %d | %d | %s | %s | %s | %s | %s | %s | %s |\n", max, n, over(zk).rate(), over(cur).rate(),
				over(ratio(zk, cur)).ratio(), over(t.per(implZklock, kind, n, p50)).ms(),
				over(t.per(implCurator, kind, n, p50)).ms(), over(t.per(implZklock, kind, n, reqPerAcq)).plain(),
				over(t.per(implCurator, kind, n, reqPerAcq)).plain())
		}
	}
	w("\n")
	w("What bounds both: the same requests, on the same servers. An acquirer takes the semaphore's internal " +
		"mutex (`P/locks`, a lock queue of its own), creates its lease node in `P/leases`, lists `P/leases` with a " +
		"watch (again after every change while there are more children than max), and deletes its internal " +
		"mutex node; a release deletes the lease node. That is at least six requests per acquisition, four of " +
		"them writes, and the internal mutex puts the acquirers in single file whatever max is: each acquisition " +
		"holds it for a create and a listing (two round trips) and hands it on with a delete and its notification " +
		"(after which Curator's next waiter lists `P/locks` again, while zklock's, which also watches the node two " +
		"ahead of it, is often granted on the notification alone). So acquisitions/s stays under about 1 / (internal hand-off + write + read) for any max; " +
		"with max 1 the lease's release (a delete, its notification and the waiting acquirer's listing) is on the " +
		"path too. A client that releases at once leaves few leases out, so a larger max adds little. Being " +
		"Curator-compatible, zklock cannot ask the servers for less; a win over Curator can only come from round " +
		"trips taken off that serial path.\n\n")
	if slices.Contains(rw.cfg.clients, 16) && rw.has(implZklock) && rw.has(implCurator) {
		var at []string
		for _, max := range rw.cfg.semaphores {
			kind := semaphoreKind(max)
			at = append(at, fmt.Sprintf("max %d: %s", max,
				over(ratio(t.per(implZklock, kind, 16, opsRate), t.per(implCurator, kind, 16, opsRate))).ratio()))
		}
		w("The goal for this axis is at least 1.3× Curator's acquisitions/s at 16 clients. Measured here, zklock ÷ "+
			"Curator at 16 clients: %s.\n\n", strings.Join(at, "; "))
	}
}
