package zklock_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/zklock/zklock/impl/zklock"
)

func ExampleSemaphore() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := zklock.NewSession(ctx, servers(), zklock.WithSessionTimeout(8*time.Second), timing())
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	// At most two workers at once, across every process that uses the
	// path (Curator's InterProcessSemaphoreV2 with 2 leases included).
	sem, err := zklock.NewSemaphore(s, "/example/workers", 2)
	if err != nil {
		log.Fatal(err)
	}
	first, err := sem.Acquire(ctx)
	if err != nil {
		log.Fatal(err)
	}
	second, err := sem.Acquire(ctx)
	if err != nil {
		log.Fatal(err)
	}
	// Both leases are taken: a third is refused at once.
	_, err = sem.TryAcquire(ctx)
	fmt.Println("third:", err != nil)
	// Each lease is fenced like a lock's: a later lease has a higher token.
	fmt.Println("tokens grow:", second.Token() > first.Token())
	holders, err := sem.Holders(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("holders:", len(holders))
	first.Unlock(ctx)
	second.Unlock(ctx)
	// Output:
	// third: true
	// tokens grow: true
	// holders: 2
}
