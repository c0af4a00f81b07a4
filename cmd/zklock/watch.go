package main

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/go-zookeeper/zk"
)

// watcher keeps one ZooKeeper watch per watched node at a time, each
// followed by one goroutine that re-arms it when, and only when, it fires:
// a redraw arms nothing that is armed already, so a quiet path beside a
// busy one costs one watch and one goroutine however often the busy one
// changes. A fired watch is re-armed before the change is signalled, so
// the view drawn on that signal cannot miss a change made after it.
type watcher struct {
	ctx     context.Context
	conn    *zk.Conn
	changed chan struct{}  // one pending signal at most: views coalesce
	errs    chan error     // a watch that could not be re-armed
	loops   sync.WaitGroup // one goroutine per path watched (keepWatching)

	mu     sync.Mutex
	active map[string]bool // server paths with a watch armed
}

func newWatcher(ctx context.Context, conn *zk.Conn) *watcher {
	return &watcher{ctx: ctx, conn: conn, changed: make(chan struct{}, 1), errs: make(chan error, 1), active: map[string]bool{}}
}

// wait returns once every goroutine has ended: after ctx ends, or the
// session closes (which ends every watch of its connection).
func (w *watcher) wait() { w.loops.Wait() }

func (w *watcher) signal() {
	select {
	case w.changed <- struct{}{}:
	default: // a change is signalled already
	}
}

func (w *watcher) fail(err error) {
	select {
	case w.errs <- err:
	default:
	}
}

// claim marks full as watched; false if it is already.
func (w *watcher) claim(full string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.active[full] {
		return false
	}
	w.active[full] = true
	return true
}

func (w *watcher) release(full string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.active, full)
}

// children watches full's children for as long as the watcher lives (an
// exists watch while full does not exist: its creation is a change too).
// It arms the first watch before it returns, so a view read after it
// misses no change.
func (w *watcher) children(full string) error {
	if !w.claim(full) {
		return nil
	}
	ev, err := w.armChildren(full)
	if err != nil {
		w.release(full)
		return err
	}
	w.keepWatching(full, ev, func(zk.Event) <-chan zk.Event {
		next, err := w.armChildren(full)
		if err != nil {
			w.fail(err)
			return nil
		}
		w.signal()
		return next
	})
	return nil
}

func (w *watcher) armChildren(full string) (<-chan zk.Event, error) {
	for {
		_, _, ev, err := w.conn.ChildrenW(full)
		if errors.Is(err, zk.ErrNoNode) {
			var ok bool
			ok, _, ev, err = w.conn.ExistsW(full)
			if err == nil && ok {
				continue // created between the two calls: watch its children
			}
		}
		if err != nil {
			return nil, fmt.Errorf("watch %s: %w", full, err)
		}
		return ev, nil
	}
}

// data watches the data of the node full while it exists (a leader's
// value, which Proclaim replaces): a node first seen after the view that
// named it was read, so the change is signalled at once (a view is drawn
// again, one that cannot miss a later change). Its goroutine ends with the
// node.
func (w *watcher) data(full string) {
	if !w.claim(full) {
		return
	}
	_, _, ev, err := w.conn.GetW(full)
	w.signal()
	if err != nil { // gone already, or the session is: the view says so
		w.release(full)
		return
	}
	w.keepWatching(full, ev, func(e zk.Event) <-chan zk.Event {
		if e.Type == zk.EventNodeDeleted {
			w.signal()
			return nil
		}
		_, _, next, err := w.conn.GetW(full)
		w.signal()
		if err != nil {
			return nil
		}
		return next
	})
}

// keepWatching runs the loop of one path's watch on a goroutine that wait
// waits for: on each event rearm arms the next watch and returns it, or nil
// to stop. The loop also ends with the watcher's context, or with the
// session (EventNotWatching), and then gives the path up.
func (w *watcher) keepWatching(full string, ev <-chan zk.Event, rearm func(zk.Event) <-chan zk.Event) {
	w.loops.Add(1)
	go func() {
		defer w.loops.Done()
		defer w.release(full)
		for ev != nil {
			select {
			case e := <-ev:
				if e.Type == zk.EventNotWatching {
					return // the session closed
				}
				ev = rearm(e)
			case <-w.ctx.Done():
				return
			}
		}
	}()
}
