package zklock

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/traceevent"
)

// Session is one ZooKeeper session and everything held through it. It is
// lost, for good, when the server expires it or at its loss deadline, from
// which on the server may have expired it: the negotiated timeout minus a
// drift margin after the send of the newest request the leader is proven to
// have heard of. An acknowledgement alone proves nothing (a follower cut off from the
// leader goes on answering for up to syncLimit ticks); a sync does, as the
// follower passes it to the leader behind the session's earlier touches. So
// the session sends a sync every quarter of the room its timeout leaves,
// and counts only requests acknowledged at least (syncLimit+1) ticks before
// it sent a sync that was acknowledged (WithEnsembleTiming gives the ticks).
// go-zookeeper would silently open a new session after an expiry; a Session
// never does. Make a new Session to go on.
//
// A Session is safe for concurrent use.
type Session struct {
	conn   *zk.Conn
	events <-chan zk.Event
	wire   *wire
	cfg    sessionConfig
	chroot string // prefixed to every path this package sends ("" for none)
	log    *slog.Logger

	established chan struct{} // closed when the server first gave us a session
	ready       chan struct{} // closed when NewSession accepted the negotiated timeout
	done        chan struct{} // closed when the session is lost or closed
	stopped     chan struct{} // closed when the connection is torn down
	life        context.Context
	endLife     context.CancelFunc
	idle        []chan job     // idle call workers, each waiting on its own channel (see run); under mu
	listings    *listingSlots  // listings of lock queues in flight, at most maxListings (listings.go)
	cbs         callbacks      // the Observer's calls, off the goroutines doing the work (callbacks.go)
	goroutines  sync.WaitGroup // call workers, background clean-up and the heartbeat: Close waits for them

	// opsUnderWay counts the Lock, Unlock and Downgrade calls under way, so
	// that the session reports LearnExpiry only after their steps: a step
	// the server applied before the session ended comes before it in the
	// trace.
	opsUnderWay sync.WaitGroup
	traceMu     sync.Mutex
	zxid        atomic.Int64 // the highest zxid a reply carried: where the session is in the ensemble's history
	// attaches counts the connections the session was attached on, bumped
	// as the connect reply is read, before any later frame of the same
	// connection reaches go-zookeeper: watch events come in zxid order on
	// one connection only (a reconnect replays them in no such order).
	attaches atomic.Uint64
	learned  bool             // LearnExpiry reported: nothing more is
	writes   map[string]int64 // zxids of writes not traced yet, by the path they named
	lostAt   time.Time        // when the client learned of the loss

	mu          sync.Mutex
	id          int64
	timeout     time.Duration // negotiated
	clock       *lossClock    // from which send time the loss deadline counts; nil before the session exists
	newDeadline chan struct{} // wakes the monitor when the deadline may have moved earlier
	newTimeout  chan struct{} // wakes the heartbeat when the timeout was renegotiated
	beat        time.Duration // the heartbeat's period, as it last read it
	err         error
	how         traceevent.Result // how the session ended: a LearnExpiry result
	leases      map[*Lease]struct{}
	closeCalled bool
	rewind      rewindWatch // the servers a refused handshake asks (rewind.go)
}

// newSessionConfig applies opts to the defaults and checks the result.
func newSessionConfig(opts []SessionOption) (sessionConfig, error) {
	cfg := sessionConfig{timeout: DefaultSessionTimeout, margin: -1, logger: slog.Default(),
		tickTime: DefaultTickTime, syncLimit: DefaultSyncLimit}
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(&cfg); err != nil {
			return cfg, err
		}
	}
	if cfg.margin >= cfg.timeout {
		return cfg, fmt.Errorf("zklock: new session: %w: drift margin %v is not below the session timeout %v",
			ErrInvalidArgument, cfg.margin, cfg.timeout)
	}
	return cfg, nil
}

