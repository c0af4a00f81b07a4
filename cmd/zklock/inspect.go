package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/zklock/zklock/impl/zklock"
)

// inspectFlags are inspect's command line.
type inspectFlags struct {
	servers string
	timeout time.Duration
	tick    time.Duration
	limit   int
	auth    string
	tlsCA   string
	json    bool
	watch   bool
	paths   []string
}

func parseInspect(args []string, stderr io.Writer) (*inspectFlags, error) {
	f := &inspectFlags{}
	fs := flag.NewFlagSet("zklock inspect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	def := os.Getenv("ZKLOCK_SERVERS")
	if def == "" {
		def = "127.0.0.1:2181"
	}
	fs.StringVar(&f.servers, "servers", def, "connect string: host:port,... with an optional /chroot suffix (default $ZKLOCK_SERVERS)")
	fs.DurationVar(&f.timeout, "session-timeout", zklock.DefaultSessionTimeout, "session timeout to ask for")
	fs.DurationVar(&f.tick, "tick-time", 2*time.Second, "the servers' tickTime (zoo.cfg)")
	fs.IntVar(&f.limit, "sync-limit", 5, "the servers' syncLimit (zoo.cfg)")
	fs.StringVar(&f.auth, "auth", "", "credentials as scheme:credential, e.g. digest:user:password")
	fs.StringVar(&f.tlsCA, "tls-ca", "", "PEM file of the CA that signed the servers' certificates: connect over TLS")
	fs.BoolVar(&f.json, "json", false, "print each path's view as one JSON object (impl/zklock LockView)")
	fs.BoolVar(&f.watch, "watch", false, "print again whenever a queue changes (ZooKeeper watches), until interrupted")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	f.paths = fs.Args()
	if len(f.paths) == 0 {
		fs.Usage()
		return nil, errors.New("no lock path")
	}
	return f, nil
}

func (f *inspectFlags) options() ([]zklock.SessionOption, error) {
	opts := []zklock.SessionOption{zklock.WithSessionTimeout(f.timeout), zklock.WithEnsembleTiming(f.tick, f.limit)}
	if f.auth != "" {
		scheme, cred, ok := strings.Cut(f.auth, ":")
		if !ok {
			return nil, fmt.Errorf("--auth %q: want scheme:credential", f.auth)
		}
		opts = append(opts, zklock.WithAuth(scheme, []byte(cred)))
	}
	if f.tlsCA != "" {
		pem, err := os.ReadFile(f.tlsCA)
		if err != nil {
			return nil, fmt.Errorf("--tls-ca: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--tls-ca %s: no PEM certificate", f.tlsCA)
		}
		opts = append(opts, zklock.WithTLS(&tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}))
	}
	return opts, nil
}

func inspect(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	f, err := parseInspect(args, stderr)
	if err != nil {
		return 2
	}
	opts, err := f.options()
	if err != nil {
		fmt.Fprintln(stderr, "zklock inspect:", err)
		return 2
	}
	s, err := zklock.NewSession(ctx, []string{f.servers}, opts...)
	if err != nil {
		fmt.Fprintln(stderr, "zklock inspect:", err)
		return 1
	}
	defer s.Close()
	var w *watcher
	if f.watch {
		wctx, stop := context.WithCancel(ctx)
		w = newWatcher(wctx, s.Conn())
		defer func() { stop(); w.wait() }()
	}
	for {
		if w != nil {
			if err := watchPaths(w, s, f.paths); err != nil {
				fmt.Fprintln(stderr, "zklock inspect:", err)
				return 1
			}
		}
		data, err := show(ctx, s, f, stdout)
		if err != nil {
			fmt.Fprintln(stderr, "zklock inspect:", err)
			return 1
		}
		if w == nil {
			return 0
		}
		for _, n := range data {
			w.data(n)
		}
		select {
		case <-w.changed:
		case err := <-w.errs:
			fmt.Fprintln(stderr, "zklock inspect:", err)
			return 1
		case <-ctx.Done():
			return 0
		case <-s.Done():
			fmt.Fprintln(stderr, "zklock inspect:", s.Err())
			return 1
		}
	}
}

// watchPaths arms, before a view is read (so no change between the watch
// and the view goes unseen), a child watch on each path and on the two
// folders of a semaphore at it; each stays armed across views (watcher).
func watchPaths(w *watcher, s *zklock.Session, paths []string) error {
	for _, p := range paths {
		full := s.Chroot() + p
		for _, n := range []string{full, full + "/leases", full + "/locks"} {
			if err := w.children(n); err != nil {
				return err
			}
		}
	}
	return nil
}

// show prints every path once (with --watch, on a cleared terminal), each
// as its kind reads it. It returns the nodes whose data the view shows (an
// election's leader, whose value Proclaim replaces) for --watch to watch.
func show(ctx context.Context, s *zklock.Session, f *inspectFlags, w io.Writer) ([]string, error) {
	if f.watch && !f.json {
		fmt.Fprintf(w, "\x1b[H\x1b[2J%s\n", time.Now().Format(time.TimeOnly)) // clear the terminal
	}
	live := liveness{}
	if f.tlsCA != "" {
		live.why = "cons is not asked over TLS"
	} else {
		live = connectedSessions(ctx, s, f.servers)
	}
	var data []string
	for _, p := range f.paths {
		out, err := inspectPath(ctx, s, p)
		if err != nil {
			return nil, err
		}
		if out.election != nil && out.election.Leader != nil {
			data = append(data, s.Chroot()+p+"/"+out.election.Leader.Node)
		}
		if f.json {
			if err := json.NewEncoder(w).Encode(out.json(live)); err != nil {
				return nil, err
			}
			continue
		}
		out.write(w, live, time.Now())
	}
	return data, nil
}
