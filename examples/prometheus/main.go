// Command prometheus shows zklock's metrics on a Prometheus endpoint: the
// zklock.Observer that package otelzklock makes, recorded by an
// OpenTelemetry MeterProvider whose reader is the Prometheus exporter.
// It takes and releases one lock in a loop, so that the metrics move, on a
// new Session whenever the last one ends.
//
//	go run . -servers zk1:2181,zk2:2181,zk3:2181 -lock /locks/demo
//	curl -s localhost:9464/metrics | grep zklock
//
// It is its own Go module (with a replace for zklock), so that the library
// does not carry the Prometheus client among its dependencies.
package main

import (
	"context"
	"errors"
	"flag"
	"log"
	"net/http"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"

	"github.com/zklock/zklock/impl/zklock"
	"github.com/zklock/zklock/otelzklock"
)

func main() {
	servers := flag.String("servers", "127.0.0.1:2181", "ZooKeeper connect string")
	lock := flag.String("lock", "/locks/demo", "lock path")
	addr := flag.String("listen", "127.0.0.1:9464", "address of the /metrics endpoint")
	timeout := flag.Duration("session-timeout", zklock.DefaultSessionTimeout, "session timeout to ask for")
	tick := flag.Duration("tick-time", 2*time.Second, "the servers' tickTime (zoo.cfg)")
	syncLimit := flag.Int("sync-limit", 5, "the servers' syncLimit (zoo.cfg)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	reg := prometheus.NewRegistry()
	obs, err := newObserver(reg)
	if err != nil {
		log.Fatal(err)
	}
	http.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	go func() { log.Fatal(http.ListenAndServe(*addr, nil)) }()

	if err := run(ctx, strings.Split(*servers, ","), *lock, zklock.WithObserver(obs),
		zklock.WithSessionTimeout(*timeout), zklock.WithEnsembleTiming(*tick, *syncLimit)); err != nil {
		log.Fatal(err)
	}
}

// run takes and releases the lock in a loop until ctx ends. A Session
// that has ended (expired, lost, closed) never comes back, and every Lock
// on it fails at once: run then makes a new Session, as zklock's
// documentation tells, rather than spin on the dead one. It returns only
// when ctx ends, or a Session cannot be made for a reason retrying cannot
// mend (bad options, refused credentials).
func run(ctx context.Context, servers []string, lock string, opts ...zklock.SessionOption) error {
	for ctx.Err() == nil {
		s, err := zklock.NewSession(ctx, servers, opts...)
		switch {
		case ctx.Err() != nil:
			return nil
		case errors.Is(err, zklock.ErrInvalidArgument), errors.Is(err, zklock.ErrChroot), errors.Is(err, zklock.ErrNoAuth):
			return err
		case err != nil:
			// ErrNoServer after NewSession's own wait: no server answered.
			log.Print(err)
			pause(ctx, time.Second)
			continue
		}
		err = useSession(ctx, s, lock)
		s.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// useSession takes and releases the lock on s until ctx ends (nil) or s
// ends (nil: the caller makes a new Session); an error only for a lock
// path NewMutex refuses.
func useSession(ctx context.Context, s *zklock.Session, lock string) error {
	m, err := zklock.NewMutex(s, lock)
	if err != nil {
		return err
	}
	for {
		lease, err := m.Lock(ctx)
		switch {
		case ctx.Err() != nil:
			return nil
		case s.Err() != nil:
			log.Printf("session ended (%v): making a new one", s.Err())
			return nil
		case err != nil:
			log.Print(err) // this lease lost, the session alive: try again
			pause(ctx, time.Second)
			continue
		}
		// Hold for a second, or less if the lease is lost meanwhile.
		select {
		case <-time.After(time.Second):
		case <-lease.Done():
		case <-ctx.Done():
		}
		lease.Unlock(context.WithoutCancel(ctx))
	}
}

// pause waits d, or less if ctx ends.
func pause(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// newObserver wires otelzklock's instruments to a Prometheus registry.
func newObserver(reg prometheus.Registerer) (zklock.Observer, error) {
	exporter, err := otelprom.New(otelprom.WithRegisterer(reg))
	if err != nil {
		return zklock.Observer{}, err
	}
	return otelzklock.NewObserver(sdkmetric.NewMeterProvider(sdkmetric.WithReader(exporter)))
}