// NewSession connects to the ensemble and waits for the server to grant a
// session: as long as ctx allows, but never longer than the larger of the
// session timeout asked for and 10 s, after which it
// returns ErrNoServer (nothing listens at the addresses, or nothing answers).
//
// servers are "host:port" addresses, or comma-separated connect strings
// ("h1:2181,h2:2181"), with at most one chroot suffix after the last
// address, as ZooKeeper defines it ("h1:2181,h2:2181/app"; given as a list,
// its last element carries it). Every path this package sends is then
// under the chroot, which must exist, and the paths it reports (Path, Node,
// Contenders, Guard's created paths) are relative to it; Conn and trace
// events are not chrooted. A chroot anywhere else is refused with ErrChroot. A drift margin (WithDriftMargin) not below the
// session timeout asked for, or below the one the server negotiated, is
// refused with ErrInvalidArgument. Credentials (WithAuth) are sent again
// when the connection drops while they are sent; NewSession then fails
// only when ctx ends (its error), the session is lost (ErrSessionLost), or
// the server refuses them (ErrNoAuth).
func NewSession(ctx context.Context, servers []string, opts ...SessionOption) (*Session, error) {
	if ctx == nil {
		return nil, fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	servers, chroot, err := connectServers(servers)
	if err != nil {
		return nil, fmt.Errorf("zklock: new session: %w", err)
	}
	cfg, err := newSessionConfig(opts)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("zklock: new session: %w", err)
	}
	s := &Session{
		cfg:         cfg,
		log:         cfg.logger,
		established: make(chan struct{}),
		ready:       make(chan struct{}),
		done:        make(chan struct{}),
		stopped:     make(chan struct{}),
		leases:      make(map[*Lease]struct{}),
		timeout:     cfg.timeout,
		newDeadline: make(chan struct{}, 1),
		newTimeout:  make(chan struct{}, 1),
		listings:    newListingSlots(maxListings),
		chroot:      chroot,
	}
	s.rewind.servers = servers
	s.life, s.endLife = context.WithCancel(context.Background())
	s.wire = &wire{obs: s, writes: cfg.tracer != nil, tls: cfg.tls, evidence: newTLSEvidence()}
	conn, events, err := zk.Connect(servers, cfg.timeout,
		zk.WithDialer(s.wire.dial), zk.WithLogger(zkLogger{s.log}), zk.WithLogInfo(false))
	if err != nil {
		s.endLife()
		return nil, fmt.Errorf("zklock: new session: %w", err)
	}
	s.conn, s.events = conn, events
	go s.monitor()
	bound := time.NewTimer(connectBound(cfg))
	defer bound.Stop()
	select {
	case <-s.established:
	case <-ctx.Done():
		s.Close()
		return nil, fmt.Errorf("zklock: new session: %w", ctx.Err())
	case <-bound.C:
		s.Close()
		if err := s.wire.evidence.err(); err != nil {
			return nil, fmt.Errorf("zklock: new session with %v: %w %w: %w", servers, ErrNoServer, errBoundPassed(connectBound(cfg)), err)
		}
		return nil, fmt.Errorf("zklock: new session with %v: %w %w", servers, ErrNoServer, errBoundPassed(connectBound(cfg)))
	case <-s.wire.evidence.all:
		s.Close()
		return nil, fmt.Errorf("zklock: new session with %v: %w: %w", servers, ErrNoServer, s.wire.evidence.err())
	case <-s.done:
		err := s.Err()
		s.Close()
		return nil, err
	}
	if t := s.Timeout(); cfg.margin >= t {
		s.Close()
		return nil, fmt.Errorf("zklock: new session: %w: drift margin %v is not below the negotiated session timeout %v",
			ErrInvalidArgument, cfg.margin, t)
	}
	if err := s.checkRoom(); err != nil {
		s.Close()
		return nil, err
	}
	close(s.ready)
	// Under mu, as background starts its goroutines: an Observer function
	// may have closed the session already (Close then waits for nothing
	// started after it ended).
	s.mu.Lock()
	if s.err != nil {
		err := s.err
		s.mu.Unlock()
		return nil, fmt.Errorf("zklock: new session: %w", err)
	}
	s.goroutines.Add(1)
	go s.heartbeat()
	s.mu.Unlock()
	for _, a := range cfg.auth {
		if err := s.addAuth(ctx, a); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// addAuth sends credentials until the server accepts them. They belong to
// the connection, and go-zookeeper re-sends on a reconnect only those whose
// AddAuth succeeded: one that met connection loss is sent again (a setAuth
// the server applied before the connection broke went with it).
func (s *Session) addAuth(ctx context.Context, a zkAuth) error {
	_, err := retry(ctx, s, func() (struct{}, error) { return struct{}{}, s.conn.AddAuth(a.scheme, a.auth) })
	switch {
	case err == nil:
		return nil
	case errors.Is(err, zk.ErrAuthFailed):
		return fmt.Errorf("zklock: new session: auth %s: %w: %w", a.scheme, ErrNoAuth, err)
	}
	return fmt.Errorf("zklock: new session: auth %s: %w", a.scheme, err)
}

// Close ends the session: every lease ends with ErrLockLost, the server
// deletes the session's lock nodes, and every goroutine the session started
// has stopped when Close returns. A second Close returns ErrClosed.
func (s *Session) Close() error {
	if s == nil {
		return fmt.Errorf("%w: nil session", ErrInvalidArgument)
	}
	s.mu.Lock()
	again := s.closeCalled
	s.closeCalled = true
	s.mu.Unlock()
	if again {
		return ErrClosed
	}
	s.lose(ErrClosed, traceevent.ResultClosed)
	<-s.stopped
	s.goroutines.Wait()
	s.cbs.wait()
	return nil
}

// Done is closed when the session is lost or closed.
func (s *Session) Done() <-chan struct{} { return s.done }

// Err is nil while the session lives, then says why it ended: an error
// matching ErrSessionExpired, ErrSessionLost or ErrClosed.
func (s *Session) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// ID is the ZooKeeper session id.
func (s *Session) ID() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.id
}

// Chroot is the chroot of the connect string, "" for none.
func (s *Session) Chroot() string { return s.chroot }

// relative strips the chroot from a path this package read from the server.
func (s *Session) relative(p string) string {
	if s.chroot == "" {
		return p
	}
	if r, ok := strings.CutPrefix(p, s.chroot); ok && (r == "" || r[0] == '/') {
		if r == "" {
			return "/"
		}
		return r
	}
	return p
}

// Timeout is the smallest session timeout the servers agreed to in the
// session's life, the one its loss deadline counts from: a reconnect may
// negotiate a longer one, but a new leader re-arms the session with the
// timeout it was created with.
func (s *Session) Timeout() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.timeout
}

