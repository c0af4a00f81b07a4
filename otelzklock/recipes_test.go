package otelzklock

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/zklock/zklock/ensemble/ensembletest"
	"github.com/zklock/zklock/impl/zklock"
)

func TestMain(m *testing.M) { os.Exit(ensembletest.Main(m)) }

// Every recipe, on the real ensemble, with WithLockAttribute: once each
// lease it granted has ended, zklock.leases.held is zero for every lock
// path it was counted under, and each lease's end (zklock.lease.duration)
// carries the lock path of a granted acquisition (zklock.acquire.duration).
// A semaphore's lease that ended under another name than it was acquired
// under leaves one path at +1 and another at -1.
func TestRecipesBalance(t *testing.T) {
	servers := ensembletest.Require(t)
	recipes := map[string]func(ctx context.Context, s *zklock.Session, path string) error{
		"mutex": func(ctx context.Context, s *zklock.Session, path string) error {
			m, err := zklock.NewMutex(s, path)
			if err != nil {
				return err
			}
			l, err := m.Lock(ctx)
			if err != nil {
				return err
			}
			return l.Unlock(ctx)
		},
		"rwmutex": func(ctx context.Context, s *zklock.Session, path string) error {
			m, err := zklock.NewRWMutex(s, path)
			if err != nil {
				return err
			}
			w, err := m.Lock(ctx)
			if err != nil {
				return err
			}
			if err := w.Downgrade(ctx); err != nil {
				return err
			}
			r, err := m.RLock(ctx)
			if err != nil {
				return err
			}
			if err := r.Unlock(ctx); err != nil {
				return err
			}
			return w.Unlock(ctx)
		},
		"election": func(ctx context.Context, s *zklock.Session, path string) error {
			e, err := zklock.NewElection(s, path)
			if err != nil {
				return err
			}
			l, err := e.Campaign(ctx, []byte("me"))
			if err != nil {
				return err
			}
			return l.Resign(ctx)
		},
		"semaphore": func(ctx context.Context, s *zklock.Session, path string) error {
			m, err := zklock.NewSemaphore(s, path, 2)
			if err != nil {
				return err
			}
			a, err := m.Acquire(ctx)
			if err != nil {
				return err
			}
			b, err := m.TryAcquire(ctx)
			if err != nil {
				return err
			}
			if err := a.Unlock(ctx); err != nil {
				return err
			}
			return b.Unlock(ctx)
		},
	}
	for name, use := range recipes {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			reader := sdkmetric.NewManualReader()
			o, err := NewObserver(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)), WithLockAttribute())
			if err != nil {
				t.Fatal(err)
			}
			s, err := zklock.NewSession(ctx, servers, zklock.WithEnsembleTiming(ensembletest.Timing()), zklock.WithObserver(o))
			if err != nil {
				t.Fatal(err)
			}
			path := fmt.Sprintf("/zklock-otel/%s-%d", name, time.Now().UnixNano())
			if err := use(ctx, s, path); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			var rm metricdata.ResourceMetrics
			if err := reader.Collect(ctx, &rm); err != nil {
				t.Fatal(err)
			}
			held, granted, ended := map[string]int64{}, map[string]bool{}, map[string]bool{}
			for _, sm := range rm.ScopeMetrics {
				for _, m := range sm.Metrics {
					switch d := m.Data.(type) {
					case metricdata.Sum[int64]:
						if m.Name == "zklock.leases.held" {
							for _, p := range d.DataPoints {
								held[lockOf(p.Attributes)] += p.Value
							}
						}
					case metricdata.Histogram[float64]:
						for _, p := range d.DataPoints {
							switch m.Name {
							case "zklock.acquire.duration":
								if v, _ := p.Attributes.Value("zklock.outcome"); v.AsString() == "granted" {
									granted[lockOf(p.Attributes)] = true
								}
							case "zklock.lease.duration":
								ended[lockOf(p.Attributes)] = true
							}
						}
					}
				}
			}
			if !granted[path] || !ended[path] {
				t.Fatalf("no grant or no end under %s: granted %v, ended %v", path, granted, ended)
			}
			for lock, n := range held {
				if n != 0 {
					t.Errorf("zklock.leases.held{zklock.lock=%s} = %d after every lease ended, want 0 (all: %v)", lock, n, held)
				}
			}
			for lock := range ended {
				if !granted[lock] {
					t.Errorf("a lease ended under %s, which no granted acquisition names (granted: %v)", lock, granted)
				}
			}
			for lock := range held {
				if lock != path && !strings.HasPrefix(lock, path+"/") {
					t.Errorf("held counted under %s, outside %s", lock, path)
				}
			}
		})
	}
}

// lockOf is a data point's zklock.lock attribute.
func lockOf(set attribute.Set) string {
	v, _ := set.Value("zklock.lock")
	return v.AsString()
}
