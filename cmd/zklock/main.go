// Command zklock looks at zklock's locks on a ZooKeeper ensemble.
//
//	zklock inspect [flags] PATH...
//
// inspect reads each path as its recipe reads it (after a sync, so a
// lagging server answers as up to date as the leader), telling the recipe
// from the children's names: an election's ("latch-" candidates), a
// semaphore's (the folders leases and locks), else a lock's. A lock shows
// its contenders in queue order, which one holds, whom each waiter waits
// for and why; an election who leads (its value, epoch and since when)
// and the candidates in line; a semaphore its lease holders, the lease of
// the acquirer holding its internal lock, and the acquirers queued on that
// lock. Every node shows its fencing token, age, owning session, whether
// that session is connected to a server now, and holder identity (the
// data zklock writes by default). "connected" asks every member the
// ensemble's configuration names (/zookeeper/config, each server line's
// client address after ";") and those of --servers, with the four-letter
// word cons where the servers allow it: a session no member lists is
// disconnected (its nodes go when the server expires it), and "?" marks
// only the rows no answering member lists while another did not answer.
// --json prints one object per path: "kind" (lock, election or semaphore)
// and impl/zklock's LockView, ElectionView or SemaphoreView (the schema is
// their JSON tags, documented there), with "connected", each node's name
// mapped to whether its session is connected now where that is known (and
// "connected_unknown", why some node is not); --watch prints the views
// again whenever a queue changes (or a leader's value), on ZooKeeper
// watches, one per node at a time, not by polling.
//
// Connect flags are NewSession's: --servers takes a connect string,
// chroot suffix included; --session-timeout, and the servers' --tick-time
// and --sync-limit (zoo.cfg; ZooKeeper's shipped 2s and 5 by default),
// which the session's loss rule needs; --auth scheme:credential; --tls-ca
// for a TLS port.
//
//	go install github.com/zklock/zklock/cmd/zklock@latest
//	zklock inspect --servers zk1:2181,zk2:2181/app /locks/orders
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command on its arguments; it returns the exit status: 0, 1
// when a path could not be read, 2 for bad usage.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "inspect" {
		fmt.Fprintln(stderr, "usage: zklock inspect [--servers host:port,...[/chroot]] [--json] [--watch] PATH...")
		return 2
	}
	return inspect(ctx, args[1:], stdout, stderr)
}
