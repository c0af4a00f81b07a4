package otelzklock

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/zklock/zklock/impl/zklock"
)

// collect runs f against a fresh observer and returns every data point,
// by instrument, as "attributes=value" strings.
func collect(t *testing.T, f func(zklock.Observer), opts ...Option) map[string][]string {
	t.Helper()
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	o, err := NewObserver(mp, opts...)
	if err != nil {
		t.Fatal(err)
	}
	f(o)
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, sm := range rm.ScopeMetrics {
		if sm.Scope.Name != ScopeName {
			t.Errorf("scope %q, want %q", sm.Scope.Name, ScopeName)
		}
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Histogram[float64]:
				for _, p := range d.DataPoints {
					out[m.Name] = append(out[m.Name], fmt.Sprintf("%s=%d/%.3f", p.Attributes.Encoded(attrEnc), p.Count, p.Sum))
				}
			case metricdata.Histogram[int64]:
				for _, p := range d.DataPoints {
					out[m.Name] = append(out[m.Name], fmt.Sprintf("%s=%d/%d", p.Attributes.Encoded(attrEnc), p.Count, p.Sum))
				}
			case metricdata.Sum[int64]:
				for _, p := range d.DataPoints {
					out[m.Name] = append(out[m.Name], fmt.Sprintf("%s=%d", p.Attributes.Encoded(attrEnc), p.Value))
				}
			default:
				t.Errorf("%s: unexpected data %T", m.Name, m.Data)
			}
		}
	}
	return out
}

// Each kind of event lands in its instrument with the attributes the
// package doc promises: outcomes and reasons named, the lock path only
// when asked for, zklock.leases.held back to zero when every lease ended
// (a downgraded lease included).
func TestInstruments(t *testing.T) {
	lost := fmt.Errorf("zklock: %w: %w", zklock.ErrLockLost, zklock.ErrSessionExpired)
	events := func(o zklock.Observer) {
		o.Session(zklock.SessionEvent{Kind: zklock.SessionEstablished, ID: 1})
		o.Acquired(zklock.Acquisition{Lock: "/a", Mode: zklock.ModeExclusive, Ahead: 0, Waited: time.Second})
		o.Acquired(zklock.Acquisition{Lock: "/a", Mode: zklock.ModeExclusive, Try: true, Ahead: 1, Waited: time.Millisecond,
			Err: fmt.Errorf("zklock: lock /a: %w", zklock.ErrLocked)})
		o.Acquired(zklock.Acquisition{Lock: "/b", Mode: zklock.ModeWrite, Ahead: 3, Waited: 2 * time.Second})
		o.Acquired(zklock.Acquisition{Lock: "/b", Mode: zklock.ModeRead, Ahead: -1, Err: context.Canceled})
		o.LeaseEnded(zklock.LeaseEnd{Lock: "/a", Mode: zklock.ModeExclusive, Held: 3 * time.Second, Err: zklock.ErrReleased})
		o.LeaseEnded(zklock.LeaseEnd{Lock: "/b", Mode: zklock.ModeRead, Held: time.Second, Err: lost}) // downgraded
		o.Session(zklock.SessionEvent{Kind: zklock.SessionReconnected, ID: 1})
		o.Session(zklock.SessionEvent{Kind: zklock.SessionEnded, ID: 1, Err: zklock.ErrSessionExpired})
	}
	got := collect(t, events)
	want := map[string][]string{
		"zklock.acquire.duration": {"zklock.mode=exclusive,zklock.outcome=granted=1/1.000", "zklock.mode=exclusive,zklock.outcome=locked=1/0.001",
			"zklock.mode=write,zklock.outcome=granted=1/2.000", "zklock.mode=read,zklock.outcome=canceled=1/0.000"},
		"zklock.acquire.queue_depth": {"zklock.mode=exclusive=2/1", "zklock.mode=write=1/3"},
		"zklock.lease.duration":      {"zklock.mode=exclusive,zklock.outcome=released=1/3.000", "zklock.mode=read,zklock.outcome=lost=1/1.000"},
		"zklock.leases.held":         {"=0"},
		"zklock.lease.lost":          {"zklock.mode=read,zklock.reason=expired=1"},
		"zklock.session.events":      {"zklock.event=established=1", "zklock.event=reconnected=1", "zklock.event=ended,zklock.reason=expired=1"},
	}
	compare(t, got, want)

	withLock := collect(t, func(o zklock.Observer) {
		o.Acquired(zklock.Acquisition{Lock: "/a", Mode: zklock.ModeExclusive, Ahead: 0, Waited: time.Second})
	}, WithLockAttribute())
	compare(t, withLock, map[string][]string{
		"zklock.acquire.duration":    {"zklock.lock=/a,zklock.mode=exclusive,zklock.outcome=granted=1/1.000"},
		"zklock.acquire.queue_depth": {"zklock.lock=/a,zklock.mode=exclusive=1/0"},
		"zklock.leases.held":         {"zklock.lock=/a=1"},
	})
}

func compare(t *testing.T, got, want map[string][]string) {
	t.Helper()
	for name, w := range want {
		g := map[string]bool{}
		for _, p := range got[name] {
			g[p] = true
		}
		if len(got[name]) != len(w) {
			t.Errorf("%s: points %q, want %q", name, got[name], w)
			continue
		}
		for _, p := range w {
			if !g[p] {
				t.Errorf("%s: no point %q in %q", name, p, got[name])
			}
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("unexpected instrument %s: %q", name, got[name])
		}
	}
}

// A nil MeterProvider is bad input, not a panic.
func TestNilProvider(t *testing.T) {
	if _, err := NewObserver(nil); !errors.Is(err, zklock.ErrInvalidArgument) {
		t.Fatalf("NewObserver(nil) = %v, want ErrInvalidArgument", err)
	}
}

var attrEnc = attribute.DefaultEncoder()
