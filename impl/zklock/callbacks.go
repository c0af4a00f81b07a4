package zklock

import (
	"bytes"
	"runtime"
	"strconv"
	"sync"
)

// The Observer's functions run on a goroutine of the session's own, one
// at a time, in the order of the events, and never on the goroutine whose
// work they report. Those goroutines are go-zookeeper's receive goroutine
// (a reconnect's connect reply), the loss monitor, the call workers and
// the calls of the API: on the first, a slow function would hold back
// every reply and the check of a renegotiated timeout, and so Done; and
// Close, which waits for the monitor, the workers and the calls under way,
// would deadlock when a function called it from one of them.
//
// The goroutine runs only while calls are queued: it starts with the first
// and returns once the queue is empty, so a session that is lost and never
// closed leaves none behind. Close waits for it to drain, unless Close is
// called from one of the functions it runs (it then drains once that
// function returns).

// callbacks is a session's queue of Observer calls.
type callbacks struct {
	mu      sync.Mutex
	queue   []func()
	running bool
	runner  uint64        // the running goroutine's id, 0 until it has started
	drained chan struct{} // closed when the running goroutine returns
}

// post queues fn, starting the goroutine if none runs.
func (c *callbacks) post(fn func()) {
	c.mu.Lock()
	c.queue = append(c.queue, fn)
	if c.running {
		c.mu.Unlock()
		return
	}
	c.running, c.runner = true, 0
	c.drained = make(chan struct{})
	c.mu.Unlock()
	go c.run()
}

// run calls the queued functions in order until the queue is empty.
func (c *callbacks) run() {
	c.mu.Lock()
	c.runner = goroutineID()
	for len(c.queue) > 0 {
		fn := c.queue[0]
		c.queue[0] = nil
		c.queue = c.queue[1:]
		c.mu.Unlock()
		fn()
		c.mu.Lock()
	}
	c.queue = nil
	c.running, c.runner = false, 0
	close(c.drained)
	c.mu.Unlock()
}

// wait returns once every queued call has returned, or at once when
// called from one of them (which waiting would deadlock).
func (c *callbacks) wait() {
	c.mu.Lock()
	if !c.running || c.runner == goroutineID() {
		c.mu.Unlock()
		return
	}
	ch := c.drained
	c.mu.Unlock()
	<-ch
}

// goroutineID is the calling goroutine's id, read from the header of its stack
// trace ("goroutine 42 [running]:"): Go gives no other way for Close to
// tell that it runs inside an Observer function, where it must not wait
// for that function to return. Only post's goroutine and wait read it.
func goroutineID() uint64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	if i := bytes.IndexByte(b, ' '); i > 0 {
		b = b[:i]
	}
	id, _ := strconv.ParseUint(string(b), 10, 64)
	return id
}
