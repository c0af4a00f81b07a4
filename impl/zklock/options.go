package zklock

import (
	"crypto/tls"
	"fmt"
	"log/slog"
	"time"

	"github.com/go-zookeeper/zk"
)

// MaxNodeData is the most lock-node data this package sends: ZooKeeper's
// default jute.maxbuffer is 1 MiB for the whole request, path and ACL
// included, so a little room is kept for them.
const MaxNodeData = 1<<20 - 4096

// DefaultSessionTimeout is the session timeout asked for when none is given.
// The server clamps it to [2, 20] ticks; the negotiated value is what counts.
// It leaves room for the default drift margin and the sync lag of an
// ensemble with ZooKeeper's shipped timing (see WithEnsembleTiming).
const DefaultSessionTimeout = 30 * time.Second

// ZooKeeper's shipped tickTime and syncLimit, assumed until
// WithEnsembleTiming says otherwise.
const (
	DefaultTickTime  = 2 * time.Second
	DefaultSyncLimit = 5
)

type sessionConfig struct {
	timeout   time.Duration
	margin    time.Duration // <0: one fifth of the negotiated timeout
	tickTime  time.Duration
	syncLimit int
	logger    *slog.Logger
	tracer    Tracer
	auth      []zkAuth
	tls       *tls.Config
	observer  Observer
	lossTimer lossTimer // nil: systemClock
}

type zkAuth struct {
	scheme string
	auth   []byte
}

// SessionOption configures NewSession.
type SessionOption func(*sessionConfig) error

// WithSessionTimeout asks the server for this session timeout.
func WithSessionTimeout(d time.Duration) SessionOption {
	return func(c *sessionConfig) error {
		if d <= 0 {
			return fmt.Errorf("%w: session timeout %v", ErrInvalidArgument, d)
		}
		c.timeout = d
		return nil
	}
}

// WithDriftMargin sets how long before the negotiated timeout (counted from
// the send of the newest request the leader is proven to have heard of; see
// WithEnsembleTiming) the session is declared lost.
// It absorbs clock-rate drift and scheduling delay in this process; the
// default is one fifth of the negotiated timeout. A margin at or above the
// session timeout would declare the session lost at once: NewSession
// refuses it with ErrInvalidArgument, against the timeout asked for and
// against the one the server negotiated.
func WithDriftMargin(d time.Duration) SessionOption {
	return func(c *sessionConfig) error {
		if d < 0 {
			return fmt.Errorf("%w: drift margin %v", ErrInvalidArgument, d)
		}
		c.margin = d
		return nil
	}
}

// WithEnsembleTiming tells the session the servers' tickTime and syncLimit
// (zoo.cfg). They bound how long a follower cut off from the leader goes on
// answering: up to syncLimit ticks, while the leader, which alone expires
// sessions, no longer hears about ours. The session therefore counts its
// loss deadline only from requests the leader is proven to have heard of
// (a sync it answered came after them; see docs/GUARANTEES.md, "Loss is said, early"),
// and that proof lags by (syncLimit+1) ticks: the negotiated timeout must
// exceed the drift margin plus that lag, or NewSession refuses it. The
// default is ZooKeeper's shipped timing, 2 s and 5 (a lag of 12 s). Values
// smaller than the servers' make the loss signal late; larger ones only
// make it early.
func WithEnsembleTiming(tickTime time.Duration, syncLimit int) SessionOption {
	return func(c *sessionConfig) error {
		if tickTime <= 0 || syncLimit < 1 {
			return fmt.Errorf("%w: ensemble timing tickTime %v, syncLimit %d", ErrInvalidArgument, tickTime, syncLimit)
		}
		c.tickTime, c.syncLimit = tickTime, syncLimit
		return nil
	}
}

// syncLag is how long after a request's reply a sync must be sent for its
// reply to prove that the leader heard of the request.
func (c sessionConfig) syncLag() time.Duration {
	return time.Duration(c.syncLimit+1) * c.tickTime
}

// WithLogger sends the session's log (and go-zookeeper's, at debug level)
// to l. The default is slog.Default().
func WithLogger(l *slog.Logger) SessionOption {
	return func(c *sessionConfig) error {
		if l == nil {
			return fmt.Errorf("%w: nil logger", ErrInvalidArgument)
		}
		c.logger = l
		return nil
	}
}

// WithTracer makes every lock of the session report its protocol steps to t.
func WithTracer(t Tracer) SessionOption {
	return func(c *sessionConfig) error {
		c.tracer = t
		return nil
	}
}

// WithAuth adds credentials (for example "digest", "user:password") sent on
// every connection, for lock paths protected by ACLs.
func WithAuth(scheme string, auth []byte) SessionOption {
	return func(c *sessionConfig) error {
		if scheme == "" {
			return fmt.Errorf("%w: empty auth scheme", ErrInvalidArgument)
		}
		c.auth = append(c.auth, zkAuth{scheme, append([]byte(nil), auth...)})
		return nil
	}
}

type lockConfig struct {
	acl     []zk.ACL
	data    []byte
	dataSet bool // WithData was given: no Identity
}

// LockOption configures NewMutex and NewRWMutex.
type LockOption func(*lockConfig) error

// WithACL sets the ACL of lock nodes (and of parent nodes this package
// creates). The default is world:anyone with all permissions.
func WithACL(acl []zk.ACL) LockOption {
	return func(c *lockConfig) error {
		if len(acl) == 0 {
			return fmt.Errorf("%w: empty ACL", ErrInvalidArgument)
		}
		c.acl = append([]zk.ACL(nil), acl...)
		return nil
	}
}

// WithData stores data in every lock node this lock creates, in place of
// the default, this process's Identity (host, process id, start time) as
// JSON. WithData(nil) stores nothing.
func WithData(data []byte) LockOption {
	return func(c *lockConfig) error {
		if len(data) > MaxNodeData {
			return fmt.Errorf("%w: %d bytes (max %d)", ErrDataTooLarge, len(data), MaxNodeData)
		}
		c.data, c.dataSet = append([]byte(nil), data...), true
		return nil
	}
}
