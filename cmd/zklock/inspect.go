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
	"text/tabwriter"
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
		if err := show(ctx, s, f, stdout); err != nil {
			fmt.Fprintln(stderr, "zklock inspect:", err)
			return 1
		}
		if w == nil {
			return 0
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

// show prints every path once (with --watch, on a cleared terminal).
func show(ctx context.Context, s *zklock.Session, f *inspectFlags, w io.Writer) error {
	if f.watch && !f.json {
		fmt.Fprintf(w, "\x1b[H\x1b[2J%s\n", time.Now().Format(time.TimeOnly)) // clear the terminal
	}
	live := liveness{}
	if f.tlsCA != "" {
		live.why = "cons is not asked over TLS"
	} else if ids, err := connectedSessions(ctx, f.servers); err != nil {
		live.why = err.Error()
	} else {
		live.ids = ids
	}
	for _, p := range f.paths {
		v, err := zklock.Inspect(ctx, s, p)
		if err != nil {
			return err
		}
		if f.json {
			if err := json.NewEncoder(w).Encode(live.view(v)); err != nil {
				return err
			}
			continue
		}
		writeView(w, v, live, time.Now())
	}
	return nil
}

// writeView prints one lock path for people: a line per contender, head
// first, saying who holds and what each waiter waits for.
func writeView(w io.Writer, v *zklock.LockView, live liveness, now time.Time) {
	fmt.Fprintf(w, "%s: %d contender(s)", v.Path, len(v.Nodes))
	if v.Zxid == 0 {
		fmt.Fprint(w, " (no lock path)")
	}
	fmt.Fprintln(w)
	pos := map[string]int{}
	for i, n := range v.Nodes {
		pos[n.Name] = i + 1
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  #\tmode\ttoken\tage\tsession\tconnected\tholder\tstate")
	for i, n := range v.Nodes {
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", i+1, n.Mode, token(n), age(n, now), session(n), live.of(n), holder(n), state(n, v, pos))
	}
	tw.Flush()
	if live.why != "" && len(v.Nodes) > 0 {
		fmt.Fprintf(w, "  connected: unknown (%s)\n", live.why)
	}
	for i, n := range v.Nodes {
		fmt.Fprintf(w, "  #%d %s\n", i+1, n.Name)
	}
	if len(v.Other) > 0 {
		fmt.Fprintf(w, "  not contenders: %s\n", strings.Join(v.Other, ", "))
	}
}

func token(n zklock.NodeView) string {
	if n.Gone {
		return "-"
	}
	return fmt.Sprintf("0x%x", n.Token)
}

func age(n zklock.NodeView, now time.Time) string {
	if n.Gone {
		return "-"
	}
	return now.Sub(n.Created).Round(100 * time.Millisecond).String()
}

func session(n zklock.NodeView) string {
	if n.Gone {
		return "-"
	}
	return fmt.Sprintf("0x%x", n.Session)
}

func holder(n zklock.NodeView) string {
	switch {
	case n.Gone:
		return "-"
	case n.Identity != nil:
		return fmt.Sprintf("%s pid %d", n.Identity.Host, n.Identity.PID)
	case n.DataSize > 0:
		return fmt.Sprintf("(%d bytes of other data)", n.DataSize)
	}
	return "(no data)"
}

// state says why a waiter waits: the node it waits for, by position, and
// whether that node holds (so the wait is for its release) or waits too.
func state(n zklock.NodeView, v *zklock.LockView, pos map[string]int) string {
	switch {
	case n.Gone:
		return "gone (released while listed)"
	case n.Holds && n.Mode == zklock.ModeRead:
		return "HOLDS (read, shared)"
	case n.Holds:
		return "HOLDS"
	}
	i := pos[n.WaitsFor]
	why := "its predecessor"
	if n.Mode == zklock.ModeRead {
		why = "the last writer ahead"
	}
	ahead := v.Nodes[i-1]
	if ahead.Holds {
		return fmt.Sprintf("waits for #%d (%s), which holds", i, why)
	}
	return fmt.Sprintf("waits for #%d (%s), which waits too", i, why)
}

// liveness is which sessions some server lists a connection for (cons),
// or why that is not known.
type liveness struct {
	ids map[int64]bool
	why string
}

// jsonView is what --json prints for a path: the LockView's fields, and
// the connection status the text view's "connected" column shows, which
// the library's LockView does not have (it comes from the servers' cons).
type jsonView struct {
	*zklock.LockView
	// Connected maps each contender's node name to whether its session is
	// connected to some server now; absent when that is not known.
	Connected map[string]bool `json:"connected,omitempty"`
	// ConnectedUnknown says why Connected is absent ("" when it is not).
	ConnectedUnknown string `json:"connected_unknown,omitempty"`
}

// view is v with the connection status of its contenders.
func (l liveness) view(v *zklock.LockView) jsonView {
	j := jsonView{LockView: v, ConnectedUnknown: l.why}
	if l.ids == nil {
		if j.ConnectedUnknown == "" {
			j.ConnectedUnknown = "not asked"
		}
		return j
	}
	j.Connected = map[string]bool{}
	for _, n := range v.Nodes {
		if !n.Gone {
			j.Connected[n.Name] = l.ids[n.Session]
		}
	}
	return j
}

// of says whether n's session is connected to a server: "no" means the
// client is away, and the server will expire the session (deleting the
// node) unless the client comes back within its timeout.
func (l liveness) of(n zklock.NodeView) string {
	switch {
	case n.Gone:
		return "-"
	case l.ids == nil:
		return "?"
	case l.ids[n.Session]:
		return "yes"
	}
	return "no"
}
