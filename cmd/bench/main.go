// Command bench measures zklock against go-zookeeper's zk.Lock, Apache
// Curator's recipes (through the Java harness in bench/curator) and
// the physical floor of a ZooKeeper lock, all in one run against one real
// ensemble, and reports medians over repetitions with their spread, as
// absolute numbers and as ratios to the floor and to zklock:
//
//	go run ./cmd/bench                        # full run, writes bench/RESULTS.md
//	go run ./cmd/bench --quick --out ''       # smoke run, a minute or two
//	go run ./cmd/bench --servers h:p,h:p,h:p --impl zklock,floor --clients 1,8
//	go run ./cmd/bench --impl zklock,curator --locks=false --rw=false --failover '' --queue ''   # the semaphore alone
//	go run ./cmd/bench --impl zklock,zk.Lock --locks=false --rw=false --failover '' --semaphore ''   # the queue alone
//
// Without --servers it starts a local 3-node ensemble (package ensemble) and
// stops it at the end. Timings are never pass/fail: this is a report.
//
// What is measured (see also the floor's definition in impls.go):
//   - uncontended: one client acquires and releases, back to back;
//   - contended: N clients, one session each, loop on one lock path;
//     throughput, acquire latency, and hand-off (release start -> next grant);
//   - read-mostly: the same with read/write locks, one acquisition in K a write;
//   - semaphore (semaphore.go): N clients loop on one semaphore of max
//     leases, zklock's Semaphore against Curator's InterProcessSemaphoreV2;
//   - queue (queue.go): N waiters (16 to 4,096) join one path behind a
//     holder over 16 sessions, then drain, zklock's Mutex against zk.Lock;
//   - failover (failover.go): a leader's Resign, closed session or expired
//     session, to the next candidate leading and every observer reporting
//     it, against a floor hand-off sampled after each round and against
//     Curator's LeaderLatch.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/bench/curator"
	"github.com/zklock/zklock/ensemble"
)

