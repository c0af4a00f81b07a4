package zklock

import (
	"errors"
	"sync"
	"testing"
	"time"
)

// recorder keeps what an Observer is told.
type recorder struct {
	mu       sync.Mutex
	acquired []Acquisition
	ended    []LeaseEnd
	session  []SessionEvent
}

func (r *recorder) observer() Observer {
	return Observer{
		Acquired:   func(a Acquisition) { r.mu.Lock(); r.acquired = append(r.acquired, a); r.mu.Unlock() },
		LeaseEnded: func(e LeaseEnd) { r.mu.Lock(); r.ended = append(r.ended, e); r.mu.Unlock() },
		Session:    func(e SessionEvent) { r.mu.Lock(); r.session = append(r.session, e); r.mu.Unlock() },
	}
}

func (r *recorder) sessionKinds() []SessionEventKind {
	r.mu.Lock()
	defer r.mu.Unlock()
	var k []SessionEventKind
	for _, e := range r.session {
		k = append(k, e.Kind)
	}
	return k
}

// An Observer is told, against the real ensemble: the session established;
// a TryLock refused with one contender ahead; a Lock that waited behind
// one and was granted; the holder's lease released, with how long it was
// held; a reconnect after the connection was severed (the lease held
// on); and, at Close, the lease lost and the session ended, each with its
// reason.
func TestObserver(t *testing.T) {
	lock := lockPath(t)
	ctx := ctxFor(t, 2*time.Minute)
	var hr, wr recorder
	h := newClient(t, "holder", WithObserver(hr.observer()))
	w := newClient(t, "waiter", WithObserver(wr.observer()))
	mh, _ := NewMutex(h.Session, lock)
	held, err := mh.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mw, _ := NewMutex(w.Session, lock)
	if _, err := mw.TryLock(ctx); !errors.Is(err, ErrLocked) {
		t.Fatalf("TryLock = %v, want ErrLocked", err)
	}
	p := lockAsync(ctx, mw.Lock)
	w.trace.waitFor(t, "the waiter waiting", time.Minute, waiting)
	time.Sleep(50 * time.Millisecond) // a measurable hold and wait
	if err := held.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	lease, err := p.wait(t, time.Minute)
	if err != nil {
		t.Fatal(err)
	}

	h.cbs.wait() // the Observer's calls run on a goroutine of their own
	w.cbs.wait()
	hr.mu.Lock()
	if len(hr.acquired) != 1 || hr.acquired[0].Err != nil || hr.acquired[0].Ahead != 0 || hr.acquired[0].Lock != lock {
		t.Errorf("holder's acquisitions %+v, want one granted with nobody ahead on %s", hr.acquired, lock)
	}
	if len(hr.ended) != 1 || !errors.Is(hr.ended[0].Err, ErrReleased) || hr.ended[0].Held <= 0 || hr.ended[0].Mode != ModeExclusive {
		t.Errorf("holder's lease ends %+v, want one released", hr.ended)
	}
	hr.mu.Unlock()
	wr.mu.Lock()
	if len(wr.acquired) != 2 {
		t.Fatalf("waiter's acquisitions %+v, want 2", wr.acquired)
	}
	if try := wr.acquired[0]; !try.Try || !errors.Is(try.Err, ErrLocked) || try.Ahead != 1 {
		t.Errorf("TryLock observed as %+v, want Try, ErrLocked, one ahead", try)
	}
	if got := wr.acquired[1]; got.Try || got.Err != nil || got.Ahead != 1 || got.Waited < 50*time.Millisecond {
		t.Errorf("Lock observed as %+v, want granted after waiting >= 50ms behind one", got)
	}
	wr.mu.Unlock()

	w.net.Sever()
	w.net.Heal()
	eventually(t, "a reconnect observed", 30*time.Second, func() bool {
		k := wr.sessionKinds()
		return len(k) >= 2 && k[len(k)-1] == SessionReconnected
	})
	if lease.Err() != nil {
		t.Fatalf("the lease ended on a reconnect: %v", lease.Err())
	}
	w.Close()
	wr.mu.Lock()
	defer wr.mu.Unlock()
	if n := len(wr.ended); n != 1 || !errors.Is(wr.ended[0].Err, ErrLockLost) || !errors.Is(wr.ended[0].Err, ErrClosed) {
		t.Errorf("waiter's lease ends %+v, want one lost with ErrClosed", wr.ended)
	}
	last := wr.session[len(wr.session)-1]
	if wr.session[0].Kind != SessionEstablished || last.Kind != SessionEnded || !errors.Is(last.Err, ErrClosed) || last.ID != w.ID() {
		t.Errorf("session events %+v, want established first and ended (ErrClosed) last", wr.session)
	}
}
