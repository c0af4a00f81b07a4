package zklock

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/zklock/zklock/traceevent"
)

// A wiped or restored ensemble (spec/tla/Rewind.tla): an operator stopped
// every server, emptied its data or put an older copy back, and started it
// again. The ensemble's history went back: its zxids start again lower,
// and every session it knew is gone. A session that has seen a newer zxid
// than a server's last is refused by that server: it reads the connect
// request, logs "Refusing session request for client ... as it has seen
// zxid 0x... our last zxid is 0x...", and closes the connection without a
// reply. go-zookeeper sees only "authentication failed: EOF" and tries the
// next server, for ever; the lock node is long gone and another client may
// hold the lock on the new history. Waiting for the loss deadline would
// leave the holder believing for a whole session timeout after that
// (Rewind.WaitForDeadline), so on such a refused handshake the session
// asks every server of its connect string for its role and last zxid
// (the srvr four-letter word, allowed by ZooKeeper's default whitelist),
// and if the leader's (or a standalone server's) last zxid is below what
// the session has seen, the history went back: the session ends at once
// with ErrHistoryRewound (Rewind.Safety's MeetOlder). A follower's zxid
// alone proves nothing, since a lagging follower refuses the same way.
//
// A rewind also takes the fencing tokens back: a later grant's czxid can
// be lower than (or equal to) an earlier one's. A process never hands one
// out silently: a grant whose token is not above the highest this process
// handed out for the same lock path before its acquisition began says so
// (Lease.TokenRewound).

// ErrHistoryRewound: the ensemble's history is older than what the session
// has seen: its data was wiped or restored from a backup. The session
// ended as soon as it met that history, and every lease with it. It is an
// ErrSessionLost too.
var ErrHistoryRewound = fmt.Errorf("%w: the ensemble's history went back (wiped or restored)", ErrSessionLost)

// srvrTimeout bounds one srvr probe of one server.
const srvrTimeout = 2 * time.Second

// rewindWatch is a session's side of rewinds: the servers to ask, and
// whether a probe is under way.
type rewindWatch struct {
	servers []string
	probing atomic.Bool
	warned  atomic.Bool
}

// handshakeCut is the wire's report that a server closed a connection
// after our connect request and before its reply: how a server refuses a
// session that has seen a newer zxid than its own (and how one that is
// not serving refuses any). One probe at a time.
func (s *Session) handshakeCut(addr string) {
	seen := s.zxid.Load()
	if seen == 0 || s.life.Err() != nil {
		return
	}
	if !s.rewind.probing.CompareAndSwap(false, true) {
		return
	}
	s.goroutines.Add(1)
	go func() {
		defer s.goroutines.Done()
		defer s.rewind.probing.Store(false)
		s.probeHistory(seen, addr)
	}()
}

// probeHistory asks every server at once for its role and last zxid (a
// server still starting may take the whole srvrTimeout to answer), and
// ends the session with ErrHistoryRewound as soon as a leader's is below
// seen.
func (s *Session) probeHistory(seen int64, refusedBy string) {
	ctx, cancel := context.WithTimeout(s.life, srvrTimeout)
	var asking sync.WaitGroup
	defer func() {
		cancel() // the others' srvr end with it
		asking.Wait()
	}()
	type answer struct {
		addr string
		st   srvrStat
		err  error
	}
	answers := make(chan answer, len(s.rewind.servers))
	for _, addr := range s.rewind.servers {
		asking.Add(1)
		go func() {
			defer asking.Done()
			st, err := srvr(ctx, addr, s.cfg.tls)
			answers <- answer{addr, st, err}
		}()
	}
	answered, notAllowed := false, false
	for range s.rewind.servers {
		a := <-answers
		if a.err != nil {
			notAllowed = notAllowed || errors.Is(a.err, errSrvrNotAllowed)
			continue
		}
		answered = true
		if a.st.leads && a.st.zxid < seen {
			s.lose(fmt.Errorf("%w: %s (%s) is at zxid 0x%x, the session has seen 0x%x (refused by %s)",
				ErrHistoryRewound, a.addr, a.st.mode, a.st.zxid, seen, refusedBy), traceevent.ResultRewound)
			return
		}
	}
	if notAllowed && !answered && s.rewind.warned.CompareAndSwap(false, true) {
		s.log.Warn("zklock: a server refused the session's handshake and srvr is not allowed: "+
			"a wiped or restored ensemble is learned only at the loss deadline (allow srvr in 4lw.commands.whitelist)",
			"session", fmt.Sprintf("0x%x", s.ID()), "refused by", refusedBy)
	}
}

// srvrStat is what a probe needs of a srvr reply.
type srvrStat struct {
	mode  string
	leads bool // leader or standalone: its last zxid is the ensemble's
	zxid  int64
}

// errNoSrvr: a srvr reply without a Mode and a Zxid line (a server not
// serving, or srvr not allowed: errSrvrNotAllowed).
var (
	errNoSrvr         = errors.New("zklock: no role and zxid in the srvr reply")
	errSrvrNotAllowed = fmt.Errorf("%w: srvr is not in the server's 4lw.commands.whitelist", errNoSrvr)
)