// config is one benchmark run's parameters.
type config struct {
	servers        []string
	impls          []string
	clients        []int
	iterations     int
	warmup         int
	duration       time.Duration
	warm           time.Duration
	reps           int
	writeEvery     int
	hold           time.Duration // contended and read-mostly runs: how long a holder keeps the lock
	readMostly     bool
	locks          bool  // the uncontended and contended lock runs (and the floor's)
	semaphores     []int // the semaphore runs' maxes (leases held at once)
	queue          []int // the queue runs' waiter counts (queue.go)
	queueSessions  int   // the sessions a queue run's waiters are spread over
	sessionTimeout time.Duration
	tickTime       time.Duration // the servers', for zklock's loss rule
	syncLimit      int
	out            string
	quick          bool
	maxRun         time.Duration
	failover       []string // failover kinds (kindFail*) to measure
	failoverRounds int      // measured rounds of a resign or close failover run
	expireRounds   int      // measured rounds of an expiry run, each a session timeout long
	observers      int
	expireTimeout  time.Duration // the session timeout of expiry runs' candidates
	args           []string      // as given, for the report

	// Set while running, not by flags.
	admin      *zk.Conn // a session of the bench's own: creates paths, probes stalls
	serverLogs []string // the local ensemble's server logs (none with --servers)
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := mainErr(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := config{args: args}
	servers := fs.String("servers", "", "comma-separated ZooKeeper servers; default: start a local 3-node ensemble")
	impls := fs.String("impl", "floor,zklock,zk.Lock,curator", "implementations to measure, comma-separated")
	clients := fs.String("clients", "1,4,16,64", "contending client counts, comma-separated")
	fs.IntVar(&cfg.iterations, "iterations", 300, "measured uncontended acquire+release pairs per repetition")
	fs.IntVar(&cfg.warmup, "warmup", 50, "unmeasured rounds before them")
	fs.DurationVar(&cfg.duration, "duration", 3*time.Second, "measured window of each contended run")
	fs.DurationVar(&cfg.warm, "warm", 500*time.Millisecond, "unmeasured window before it")
	fs.IntVar(&cfg.reps, "reps", 5, "repetitions; medians and ranges are over these")
	fs.IntVar(&cfg.writeEvery, "write-every", 10, "read-mostly runs: one acquisition in this many is a write")
	fs.DurationVar(&cfg.hold, "hold", 0, "contended and read-mostly runs: each holder keeps the lock this long before it releases (0: at once); a hold of a few round trips lets a zklock waiter woken by the node two ahead be ready for its one-notification hand-off before its predecessor releases (the floor's write ceiling runs without it)")
	fs.BoolVar(&cfg.readMostly, "rw", true, "also run read-mostly read/write-lock runs (zklock, curator)")
	fs.BoolVar(&cfg.locks, "locks", true, "run the uncontended and contended lock runs and the floor's (false: only the other axes)")
	semaphores := fs.String("semaphore", "1,3,8", "semaphore runs (zklock, curator): the semaphores' max leases, comma-separated; '' for none")
	queue := fs.String("queue", "16,1024,4096", "queue runs (zklock, zk.Lock): N waiters join one path behind a holder, then drain; the waiter counts, comma-separated, the first the short queue the others are compared with; '' for none")
	fs.IntVar(&cfg.queueSessions, "queue-sessions", 16, "queue runs: the sessions the waiters are spread over")
	fs.DurationVar(&cfg.sessionTimeout, "session-timeout", 10*time.Second, "session timeout every client asks for")
	fs.DurationVar(&cfg.tickTime, "tick-time", 2*time.Second, "with --servers: the servers' tickTime (zoo.cfg), for zklock's loss rule")
	fs.IntVar(&cfg.syncLimit, "sync-limit", 5, "with --servers: the servers' syncLimit (zoo.cfg), for zklock's loss rule")
	fs.StringVar(&cfg.out, "out", "bench/RESULTS.md", "also write the report here ('' for stdout only)")
	fs.BoolVar(&cfg.quick, "quick", false, "smoke run: 3 short repetitions, clients 1,4, semaphore max 3, 8 failover rounds and 1 of expiry (a minute or two)")
	failover := fs.String("failover", "resign,standby,close,expire", "leader-election failover runs (zklock, curator): resign, standby (a third candidate queued behind the next; zklock only), close, expire; '' for none")
	fs.IntVar(&cfg.failoverRounds, "failover-rounds", 30, "measured rounds of each resign and close failover run")
	fs.IntVar(&cfg.expireRounds, "expire-rounds", 3, "measured rounds of each expiry failover run (each waits out a session timeout)")
	fs.IntVar(&cfg.observers, "observers", 3, "failover runs: observing sessions")
	fs.DurationVar(&cfg.expireTimeout, "expire-timeout", 6*time.Second, "failover expiry runs: the candidates' session timeout (zklock needs it above the sync lag, (syncLimit+1) x tickTime, plus its margins)")
	fs.DurationVar(&cfg.maxRun, "max", 30*time.Minute, "give up (exit 1) after this long: zk.Lock cannot be canceled")
	err := fs.Parse(args)
	if err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if cfg.quick {
		applyQuick(fs, &cfg, clients, semaphores, queue)
	}
	if err := cfg.parseLists(*servers, *impls, *failover, *semaphores, *queue, *clients); err != nil {
		return config{}, err
	}
	if err := cfg.validate(); err != nil {
		return config{}, err
	}
	return cfg, nil
}

// applyQuick sets --quick's smaller values for every flag the user did not
// set.
func applyQuick(fs *flag.FlagSet, cfg *config, clients, semaphores, queue *string) {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	quick := map[string]func(){
		"iterations":      func() { cfg.iterations = 60 },
		"warmup":          func() { cfg.warmup = 20 },
		"duration":        func() { cfg.duration = 700 * time.Millisecond },
		"warm":            func() { cfg.warm = 200 * time.Millisecond },
		"reps":            func() { cfg.reps = 3 },
		"clients":         func() { *clients = "1,4" },
		"semaphore":       func() { *semaphores = "3" },
		"queue":           func() { *queue = "16,256" },
		"failover-rounds": func() { cfg.failoverRounds = 8 },
		"expire-rounds":   func() { cfg.expireRounds = 1 },
	}
	for name, apply := range quick {
		if !set[name] {
			apply()
		}
	}
}

// parseLists parses the comma-separated flags into cfg.
func (cfg *config) parseLists(servers, impls, failover, semaphores, queue, clients string) error {
	if servers != "" {
		cfg.servers = strings.Split(servers, ",")
	}
	for _, name := range strings.Split(impls, ",") {
		name = strings.TrimSpace(name)
		if _, ok := goImpls[name]; !ok && name != implCurator {
			return fmt.Errorf("--impl: unknown implementation %q (floor, zklock, zk.Lock, curator)", name)
		}
		if !slices.Contains(cfg.impls, name) {
			cfg.impls = append(cfg.impls, name)
		}
	}
	for _, k := range strings.Split(failover, ",") {
		k = strings.TrimSpace(k)
		if k == "" {
			continue
		}
		if !slices.Contains(failoverKinds, "failover-"+k) {
			return fmt.Errorf("--failover: unknown kind %q (resign, standby, close, expire)", k)
		}
		if !slices.Contains(cfg.failover, "failover-"+k) {
			cfg.failover = append(cfg.failover, "failover-"+k)
		}
	}
	var err error
	if cfg.semaphores, err = parseMaxes(semaphores); err != nil {
		return err
	}
	if cfg.queue, err = parseQueue(queue); err != nil {
		return err
	}
	for _, s := range strings.Split(clients, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return fmt.Errorf("--clients: %q is not a positive count", s)
		}
		cfg.clients = append(cfg.clients, n)
	}
	return nil
}

