package zklock

import (
	"errors"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/ensemble/ensembletest"
)

// A chroot in the connect string, as ZooKeeper defines it: every path goes
// under it and paths come back relative. A session without the chroot that
// names the full path contends on the same lock, as a Curator process with
// the same connect string would.
func TestChroot(t *testing.T) {
	servers := ensembletest.Require(t)
	a := admin(t)
	ctx := ctxFor(t, 2*time.Minute)
	root := lockPath(t)
	for _, p := range []string{"/zklock-test", root} {
		if _, err := a.Create(p, nil, 0, zk.WorldACL(zk.PermAll)); err != nil && !errors.Is(err, zk.ErrNodeExists) {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { deleteTree(a, root) })
	last := len(servers) - 1
	asList := append(append([]string(nil), servers[:last]...), servers[last]+root)
	asString := []string{strings.Join(servers, ",") + root}
	var chrooted []*Session
	for _, in := range [][]string{asList, asString} {
		s, err := NewSession(ctx, in, WithSessionTimeout(longTimeout), timing())
		if err != nil {
			t.Fatalf("NewSession(%q): %v", in, err)
		}
		t.Cleanup(func() { s.Close() })
		if s.Chroot() != root {
			t.Fatalf("Chroot() = %q, want %q", s.Chroot(), root)
		}
		chrooted = append(chrooted, s)
	}
	plain, err := NewSession(ctx, servers, WithSessionTimeout(longTimeout), timing())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { plain.Close() })

	m, _ := NewMutex(chrooted[0], "/locks/x")
	lease, err := m.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if m.Path() != "/locks/x" || path.Dir(lease.Node()) != "/locks/x" {
		t.Fatalf("Path %q, Node %q: want them relative to the chroot", m.Path(), lease.Node())
	}
	if got := nodes(t, a, root+"/locks/x"); len(got) != 1 || got[0] != path.Base(lease.Node()) {
		t.Fatalf("nodes under the chroot's /locks/x = %v, want our %s", got, path.Base(lease.Node()))
	}
	if ok, _, err := a.Exists("/locks/x/" + path.Base(lease.Node())); err != nil || ok {
		t.Fatalf("our node outside the chroot: exists %v, %v", ok, err)
	}
	if cs, err := m.Contenders(ctx); err != nil || len(cs) != 1 || cs[0] != lease.Node() {
		t.Fatalf("Contenders = %v, %v; want [%s]", cs, err, lease.Node())
	}
	m2, _ := NewMutex(chrooted[1], "/locks/x")
	mp, _ := NewMutex(plain, root+"/locks/x")
	for name, other := range map[string]*Mutex{"the same chroot as one string": m2, "the full path without chroot": mp} {
		if _, err := other.TryLock(ctx); !errors.Is(err, ErrLocked) {
			t.Fatalf("TryLock through %s = %v, want ErrLocked", name, err)
		}
	}
	res, err := lease.Guard(ctx, &zk.CreateRequest{Path: "/data", Data: []byte("x"), Acl: zk.WorldACL(zk.PermAll)})
	if err != nil || len(res) != 1 || res[0].String != "/data" {
		t.Fatalf("Guard create /data = %+v, %v; want the path /data", res, err)
	}
	if ok, _, err := a.Exists(root + "/data"); err != nil || !ok {
		t.Fatalf("Guard's node not under the chroot: exists %v, %v", ok, err)
	}
	if err := lease.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	if left := synced(t, a, root+"/locks/x"); len(left) != 0 {
		t.Fatalf("nodes %v left", left)
	}

	rw, _ := NewRWMutex(chrooted[1], "/locks/rw")
	w, err := rw.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Downgrade(ctx); err != nil {
		t.Fatal(err)
	}
	if path.Dir(w.Node()) != "/locks/rw" || w.Mode() != ModeRead {
		t.Fatalf("after Downgrade: Node %q, Mode %s", w.Node(), w.Mode())
	}
	if err := w.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	if left := synced(t, a, root+"/locks/rw"); len(left) != 0 {
		t.Fatalf("nodes %v left", left)
	}
}

// A chroot that does not exist is not created: Lock fails, leaving nothing.
func TestChrootMissing(t *testing.T) {
	servers := ensembletest.Require(t)
	a := admin(t)
	ctx := ctxFor(t, time.Minute)
	root := lockPath(t)
	s, err := NewSession(ctx, []string{strings.Join(servers, ",") + root}, WithSessionTimeout(longTimeout), timing())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	m, _ := NewMutex(s, "/locks/x")
	if _, err := m.Lock(ctx); !errors.Is(err, zk.ErrNoNode) {
		t.Fatalf("Lock under a missing chroot = %v, want zk.ErrNoNode", err)
	}
	if ok, _, err := a.Exists(root); err != nil || ok {
		t.Fatalf("the chroot was created: %v, %v", ok, err)
	}
}

// deleteTree deletes a node and everything under it.
func deleteTree(a *adminClient, p string) {
	children, _, _ := a.Children(p)
	for _, c := range children {
		deleteTree(a, p+"/"+c)
	}
	a.Delete(p, -1)
}
