package zklock

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"
	"time"
)

// ParseIdentity takes what zklock writes by default and nothing else: a
// node with other data (WithData's, Curator's address, none) is no
// identity, and unknown fields are ignored.
func TestParseIdentity(t *testing.T) {
	id, ok := ParseIdentity(ownIdentity())
	if !ok || id.PID != os.Getpid() || id.Started.IsZero() {
		t.Fatalf("own identity %s parsed as %+v, %v", ownIdentity(), id, ok)
	}
	if id, ok := ParseIdentity([]byte(`{"host":"h","pid":7,"started":"2026-11-27T04:50:12Z","later":1}`)); !ok || id.Host != "h" || id.PID != 7 {
		t.Fatalf("with an unknown field: %+v, %v", id, ok)
	}
	for _, data := range []string{"", "10.0.0.5", "{}", `{"pid":0}`, `{"pid":"x"}`, "{", "\x00\x01"} {
		if id, ok := ParseIdentity([]byte(data)); ok {
			t.Errorf("ParseIdentity(%q) = %+v, true; want false", data, id)
		}
	}
}

// Every lock node carries the process's Identity unless WithData says
// otherwise; WithData(nil) leaves the node empty.
func TestLockNodeIdentity(t *testing.T) {
	ctx := ctxFor(t, time.Minute)
	a := admin(t)
	c := newClient(t, "identity")
	for _, tc := range []struct {
		name string
		opts []LockOption
		want []byte
	}{
		{"default", nil, ownIdentity()},
		{"WithData", []LockOption{WithData([]byte("orders-worker"))}, []byte("orders-worker")},
		{"WithData(nil)", []LockOption{WithData(nil)}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lock := lockPath(t)
			rw, err := NewRWMutex(c.Session, lock, tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			for _, take := range []func(context.Context) (*Lease, error){rw.Lock, rw.RLock} {
				lease, err := take(ctx)
				if err != nil {
					t.Fatal(err)
				}
				got, _, err := a.Get(lease.Node())
				if err != nil || !bytes.Equal(got, tc.want) {
					t.Fatalf("%s node data %q (%v), want %q", lease.Mode(), got, err, tc.want)
				}
				if err := lease.Unlock(ctx); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// A Mode reads and writes as its name (JSON: LockView's mode), and only
// its name reads back.
func TestModeText(t *testing.T) {
	for _, m := range []Mode{ModeExclusive, ModeRead, ModeWrite} {
		b, _ := m.MarshalText()
		var got Mode
		if err := got.UnmarshalText(b); err != nil || got != m {
			t.Errorf("%v: round trip %q -> %v, %v", m, b, got, err)
		}
	}
	var m Mode
	if err := m.UnmarshalText([]byte("shared")); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("UnmarshalText(shared) = %v, want ErrInvalidArgument", err)
	}
}

// Inspect refuses bad input with typed errors, before any request.
func TestInspectBadInput(t *testing.T) {
	if _, err := Inspect(context.Background(), nil, "/a"); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("nil session: %v", err)
	}
	s := &Session{}
	if _, err := Inspect(context.Background(), s, "a/b"); !errors.Is(err, ErrInvalidPath) {
		t.Errorf("relative path: %v", err)
	}
	//lint:ignore SA1012 a nil Context is the bad input under test
	if _, err := Inspect(nil, s, "/a"); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("nil context: %v", err)
	}
}
