package zklock_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/ensemble/ensembletest"
	"github.com/zklock/zklock/impl/zklock"
)

// servers is the test ensemble; in your service, the ensemble's addresses.
func servers() []string { return ensembletest.Servers() }

// timing is the test ensemble's tickTime and syncLimit; in your service,
// your servers' zoo.cfg values (ZooKeeper ships with 2 s and 5).
func timing() zklock.SessionOption { return zklock.WithEnsembleTiming(ensembletest.Timing()) }

func ExampleMutex() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := zklock.NewSession(ctx, servers(), zklock.WithSessionTimeout(8*time.Second), timing())
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	m, err := zklock.NewMutex(s, "/example/orders")
	if err != nil {
		log.Fatal(err)
	}
	lease, err := m.Lock(ctx)
	if err != nil {
		log.Fatal(err)
	}
	// Write to ZooKeeper only while the lock is still ours: the multi
	// checks our lock node first.
	if _, err := lease.Guard(ctx, &zk.CreateRequest{Path: "/example-orders-done", Acl: zk.WorldACL(zk.PermAll)}); err != nil {
		log.Fatal(err)
	}
	// A resource outside ZooKeeper gets the fencing token with each write
	// and refuses tokens lower than the highest it has seen.
	fmt.Println("token > 0:", lease.Token() > 0)
	select {
	case <-lease.Done():
		fmt.Println("lost:", lease.Err()) // stop touching the resource
	default:
		fmt.Println("still held")
	}
	if err := lease.Unlock(ctx); err != nil {
		log.Fatal(err)
	}
	fmt.Println(lease.Err())
	s.Conn().Delete("/example-orders-done", -1)
	// Output:
	// token > 0: true
	// still held
	// zklock: lease released
}

func ExampleRWMutex() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := zklock.NewSession(ctx, servers(), timing())
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	rw, err := zklock.NewRWMutex(s, "/example/catalog")
	if err != nil {
		log.Fatal(err)
	}
	w, err := rw.Lock(ctx) // write: alone
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(w.Mode())
	// Done writing; keep reading what we wrote, letting other readers in
	// but no writer, without a moment of not holding.
	if err := w.Downgrade(ctx); err != nil {
		log.Fatal(err)
	}
	fmt.Println(w.Mode())
	r, err := rw.RLock(ctx) // readers share
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Mode())
	r.Unlock(ctx)
	w.Unlock(ctx)
	// Output:
	// write
	// read
	// read
}

func ExampleLockAll() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := zklock.NewSession(ctx, servers(), timing())
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	from, _ := zklock.NewMutex(s, "/example/accounts/alice")
	to, _ := zklock.NewMutex(s, "/example/accounts/bob")
	rates, _ := zklock.NewRWMutex(s, "/example/rates")
	// Any order: LockAll takes locks by path, so no two transfers deadlock.
	all, err := zklock.LockAll(ctx, to, from, rates.RLocker())
	if err != nil {
		log.Fatal(err)
	}
	for _, l := range all.Leases() {
		fmt.Println(l.Mode())
	}
	if err := all.Unlock(ctx); err != nil {
		log.Fatal(err)
	}
	// Output:
	// exclusive
	// exclusive
	// read
}

// A multi of your own that applies only while the lease holds: Check's
// operation first, then your writes.
func ExampleLease_Check() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := zklock.NewSession(ctx, servers(), zklock.WithSessionTimeout(8*time.Second), timing())
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	m, err := zklock.NewMutex(s, "/example/check")
	if err != nil {
		log.Fatal(err)
	}
	lease, err := m.Lock(ctx)
	if err != nil {
		log.Fatal(err)
	}
	check, err := lease.Check()
	if err != nil {
		log.Fatal(err)
	}
	_, err = s.Conn().Multi(check, &zk.CreateRequest{Path: "/example-check-done", Acl: zk.WorldACL(zk.PermAll)})
	fmt.Println("applied:", err == nil)
	lease.Unlock(ctx)
	_, err = lease.Check()
	fmt.Println(errors.Is(err, zklock.ErrNotHeld))
	s.Conn().Delete("/example-check-done", -1)
	// Output:
	// applied: true
	// true
}

// Who holds a lock: the holder's node carries its process's Identity
// (unless WithData gave other data), and the node's ephemeralOwner its
// session.
func ExampleParseIdentity() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := zklock.NewSession(ctx, servers(), zklock.WithSessionTimeout(8*time.Second), timing())
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	m, err := zklock.NewMutex(s, "/example/reports")
	if err != nil {
		log.Fatal(err)
	}
	lease, err := m.Lock(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer lease.Unlock(ctx)
	// An operator's tool would list the lock path; the lease names its node.
	data, stat, err := s.Conn().Get(lease.Node())
	if err != nil {
		log.Fatal(err)
	}
	id, ok := zklock.ParseIdentity(data)
	fmt.Println("identity:", ok, "pid > 0:", id.PID > 0)
	fmt.Println("owned by our session:", stat.EphemeralOwner == s.ID())
	// Output:
	// identity: true pid > 0: true
	// owned by our session: true
}

func ExampleElection() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := zklock.NewSession(ctx, servers(), timing())
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	e, err := zklock.NewElection(s, "/example/scheduler")
	if err != nil {
		log.Fatal(err)
	}
	// Anyone may watch who leads, candidate or not.
	octx, stop := context.WithCancel(ctx)
	obs, err := e.Observe(octx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("vacant:", (<-obs.Leaders()).Vacant())
	lead, err := e.Campaign(ctx, []byte("host-1:8080"))
	if err != nil {
		log.Fatal(err)
	}
	info := <-obs.Leaders()
	fmt.Printf("leader %s, our epoch: %v\n", info.Value, info.Epoch == lead.Epoch())
	// Tell followers where to find us now, while we still lead.
	if err := lead.Proclaim(ctx, []byte("host-1:9090")); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("leader %s\n", (<-obs.Leaders()).Value)
	if err := lead.Resign(ctx); err != nil {
		log.Fatal(err)
	}
	fmt.Println("vacant:", (<-obs.Leaders()).Vacant())
	stop()
	for range obs.Leaders() {
	}
	fmt.Println(obs.Err())
	// Output:
	// vacant: true
	// leader host-1:8080, our epoch: true
	// leader host-1:9090
	// vacant: true
	// context canceled
}
