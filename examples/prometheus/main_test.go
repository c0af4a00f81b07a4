package main

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/zklock/zklock/impl/zklock"
)

// What the Observer is told reaches the /metrics page under Prometheus's
// names for OpenTelemetry's instruments.
func TestMetricsPage(t *testing.T) {
	reg := prometheus.NewRegistry()
	obs, err := newObserver(reg)
	if err != nil {
		t.Fatal(err)
	}
	obs.Acquired(zklock.Acquisition{Lock: "/a", Mode: zklock.ModeExclusive, Ahead: 2, Waited: 1500 * time.Millisecond})
	obs.LeaseEnded(zklock.LeaseEnd{Lock: "/a", Mode: zklock.ModeExclusive, Held: time.Second, Err: zklock.ErrReleased})
	obs.Session(zklock.SessionEvent{Kind: zklock.SessionReconnected})
	srv := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	defer srv.Close()
	resp, err := srv.Client().Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	for _, want := range []string{
		`zklock_acquire_duration_seconds_sum{otel_scope_name="github.com/zklock/zklock/otelzklock"`,
		`zklock_acquire_queue_depth`,
		`zklock_lease_duration_seconds_count{`,
		`zklock_session_events_total{`,
		`zklock_event="reconnected"`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("no %q on the metrics page:\n%s", want, body)
		}
	}
}
