// Command fencing writes to a SQL database through a zklock Mutex, handing
// the database the lease's fencing token with every write. The database
// refuses a token lower than the highest it has accepted (one conditional
// statement, Store.Write), so a holder that was paused past its session,
// and whose lock was granted to another process meanwhile, cannot
// overwrite the newer holder's data when it wakes up: zklock cannot stop a
// paused process, only the resource can.
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
	s, err := zklock.NewSession(ctx, strings.Split(*servers, ","),
		zklock.WithSessionTimeout(*timeout), zklock.WithEnsembleTiming(*tick, *syncLimit))
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	m, err := zklock.NewMutex(s, *lock)
	if err != nil {
		log.Fatal(err)
	}
	for i := 0; ctx.Err() == nil; i++ {
		if err := writeOnce(ctx, m, store, "next-order", fmt.Sprintf("%s #%d", *name, i)); err != nil {
			log.Print(err)
		}
		time.Sleep(time.Second)
	}
}

// writeOnce takes the lock, writes key through the store with the lease's
// token, and releases the lock. A refusal (ErrStaleToken) means this
// process lost the lock before its write landed: nothing it wrote
// survives, and the newer holder's data stands.
func writeOnce(ctx context.Context, m *zklock.Mutex, store *Store, key, value string) error {
	lease, err := m.Lock(ctx)
	if err != nil {
		return err
	}
	defer lease.Unlock(context.WithoutCancel(ctx))
	if err := store.Write(ctx, key, value, lease.Token()); err != nil {
		if errors.Is(err, ErrStaleToken) {
			return fmt.Errorf("lost the lock before writing: %w", err)
		}
		return err
	}
	return nil
}
