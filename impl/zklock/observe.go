package zklock

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"sync"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/traceevent"
)

// Observation follows an election's leader (Election.Observe).
type Observation struct {
	ch chan LeaderInfo

	mu  sync.Mutex
	err error
}

// Leaders delivers the latest leader, as a latest-value channel (as etcd's
// watchers and Kubernetes' informers are read): it holds at most one
// report, the newest the observer made, and a newer report replaces one
// not read yet. So a receiver that comes back after a while reads the
// current state first, never one the observer has since seen replaced;
// the states between two reads may be skipped. What a receiver reads is
// in epoch order: never an epoch lower than one already read, never the
// same one twice but with a new value. A vacancy (nobody leads) comes as
// a LeaderInfo whose Vacant is true (Epoch 0). A slow receiver never holds
// the observer up. The channel is closed when the observation ends (see
// Err), after the last report, which can still be read.
func (o *Observation) Leaders() <-chan LeaderInfo { return o.ch }

// Err is nil while the observation runs; once Leaders is closed, why it
// ended: the context's error, or the session's (ErrClosed, an error
// matching ErrSessionLost), or an error the server gave.
func (o *Observation) Err() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

// Observe follows the election's leader until ctx ends or the session
// ends. The observer arms one watch at a time: a data watch on the
// leader's node, or, while nobody leads, a children watch on the election
// path (an exists watch while the path itself is missing). It holds at
// most two: a watch it armed on the path can still stand beside the
// leader's (see below). So a change of
// leader wakes the observers and at most two candidates, as a Mutex's
// release does: the next in line, and the one after it (which watches the
// node two ahead, so that its own turn then comes in one notification);
// no candidate further back. When a candidate appears while a
// vacancy is watched, the path's watch stays armed beside the leader's
// until it next fires: ZooKeeper clients cannot withdraw a watch.
//
// When the leader's node is deleted the observer reads the candidate its
// last listing showed next in line, without listing again: one read from
// the deletion's notification to the report of the new leader, not two.
// That candidate, if its node still stands, leads (or will once it sees
// the deletion): every node that sorted before it is gone, and sequence
// numbers only grow, so no node made since can sort before it. If it is
// gone too, the observer lists again.
func (e *Election) Observe(ctx context.Context) (*Observation, error) {
	if e == nil {
		return nil, fmt.Errorf("%w: nil election", ErrInvalidArgument)
	}
	if ctx == nil {
		return nil, fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	s := e.core.s
	id, err := newUUID()
	if err != nil {
		return nil, err
	}
	// One slot: the latest report (deliver).
	o := &Observation{ch: make(chan LeaderInfo, 1)}
	w := &watcher{e: e, o: o, id: id}
	// On the session's background group, so that Close waits for it.
	if !s.background(func(life context.Context) { w.run(ctx, life) }) {
		return nil, fmt.Errorf("zklock: observe %s: %w", e.core.name, s.Err())
	}
	return o, nil
}

// watcher is an observation's goroutine state.
type watcher struct {
	e    *Election
	o    *Observation
	id   string     // the observer's name in the trace (its Request)
	last LeaderInfo // the last sent
	sent bool       // anything sent yet
	top  int64      // the highest epoch sent
	// next: the candidates the last listing showed after the head, in
	// line; ahead: the one to read next without listing (the head's
	// successor after its deletion, or a head whose read the connection
	// lost), "" to list.
	next  []string
	ahead string
	// refresh: the head was read without a listing; list once more after
	// reporting it, for its successors.
	refresh bool
	path    <-chan zk.Event
	// absent: the watch watchHead returned is an exists watch on a path that
	// was not there (it fires when the path is made, before any
	// candidate's node is): its event is traced as the path's.
	absent bool
}

func (w *watcher) run(ctx, life context.Context) {
	err := w.loop(ctx, life)
	w.o.mu.Lock()
	w.o.err = err
	w.o.mu.Unlock()
	close(w.o.ch)
}

// loop lists the election, reads and watches its head (or the path, when
// nobody leads), sends what changed, and waits for the watch, until ctx
// or the session ends.
func (w *watcher) loop(ctx, life context.Context) error {
	s := w.e.core.s
	// A sync first, as Leader: the first read sees every change acknowledged
	// before Observe. After that, a watch's event comes before the data
	// after it, so each read after a wake-up sees at least that change.
	if err := w.e.core.syncPath(ctx); err != nil {
		return w.ended(ctx, err)
	}
	for {
		info, fired, read, err := w.watchHead(ctx)
		if err != nil {
			return w.ended(ctx, err)
		}
		if fired == nil {
			continue // the head left between the listing and its read
		}
		send := w.isNews(info)
		if read != nil {
			// The read's event says whether it was sent: the trace check
			// holds the filter to the spec (only a newer head is).
			read.Reported = send
			s.trace(*read)
		}
		if send {
			w.deliver(info)
		}
		target := ""
		if !info.Vacant() {
			target = path.Base(info.Node)
		}
		if w.refresh {
			if err := w.successors(ctx, target); err != nil {
				return w.ended(ctx, err)
			}
		}
		ev, r, err := w.wait(ctx, life, fired, target)
		if err != nil {
			return err
		}
		if r == "" && target != "" && ev.Type == zk.EventNodeDeleted && len(w.next) > 0 {
			// The head is gone: its successor in line is the head now, if
			// it stands (watchHead reads it without listing).
			w.ahead, w.next, w.refresh = w.next[0], w.next[1:], true
			s.trace(w.event(traceevent.ObserveNext, "", target))
			continue
		}
		w.next, w.refresh = nil, false
		s.trace(w.event(traceevent.ObserveNotified, r, target))
	}
}

// successors lists the election after the report of a head read without a
// listing (its node is head, its watch armed), off the path from the last
// deletion to that report: the candidates after it, which may have queued
// since the last listing, are read in turn as heads go (ObserveNext).
func (w *watcher) successors(ctx context.Context, head string) error {
	s, l := w.e.core.s, w.e.core
	w.refresh = false
	h, ok := parseNode(head, l.nodes())
	if !ok {
		return nil // not a candidate's name: watchHead read what a listing named
	}
	q, ev, err := w.list(ctx, traceevent.ObserveRefresh)
	if err != nil {
		return err
	}
	w.setSuccessors(q, h.seq, &ev)
	s.trace(ev)
	return nil
}

// list lists the election for step a (ObserveList or ObserveRefresh): the
// candidates in line, and the step's trace event (found and the head, or
// vacant; the pzxid), for the caller to trace.
func (w *watcher) list(ctx context.Context, a traceevent.Action) ([]child, TraceEvent, error) {
	s, l := w.e.core.s, w.e.core
	sent := s.now()
	// Urgent: an observer's report waits on this listing, as a
	// woken waiter's grant does on its own; at joining priority it would
	// wait behind every join its session has queued (listings.go).
	names, pzxid, err := l.children(ctx, urgent)
	if err != nil {
		return nil, TraceEvent{}, err
	}
	q := l.queue(names)
	ev := w.event(a, traceevent.ResultVacant, "")
	ev.Start, ev.ZxidLow, ev.Zxid = sent.at, sent.zxid, pzxid
	if len(q) > 0 {
		ev.Result, ev.Target = traceevent.ResultFound, q[0].name
	}
	return q, ev, nil
}

// setSuccessors makes the candidates of q after sequence number seq the
// observer's successors, and records the first (or none) in ev: its Next.
func (w *watcher) setSuccessors(q []child, seq int64, ev *TraceEvent) {
	w.next = w.next[:0]
	for _, c := range q {
		if c.seq > seq {
			w.next = append(w.next, c.name)
		}
	}
	first := ""
	if len(w.next) > 0 {
		first = w.next[0]
	}
	ev.Next = &first
}

// wait waits for the event of the watch watchHead armed (fired). The event of
// a watch on the path kept from an earlier watchHead (w.path) is traced and
// passed over: the armed watch still stands, and says what changed for
// the observer (a candidate joining or leaving behind the head does not).
// The result is ResultPath for an exists watch on the missing path.
func (w *watcher) wait(ctx, life context.Context, fired <-chan zk.Event, target string) (zk.Event, traceevent.Result, error) {
	s := w.e.core.s
	for {
		select {
		case ev := <-fired:
			if w.absent {
				return ev, traceevent.ResultPath, nil
			}
			return ev, "", nil
		case <-w.path:
			// The kept watch on the path, not the one just armed: the
			// trace says which (both may fire on one deletion).
			w.path = nil
			s.trace(w.event(traceevent.ObserveNotified, traceevent.ResultPath, target))
		case <-ctx.Done():
			return zk.Event{}, "", ctx.Err()
		case <-life.Done():
			return zk.Event{}, "", s.Err()
		}
	}
}

// ended is the reason the observation ends after a failed call: the
// context's or the session's end, if either is the cause.
func (w *watcher) ended(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	if serr := w.e.core.s.Err(); serr != nil {
		return serr
	}
	return fmt.Errorf("zklock: observe %s: %w", w.e.core.name, err)
}

// isNews is the monotonic filter: a vacancy after a leader (or first), an
// epoch higher than any sent (a vacancy between does not lower the bar),
// or a newer value of the leader last sent. A read older than what was
// sent (none should be: a session's reads never go back in time) or that
// tells nothing new is not sent.
func (w *watcher) isNews(info LeaderInfo) bool {
	if !w.sent {
		return true
	}
	switch {
	case info.Vacant():
		return !w.last.Vacant()
	case info.Epoch > w.top:
		return true
	case info.Epoch == w.last.Epoch:
		return info.mzxid > w.last.mzxid && !bytes.Equal(info.Value, w.last.Value)
	}
	return false
}

// deliver puts info in the channel's one slot, in place of a report not
// read yet: that report is older, and a receiver that comes back must
// read the current state first. Only the watcher sends, so once the slot
// is emptied the send cannot block.
func (w *watcher) deliver(info LeaderInfo) {
	select {
	case <-w.o.ch:
	default:
	}
	w.o.ch <- info
	w.markSent(info)
}

// markSent records a report as sent.
func (w *watcher) markSent(info LeaderInfo) {
	w.last, w.sent = info, true
	w.top = max(w.top, info.Epoch)
}

func (w *watcher) event(a traceevent.Action, r traceevent.Result, target string) TraceEvent {
	return TraceEvent{Action: a, Lock: w.e.core.path, Request: w.id, Result: r, Target: target}
}

// watchHead arms the observer's one watch: on the head (a data watch, read
// with its value, whose trace event it returns for the caller to record
// once it knows whether it sends the value) or, when nobody leads, on the
// path. It lists the election first unless it has a head to read
// (w.ahead). A nil fired with no error means: call it again.
func (w *watcher) watchHead(ctx context.Context) (LeaderInfo, <-chan zk.Event, *TraceEvent, error) {
	s, l := w.e.core.s, w.e.core
	w.absent = false
	head := w.ahead
	w.ahead = ""
	if head == "" {
		q, ev, err := w.list(ctx, traceevent.ObserveList)
		if err != nil {
			return LeaderInfo{}, nil, nil, err
		}
		w.next, w.refresh = w.next[:0], false
		if len(q) == 0 {
			s.trace(ev)
			info, ch, err := w.watchPath(ctx)
			return info, ch, nil, err
		}
		head = q[0].name
		w.setSuccessors(q, q[0].seq, &ev)
		s.trace(ev)
	}
	sent := s.now()
	type read struct {
		nodeRead
		ch <-chan zk.Event
	}
	r, err := do(ctx, s, func() (read, error) {
		d, st, ch, err := s.conn.GetW(joinPath(l.path, head))
		return read{nodeRead{d, st}, ch}, err
	})
	wev := w.event(traceevent.ObserveWatch, traceevent.ResultExists, head)
	wev.Start, wev.ZxidLow = sent.at, sent.zxid
	switch {
	case errors.Is(err, zk.ErrNoNode):
		wev.Result = traceevent.ResultGone
		s.trace(wev)
		w.next = nil
		return LeaderInfo{}, nil, nil, nil
	case transient(err):
		// Read the same head again: it is still the head if it stands.
		w.ahead = head
		var b backoff
		return LeaderInfo{}, nil, nil, b.wait(ctx, s)
	case err != nil:
		return LeaderInfo{}, nil, nil, err
	}
	wev.Version = &r.st.Version
	return leaderInfo(path.Join(l.name, head), r.data, r.st), r.ch, &wev, nil
}

// watchPath arms the children watch of a vacancy: its reply is the
// listing that counts (a candidate may have come since the last one).
// On a missing path the watch is an exists watch, which fires when the
// path is made.
func (w *watcher) watchPath(ctx context.Context) (LeaderInfo, <-chan zk.Event, error) {
	s, l := w.e.core.s, w.e.core
	sent := s.now()
	type listingW struct {
		names  []string
		ch     <-chan zk.Event
		absent bool // ch is an exists watch on the missing path
	}
	r, err := do(ctx, s, func() (listingW, error) {
		names, _, ch, err := s.conn.ChildrenW(l.path)
		if errors.Is(err, zk.ErrNoNode) {
			var ok bool
			if ok, _, ch, err = s.conn.ExistsW(l.path); err == nil && ok {
				// Made in between: its exists watch is a data watch on the
				// path, which fires too, when the path goes.
				return listingW{nil, ch, false}, errRelist
			}
			return listingW{nil, ch, err == nil}, err
		}
		return listingW{names, ch, false}, err
	})
	ev := w.event(traceevent.ObserveWatch, traceevent.ResultExists, "")
	ev.Start, ev.ZxidLow = sent.at, sent.zxid
	switch {
	case errors.Is(err, errRelist):
		s.trace(ev)
		w.path = r.ch
		return LeaderInfo{}, nil, nil
	case transient(err):
		var b backoff
		return LeaderInfo{}, nil, b.wait(ctx, s)
	case err != nil:
		return LeaderInfo{}, nil, err
	}
	s.trace(ev)
	if len(l.queue(r.names)) > 0 {
		// A candidate came before the watch: keep the watch (it cannot be
		// withdrawn), and watch the head next.
		w.path = r.ch
		return LeaderInfo{}, nil, nil
	}
	w.absent = r.absent
	return LeaderInfo{}, r.ch, nil
}

// errRelist: the path appeared while its watch was set; list again.
var errRelist = errors.New("zklock: list again")