// validate rejects counts and durations out of range.
func (cfg *config) validate() error {
	switch {
	case cfg.iterations < 1, cfg.warmup < 0, cfg.reps < 1, cfg.writeEvery < 1:
		return errors.New("--iterations, --reps and --write-every must be positive, --warmup not negative")
	case cfg.duration <= 0, cfg.warm < 0, cfg.sessionTimeout <= 0, cfg.hold < 0:
		return errors.New("--duration and --session-timeout must be positive, --warm and --hold not negative")
	case cfg.failoverRounds < 1, cfg.expireRounds < 1, cfg.observers < 1, cfg.expireTimeout <= 0:
		return errors.New("--failover-rounds, --expire-rounds, --observers and --expire-timeout must be positive")
	case cfg.queueSessions < 1:
		return errors.New("--queue-sessions must be positive")
	}
	return nil
}

func mainErr(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	// zk.Lock takes no context: if a run ever hangs, only a watchdog ends it.
	watchdog := time.AfterFunc(cfg.maxRun, func() {
		fmt.Fprintf(stderr, "bench: still running after %v; giving up\n", cfg.maxRun)
		os.Exit(1)
	})
	defer watchdog.Stop()
	began := time.Now()
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, format+"\n", args...) }

	var ens *ensemble.Ensemble
	if cfg.servers == nil {
		logf("starting a local 3-node ensemble")
		ens, err = ensemble.Start(ctx, ensemble.Config{})
		if err != nil {
			return err
		}
		defer ens.Stop()
		cfg.servers = ens.Addrs()
		cfg.tickTime, cfg.syncLimit = ens.TickTime(), ens.SyncLimit()
		cfg.serverLogs = ens.LogPaths()
	}
	var h *curator.Harness
	if slices.Contains(cfg.impls, implCurator) {
		cache, err := curator.CacheDir()
		if err != nil {
			return err
		}
		if h, err = curator.Prepare(ctx, cache, stderr); err != nil {
			return err
		}
	}
	facts, err := gatherFacts(ctx, cfg, h)
	if err != nil {
		return err
	}

	admin, err := connect(ctx, cfg)
	if err != nil {
		return err
	}
	defer admin.Close()
	cfg.admin = admin
	root := fmt.Sprintf("/zklock-bench/%d", time.Now().UnixNano())
	defer deleteTree(admin, root)

	runs, err := measureReps(ctx, cfg, h, admin, root, logf)
	if err != nil {
		return err
	}
	facts.Elapsed = time.Since(began)
	facts.LoadEnd = loadAvg()

	var charts []string
	if cfg.out != "" {
		if err := os.MkdirAll(filepath.Dir(cfg.out), 0o755); err != nil {
			return err
		}
		// The charts go next to the report, which links them.
		charts, err = writeCharts(filepath.Dir(cfg.out), cfg, newTable(cfg, runs))
		if err != nil {
			return fmt.Errorf("charts: %w", err)
		}
	}
	report := renderReport(cfg, facts, runs, charts)
	if _, err := io.WriteString(stdout, report); err != nil {
		return err
	}
	if cfg.out != "" {
		if err := os.WriteFile(cfg.out, []byte(report), 0o644); err != nil {
			return err
		}
		logf("report written to %s, charts %v", cfg.out, charts)
	}
	return nil
}