// Conn is the underlying go-zookeeper connection, for other ZooKeeper work.
// Do not Close it: Close the Session. It does not apply the chroot of the
// connect string: prefix paths with Chroot yourself.
func (s *Session) Conn() *zk.Conn { return s.conn }

// margin is how long before the server may expire us that we give up.
func (s *Session) margin() time.Duration {
	if s.cfg.margin >= 0 {
		return s.cfg.margin
	}
	return s.timeout / 5
}

// endedHow is how the session ended (a LearnExpiry result), "" while it
// lives.
func (s *Session) endedHow() traceevent.Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		return ""
	}
	return s.how
}

// lose ends the session once, with its reason, and ends every lease.
func (s *Session) lose(cause error, how traceevent.Result) {
	s.mu.Lock()
	if s.err != nil {
		s.mu.Unlock()
		return
	}
	s.err = cause
	s.how = how
	s.lostAt = time.Now()
	leases := s.leases
	s.leases = nil
	s.mu.Unlock()
	close(s.done)
	s.endLife()
	for l := range leases {
		l.end(lockLost(cause))
	}
	s.observeSession(SessionEnded, cause)
	if how != traceevent.ResultClosed {
		s.log.Warn("zklock: session lost", "session", fmt.Sprintf("0x%x", s.ID()), "err", cause)
	}
}

// beginOp registers a traced call; it fails once the session has ended.
func (s *Session) beginOp() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	s.opsUnderWay.Add(1)
	return nil
}

func (s *Session) endOp() { s.opsUnderWay.Done() }

func (s *Session) addLease(l *Lease) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	s.leases[l] = struct{}{}
	return nil
}

func (s *Session) removeLease(l *Lease) {
	s.mu.Lock()
	delete(s.leases, l)
	s.mu.Unlock()
}

// heldLeases lists the live leases on one lock path.
func (s *Session) heldLeases(path string) []*Lease {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Lease
	for l := range s.leases {
		if l.lock == path {
			out = append(out, l)
		}
	}
	return out
}

// zkLogger sends go-zookeeper's chatter to the session's logger at debug level.
type zkLogger struct{ l *slog.Logger }

func (z zkLogger) Printf(format string, args ...any) {
	z.l.Debug(fmt.Sprintf("zk: "+format, args...))
}
