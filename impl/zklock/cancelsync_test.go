package zklock

import (
	"context"
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zklock/zklock/faultinject"
)

// A Lock cancelled while its create is in flight, whose reply is then lost
// with the connection, does not know whether it made a node: it lists the
// lock path for nodes with its uuid. That listing goes out on a new
// connection, maybe to another server, which may not yet have applied the
// create; a sync on the lock path first brings that server up to the
// leader, so the listing sees the node and the clean-up deletes it.
//
// The create is let through to the server and everything after it held
// (a blackhole, with the Lock's context cancelled at that moment), so the
// Lock returns with its create's outcome unknown; severing the connections
// then drops the held reply. The test checks the order of the requests on
// the lock path after that: a sync, then the listing, then the delete, and
// no node of ours left behind. (A server that lags at that moment cannot
// be forced on a healthy ensemble: after a reconnect the leader's
// revalidation of the session usually reaches a follower behind the
// create's commit. The order is what makes the clean-up independent of
// that.)
func TestCancelAfterLostCreateSyncsFirst(t *testing.T) {
	lock := lockPath(t)
	ctx := ctxFor(t, 2*time.Minute)
	a := admin(t)
	h, held := holdLock(t, ctx, lock)
	defer held.Unlock(ctx)

	c := newClient(t, "cancelled")
	m, _ := NewMutex(c.Session, lock)
	lockCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	creates, recording := 0, false
	var seen []faultinject.Op
	c.net.OnRequest(func(op faultinject.Op, req []byte) {
		if !strings.HasPrefix(requestPath(req), lock+"/") && requestPath(req) != lock {
			return // the heartbeat's syncs are on "/"
		}
		mu.Lock()
		defer mu.Unlock()
		if op == faultinject.OpCreate2 && creates == 0 {
			creates++
			c.net.BlackholeUntilHealed() // the create goes through; its reply is held
			cancel()
			return
		}
		if recording {
			seen = append(seen, op)
		}
	})
	t.Cleanup(func() { c.net.OnRequest(nil) })
	if _, err := m.Lock(lockCtx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Lock = %v, want context.Canceled", err)
	}
	mu.Lock()
	recording = true
	mu.Unlock()
	c.net.Sever() // drops the held reply: the create's outcome is unknown
	c.net.Heal()
	eventually(t, "our node deleted", 30*time.Second, func() bool {
		return !ownsNode(a, lock, c.ID())
	})
	if !ownsNode(a, lock, h.ID()) {
		t.Fatal("the holder's node is gone")
	}
	mu.Lock()
	defer mu.Unlock()
	want := []faultinject.Op{faultinject.OpSync, faultinject.OpGetChildren2, faultinject.OpDelete}
	if len(seen) < len(want) || !slices.Equal(seen[:len(want)], want) {
		t.Fatalf("requests on the lock path after the lost reply: %v, want %v first", seen, want)
	}
}

// requestPath reads the path that a request naming one starts with (after
// the xid and the opcode); "" if it names none.
func requestPath(req []byte) string {
	const hdr = 8
	if len(req) < hdr+4 {
		return ""
	}
	n := int(int32(binary.BigEndian.Uint32(req[hdr:])))
	if n <= 0 || hdr+4+n > len(req) {
		return ""
	}
	return string(req[hdr+4 : hdr+4+n])
}