// measureReps measures every implementation cfg.reps times under root.
func measureReps(ctx context.Context, cfg config, h *curator.Harness, admin *zk.Conn, root string, logf func(string, ...any)) ([]run, error) {
	var runs []run
	for rep := range cfg.reps {
		// Rotate the order so that no implementation always runs first (or
		// right after the JVM start) on a machine whose load drifts.
		order := slices.Clone(cfg.impls)
		order = append(order[rep%len(order):], order[:rep%len(order)]...)
		for _, name := range order {
			logf("rep %d/%d: %s", rep+1, cfg.reps, name)
			got, err := measureImpl(ctx, cfg, h, admin, fmt.Sprintf("%s/r%d/%s", root, rep, strings.ReplaceAll(name, ".", "_")), name)
			if err != nil {
				return nil, fmt.Errorf("rep %d, %s: %w", rep+1, name, err)
			}
			for i := range got {
				got[i].Rep = rep
				logRun(logf, got[i])
			}
			runs = append(runs, got...)
		}
	}
	return runs, nil
}

// logRun logs one run's headline numbers.
func logRun(logf func(string, ...any), r run) {
	if strings.HasPrefix(r.Kind, "failover-") {
		logf("  %-15s rounds=%-3d led p50=%v observed p50=%v floor p50=%v", r.Kind, len(r.Latency),
			percentile(r.Latency, 50).Round(time.Microsecond), percentile(r.Observed, 50).Round(time.Microsecond),
			percentile(r.Floor, 50).Round(time.Microsecond))
		return
	}
	logf("  %-11s N=%-2d ops=%-5d %.0f/s p50=%v max=%v hand-off p50=%v max=%v", r.Kind, r.Clients, r.Ops, r.opsPerSec(),
		percentile(r.Latency, 50).Round(time.Microsecond), percentile(r.Latency, 100).Round(time.Microsecond),
		percentile(r.Handoff, 50).Round(time.Microsecond), percentile(r.Handoff, 100).Round(time.Microsecond))
}

// createAll creates path and its missing parents as persistent nodes.
func createAll(c *zk.Conn, path string) error {
	for i := 1; i <= len(path); i++ {
		if i < len(path) && path[i] != '/' {
			continue
		}
		_, err := c.Create(path[:i], nil, 0, zk.WorldACL(zk.PermAll))
		if err != nil && !errors.Is(err, zk.ErrNodeExists) {
			return fmt.Errorf("creating %s: %w", path[:i], err)
		}
	}
	return nil
}

// deleteTree removes path and everything under it, best effort: lock nodes
// of closed sessions may still be vanishing while it runs.
func deleteTree(c *zk.Conn, path string) {
	children, _, err := c.Children(path)
	if err != nil {
		return
	}
	for _, ch := range children {
		deleteTree(c, path+"/"+ch)
	}
	c.Delete(path, -1)
}
