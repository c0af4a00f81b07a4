// Command prometheus shows zklock's metrics on a Prometheus endpoint: the
// zklock.Observer that package otelzklock makes, recorded by an
// OpenTelemetry MeterProvider whose reader is the Prometheus exporter.
// It takes and releases one lock in a loop, so that the metrics move.
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

	s, err := zklock.NewSession(ctx, strings.Split(*servers, ","), zklock.WithObserver(obs),
		zklock.WithSessionTimeout(*timeout), zklock.WithEnsembleTiming(*tick, *syncLimit))
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	m, err := zklock.NewMutex(s, *lock)
	if err != nil {
		log.Fatal(err)
	}
	for ctx.Err() == nil {
		lease, err := m.Lock(ctx)
		if err != nil {
			if !errors.Is(err, context.Canceled) {
				log.Print(err)
			}
			continue
		}
		time.Sleep(time.Second)
		lease.Unlock(ctx)
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