// srvr sends the srvr four-letter word to addr and parses the reply.
func srvr(ctx context.Context, addr string, cfg *tls.Config) (srvrStat, error) {
	var conn net.Conn
	var err error
	if cfg != nil {
		d := tls.Dialer{Config: cfg}
		conn, err = d.DialContext(ctx, "tcp", addr)
	} else {
		var d net.Dialer
		conn, err = d.DialContext(ctx, "tcp", addr)
	}
	if err != nil {
		return srvrStat{}, err
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	if _, err := io.WriteString(conn, "srvr"); err != nil {
		return srvrStat{}, err
	}
	out, err := io.ReadAll(io.LimitReader(conn, 4096))
	if err != nil {
		return srvrStat{}, err
	}
	return parseSrvr(string(out))
}

// parseSrvr reads the Mode and Zxid lines of a srvr reply.
func parseSrvr(out string) (srvrStat, error) {
	var st srvrStat
	haveZxid := false
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		switch strings.TrimSpace(key) {
		case "Mode":
			st.mode = val
			st.leads = val == "leader" || val == "standalone"
		case "Zxid":
			z, err := strconv.ParseInt(val, 0, 64)
			if err != nil {
				return srvrStat{}, fmt.Errorf("%w: Zxid %q: %v", errNoSrvr, val, err)
			}
			st.zxid, haveZxid = z, true
		}
	}
	if st.mode == "" || !haveZxid {
		if strings.Contains(out, "not in the whitelist") {
			return srvrStat{}, errSrvrNotAllowed
		}
		return srvrStat{}, errNoSrvr
	}
	return st, nil
}

// issuedTokens keeps, by chroot and lock path (tokenKey), the two
// latest highest tokens this process handed out and when.
var issuedTokens = struct {
	sync.Mutex
	high map[string]*highTokens
}{high: map[string]*highTokens{}}

// highTokens: top is the highest token handed out, at topAt; prev the
// highest before it, at prevAt.
type highTokens struct {
	top, prev     int64
	topAt, prevAt time.Time
}

// tokenKey names a lock path for the process: the session's chroot and
// the path, whatever servers the session reaches them through (clients
// behind proxies, or connect strings listing the servers in another
// order, name one ensemble differently). A process that locks the same
// path on two ensembles may be told of a rewind that was none: the flag
// is a warning, never a refusal.
func (s *Session) tokenKey(path string) string { return s.chroot + "\x00" + path }

// noteToken records a grant's token and returns the highest token handed
// out before begun for the same lock path when the grant's is not above
// it (0 if it is). Only tokens handed out before the acquisition began count: in
// one history a node made after a grant has a higher czxid than that
// grant's, but readers of an RWMutex and leases of a Semaphore are
// granted in no czxid order. Of those, the two latest highest are kept:
// a miss needs two grants of a new history above the old one's tokens
// while this acquisition was under way.
func (s *Session) noteToken(path string, token int64, begun time.Time) int64 {
	k := s.tokenKey(path)
	issuedTokens.Lock()
	defer issuedTokens.Unlock()
	h := issuedTokens.high[k]
	if h == nil {
		h = &highTokens{}
		issuedTokens.high[k] = h
	}
	var before int64
	switch {
	case !h.topAt.IsZero() && h.topAt.Before(begun):
		before = h.top
	case !h.prevAt.IsZero() && h.prevAt.Before(begun):
		before = h.prev
	}
	if token > h.top {
		h.prev, h.prevAt = h.top, h.topAt
		h.top, h.topAt = token, time.Now()
	}
	if token <= before {
		return before
	}
	return 0
}

// noteGrant records the lease's token (see TokenRewound); the grant paths
// call it as the lease is made, with when the acquisition began.
func (l *Lease) noteGrant(begun time.Time) {
	l.below = l.s.noteToken(l.lock, l.token, begun)
	if l.below != 0 {
		l.s.log.Warn("zklock: a grant's token is not above one this process handed out before on the same lock: "+
			"the ensemble's history went back (wiped or restored)",
			"lock", l.s.relative(l.lock), "token", fmt.Sprintf("0x%x", l.token), "before", fmt.Sprintf("0x%x", l.below))
	}
}

// TokenRewound reports whether the lease's token is not above a token
// this process handed out for the same lock path (under the same chroot)
// before this lease's acquisition began, and that higher token.
// ZooKeeper's zxids only grow within one history of the ensemble; a wipe
// or a restore from a backup starts another, whose tokens can be lower. A
// resource fenced by the highest token it has seen refuses this lease's
// writes until an operator resets its high-water token; Token's order
// holds again among leases of the new history.
func (l *Lease) TokenRewound() (before int64, rewound bool) {
	return l.below, l.below != 0
}

// EpochRewound is TokenRewound for the leadership's epoch (its lease's
// token): whether a wipe or a restore took it back to or below an epoch
// this process was elected with before, and that higher epoch.
func (l *Leadership) EpochRewound() (before int64, rewound bool) { return l.lease.TokenRewound() }
