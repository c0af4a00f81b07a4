// Command fencing writes to a SQL database through a zklock Mutex, handing
// the database the lease's fencing token with every write. The database
// keeps one high-water token per lock and refuses a token lower than it,
// in the same transaction as the write (Store.Write), so a holder that was
// paused past its session, and whose lock was granted to another process
// meanwhile, can write nothing under that lock when it wakes up, not even
// a record the newer holder has not written yet: zklock cannot stop a
// paused process, only the resource can. When its Session ends (expired,
// lost), the worker makes a new one: an ended Session never comes back.
//
//	go run . -servers zk1:2181,zk2:2181,zk3:2181 -db /tmp/orders.db -name worker-1
//
// The database is SQLite through modernc.org/sqlite, a maintained driver in
// pure Go: go test needs no database server and no C compiler, and several
// processes share one database file as they would share a server. It is
// its own Go module (with a replace for zklock), so that the library does
// not carry a database driver among its dependencies.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/zklock/zklock/impl/zklock"
)

func main() {
	servers := flag.String("servers", "127.0.0.1:2181", "ZooKeeper connect string")
	lock := flag.String("lock", "/locks/orders", "lock path")
	db := flag.String("db", "orders.db", "SQLite database file")
	name := flag.String("name", "worker", "this worker's name, written as the value")
	timeout := flag.Duration("session-timeout", zklock.DefaultSessionTimeout, "session timeout to ask for")
	tick := flag.Duration("tick-time", 2*time.Second, "the servers' tickTime (zoo.cfg)")
	syncLimit := flag.Int("sync-limit", 5, "the servers' syncLimit (zoo.cfg)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	store, err := OpenStore(ctx, *db, true)
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	if err := run(ctx, strings.Split(*servers, ","), *lock, store, *name,
		zklock.WithSessionTimeout(*timeout), zklock.WithEnsembleTiming(*tick, *syncLimit)); err != nil {
		log.Fatal(err)
	}
}

// run writes through the lock once a second until ctx ends, on a new
// Session whenever the last one has ended: every Lock on an ended Session
// fails at once, so retrying on it would spin forever. It returns only
// when ctx ends, or a Session cannot be made for a reason retrying cannot
// mend (bad options or lock path, refused credentials).
func run(ctx context.Context, servers []string, lock string, store *Store, name string, opts ...zklock.SessionOption) error {
	for i := 0; ctx.Err() == nil; {
		s, err := zklock.NewSession(ctx, servers, opts...)
		switch {
		case ctx.Err() != nil:
			return nil
		case errors.Is(err, zklock.ErrInvalidArgument), errors.Is(err, zklock.ErrNoAuth):
			return err
		case err != nil: // ErrNoServer after NewSession's own wait
			log.Print(err)
			pause(ctx, time.Second)
			continue
		}
		m, err := zklock.NewMutex(s, lock)
		if err != nil {
			s.Close()
			return err
		}
		for ; ctx.Err() == nil && s.Err() == nil; i++ {
			if err := writeOnce(ctx, m, store, "next-order", fmt.Sprintf("%s #%d", name, i)); err != nil && ctx.Err() == nil {
				log.Print(err)
			}
			pause(ctx, time.Second)
		}
		if err := s.Err(); err != nil && ctx.Err() == nil {
			log.Printf("session ended (%v): making a new one", err)
		}
		s.Close()
	}
	return nil
}

// pause waits d, or less if ctx ends.
func pause(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// writeOnce takes the lock, writes key through the store under the lock
// with the lease's token, and releases the lock. A refusal (ErrStaleToken)
// means this process lost the lock before its write landed: nothing it
// wrote survives, and the newer holder's data stands.
func writeOnce(ctx context.Context, m *zklock.Mutex, store *Store, key, value string) error {
	lease, err := m.Lock(ctx)
	if err != nil {
		return err
	}
	defer lease.Unlock(context.WithoutCancel(ctx))
	if err := store.Write(ctx, m.Path(), key, value, lease.Token()); err != nil {
		if errors.Is(err, ErrStaleToken) {
			return fmt.Errorf("lost the lock before writing: %w", err)
		}
		return err
	}
	return nil
}
