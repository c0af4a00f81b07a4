// Package otelzklock records what zklock sessions and locks do as
// OpenTelemetry metrics: it turns a zklock.Observer into instruments of a
// metric.MeterProvider. impl/zklock itself depends on no metrics library;
// import this package where the service wires its telemetry.
//
// Instruments (names, units and attributes follow OpenTelemetry's naming
// rules; "zklock.mode" is exclusive, read or write):
//
//	zklock.acquire.duration      histogram, s          zklock.mode, zklock.outcome (granted, locked, canceled, deadline, lost, session_ended, error)
//	zklock.acquire.queue_depth   histogram, {contender} zklock.mode: contenders ahead when the acquisition joined the queue
//	zklock.lease.duration        histogram, s          zklock.mode, zklock.outcome (released, lost)
//	zklock.leases.held           up-down counter       (none): leases held now
//	zklock.lease.lost            counter               zklock.reason (expired, session_lost, closed, other)
//	zklock.session.events        counter               zklock.event (established, reconnected, ended), zklock.reason when ended
//
// With WithLockAttribute every instrument but the session's also carries
// zklock.lock, the lock path: useful with a few well-known locks, a
// cardinality hazard with one lock per entity, hence off by default. A
// semaphore at P counts its leases under P, acquisition and end alike, and
// its internal mutex under P/locks; each path's leases.held returns to zero
// once its leases end.
package otelzklock

import (
	"context"
	"errors"
	"fmt"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/zklock/zklock/impl/zklock"
)

// ScopeName is the instrumentation scope of the meter this package uses.
const ScopeName = "github.com/zklock/zklock/otelzklock"

// Option configures NewObserver.
type Option func(*config)

type config struct{ lockAttr bool }

// WithLockAttribute adds the lock path (zklock.lock) to every lock
// instrument's attributes.
func WithLockAttribute() Option { return func(c *config) { c.lockAttr = true } }

type instruments struct {
	cfg        config
	acquire    metric.Float64Histogram
	queueDepth metric.Int64Histogram
	held       metric.Float64Histogram
	holding    metric.Int64UpDownCounter
	lost       metric.Int64Counter
	session    metric.Int64Counter
}

// NewObserver makes the instruments on mp's meter and returns the
// zklock.Observer that records to them; pass it to zklock.WithObserver
// (one Observer can serve every session of the process).
func NewObserver(mp metric.MeterProvider, opts ...Option) (zklock.Observer, error) {
	if mp == nil {
		return zklock.Observer{}, fmt.Errorf("%w: nil MeterProvider", zklock.ErrInvalidArgument)
	}
	in := &instruments{}
	for _, o := range opts {
		if o != nil {
			o(&in.cfg)
		}
	}
	m := mp.Meter(ScopeName)
	var errs []error
	add := func(err error) { errs = append(errs, err) }
	var err error
	in.acquire, err = m.Float64Histogram("zklock.acquire.duration", metric.WithUnit("s"),
		metric.WithDescription("Time from an acquisition's call to its return."))
	add(err)
	in.queueDepth, err = m.Int64Histogram("zklock.acquire.queue_depth", metric.WithUnit("{contender}"),
		metric.WithDescription("Contenders ahead of an acquisition when it joined the queue."))
	add(err)
	in.held, err = m.Float64Histogram("zklock.lease.duration", metric.WithUnit("s"),
		metric.WithDescription("Time from a lease's grant to its end."))
	add(err)
	in.holding, err = m.Int64UpDownCounter("zklock.leases.held", metric.WithUnit("{lease}"),
		metric.WithDescription("Leases held now."))
	add(err)
	in.lost, err = m.Int64Counter("zklock.lease.lost", metric.WithUnit("{lease}"),
		metric.WithDescription("Leases lost, by reason."))
	add(err)
	in.session, err = m.Int64Counter("zklock.session.events", metric.WithUnit("{event}"),
		metric.WithDescription("Sessions established, reconnected and ended."))
	add(err)
	if err := errors.Join(errs...); err != nil {
		return zklock.Observer{}, fmt.Errorf("otelzklock: %w", err)
	}
	return zklock.Observer{Acquired: in.acquired, LeaseEnded: in.leaseEnded, Session: in.sessionEvent}, nil
}

func (in *instruments) lockAttrs(lock string, mode zklock.Mode, more ...attribute.KeyValue) metric.MeasurementOption {
	kv := append([]attribute.KeyValue{attribute.String("zklock.mode", mode.String())}, more...)
	if in.cfg.lockAttr {
		kv = append(kv, attribute.String("zklock.lock", lock))
	}
	return metric.WithAttributes(kv...)
}

func (in *instruments) acquired(a zklock.Acquisition) {
	ctx := context.Background()
	in.acquire.Record(ctx, a.Waited.Seconds(), in.lockAttrs(a.Lock, a.Mode, attribute.String("zklock.outcome", acquireOutcome(a.Err))))
	if a.Ahead >= 0 {
		in.queueDepth.Record(ctx, int64(a.Ahead), in.lockAttrs(a.Lock, a.Mode))
	}
	if a.Err == nil {
		in.holding.Add(ctx, 1, in.heldAttrs(a.Lock))
	}
}

func (in *instruments) leaseEnded(e zklock.LeaseEnd) {
	ctx := context.Background()
	outcome := "released"
	if !errors.Is(e.Err, zklock.ErrReleased) {
		outcome = "lost"
		in.lost.Add(ctx, 1, in.lockAttrs(e.Lock, e.Mode, attribute.String("zklock.reason", reason(e.Err))))
	}
	in.held.Record(ctx, e.Held.Seconds(), in.lockAttrs(e.Lock, e.Mode, attribute.String("zklock.outcome", outcome)))
	in.holding.Add(ctx, -1, in.heldAttrs(e.Lock))
}

func (in *instruments) sessionEvent(e zklock.SessionEvent) {
	kv := []attribute.KeyValue{attribute.String("zklock.event", e.Kind.String())}
	if e.Kind == zklock.SessionEnded {
		kv = append(kv, attribute.String("zklock.reason", reason(e.Err)))
	}
	in.session.Add(context.Background(), 1, metric.WithAttributes(kv...))
}

// heldAttrs are zklock.leases.held's attributes: no mode, since a
// Downgrade changes a lease's mode between the grant that counts it up and
// the end that counts it down.
func (in *instruments) heldAttrs(lock string) metric.MeasurementOption {
	if in.cfg.lockAttr {
		return metric.WithAttributes(attribute.String("zklock.lock", lock))
	}
	return metric.WithAttributes()
}

func acquireOutcome(err error) string {
	switch {
	case err == nil:
		return "granted"
	case errors.Is(err, zklock.ErrLocked):
		return "locked"
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, context.DeadlineExceeded):
		return "deadline"
	case errors.Is(err, zklock.ErrSessionExpired), errors.Is(err, zklock.ErrSessionLost), errors.Is(err, zklock.ErrClosed):
		return "session_ended"
	case errors.Is(err, zklock.ErrLockLost):
		return "lost"
	}
	return "error"
}

func reason(err error) string {
	switch {
	case errors.Is(err, zklock.ErrSessionExpired):
		return "expired"
	case errors.Is(err, zklock.ErrSessionLost):
		return "session_lost"
	case errors.Is(err, zklock.ErrClosed):
		return "closed"
	}
	return "other"
}
