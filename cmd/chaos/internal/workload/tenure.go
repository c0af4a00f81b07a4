package workload

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/checker"
	"github.com/zklock/zklock/cmd/chaos/internal/monitor"
)

// tenure is one lease as the workload holds it, whichever lock granted it.
type tenure struct {
	lp        *LockPath
	mode      checker.Mode
	token     int64
	node      string
	session   string
	acqReturn int64
	done      <-chan struct{} // closed when the lease ends; nil for zk.Lock, which never says
	conn      *zk.Conn        // for linearizable reads of the ZooKeeper register
	// zkWrite writes value to the ZooKeeper register: through Lease.Guard when
	// fenced. It says what the client learned and whether trying again makes
	// sense (the connection broke but the lease may hold).
	zkWrite func(ctx context.Context, value string) (checker.Outcome, bool, error)
	guarded bool // zkWrite goes through Lease.Guard: its success proves the lease held
	// ownReg, for a semaphore's lease, is the register its ZooKeeper writes are
	// recorded in: the client's own, since several leases write the node at
	// once and token order among them means nothing. Such a critical section
	// neither writes the token-fenced in-process register nor reads.
	ownReg string
	belief *monitor.Belief
	// crashed: the client closed its session instead of releasing (an
	// election's candidate that crashes); its release record ends the tenure.
	crashed atomic.Bool

	mu        sync.Mutex
	lastWrite int64         // call of the last successful guarded write (see guarded)
	inflight  chan struct{} // closed when the ZooKeeper write in flight returns
}

func (t *tenure) ended() bool {
	if t.done == nil {
		return false
	}
	select {
	case <-t.done:
		return true
	default:
		return false
	}
}

func (t *tenure) beginWrite() {
	t.mu.Lock()
	t.inflight = make(chan struct{})
	t.mu.Unlock()
}

func (t *tenure) endWrite(call int64, ok bool) {
	t.mu.Lock()
	if ok && t.guarded {
		t.lastWrite = max(t.lastWrite, call)
	}
	close(t.inflight)
	t.inflight = nil
	t.mu.Unlock()
}

// lastKnown is the last moment the client knew it held the lease: the later
// of the acquire's return and the call of its last successful guarded write.
// A write still in flight is waited for, since its success would prove the
// node existed after its call.
func (t *tenure) lastKnown() int64 {
	t.mu.Lock()
	ch := t.inflight
	t.mu.Unlock()
	if ch != nil {
		<-ch
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return max(t.acqReturn, t.lastWrite)
}

// critical runs a critical section: writers write both registers one to three
// times, readers read them. Each step checks that the lease still holds, then
// passes the gate, then acts: a client frozen in between acts late, on a
func outcome(ok bool) checker.Outcome {
	if ok {
		return checker.OutcomeOK
	}
	return checker.OutcomeFailed
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// transient reports a ZooKeeper error that says only that the connection
// broke: the request may or may not have been applied.
func transient(err error) bool {
	return errors.Is(err, zk.ErrConnectionClosed) || errors.Is(err, zk.ErrNoServer) ||
		errors.Is(err, zk.ErrSessionMoved) || errors.Is(err, context.DeadlineExceeded)
}

// plainWrite is the unfenced ZooKeeper write: a setData on conn, whoever holds
// the lock. zk.Lock's holders (which have no guard) and --no-fence use it.
func plainWrite(conn *zk.Conn, path string) func(context.Context, string) (checker.Outcome, bool, error) {
	return func(_ context.Context, value string) (checker.Outcome, bool, error) {
		_, err := conn.Set(path, []byte(value), -1)
		if err == nil {
			return checker.OutcomeOK, false, nil
		}
		return checker.OutcomeUnknown, transient(err), err
	}
}
