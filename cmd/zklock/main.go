// Command zklock looks at zklock's locks on a ZooKeeper ensemble.
//
//	zklock inspect [flags] PATH...
//
// inspect reads each lock path as the locks read it (after a sync, so a
// lagging server answers as up to date as the leader): the contenders in
// queue order, which one holds, whom each waiter waits for and why, each
// node's fencing token, age, owning session, whether that session is
// connected to a server now (asked with the four-letter word cons, where
// the servers allow it; a disconnected session's nodes go when the server
// expires it), holder identity (the data zklock writes by default), and
// the children that are not contenders. --json prints one object per
// path: impl/zklock's LockView (the schema is its JSON tags, documented
// there) and "connected", each contender's node name mapped to whether its
// session is connected now (or "connected_unknown", why that is not
// known); --watch
// prints the view again whenever a queue changes, on ZooKeeper watches,
// not by polling.
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
