package checker

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
	"time"
)

func TestRecorderConcurrentAddAndFlush(t *testing.T) {
	rec := NewRecorder(NewClock())
	var out bytes.Buffer
	var wg sync.WaitGroup
	const clients, each = 8, 200
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				call := rec.Now()
				rec.Add(Record{Kind: KindAcquire, Client: fmt.Sprintf("c%d", c), Path: "/l", Mode: ModeExclusive,
					Call: call, Return: rec.Now(), Outcome: OutcomeFailed})
			}
		}(c)
	}
	// Flush while clients add: every record must come out exactly once.
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		if err := rec.Flush(&out); err != nil {
			t.Fatal(err)
		}
	}
	if err := rec.Flush(&out); err != nil {
		t.Fatal(err)
	}
	h, err := Load(&out)
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != clients*each || rec.Len() != clients*each || len(rec.History()) != clients*each {
		t.Fatalf("flushed %d, recorded %d, want %d", len(h), rec.Len(), clients*each)
	}
	for _, r := range h {
		if r.Return < r.Call {
			t.Fatalf("clock went backwards: %+v", r)
		}
	}
}

func TestClockSharedStart(t *testing.T) {
	start := time.Now()
	c := ClockAt(start)
	later := start.Add(3 * time.Second)
	if got := c.At(later); got != int64(3*time.Second) {
		t.Fatalf("At = %d", got)
	}
	if !c.Start().Equal(start) || c.Now() < 0 {
		t.Fatal("bad clock")
	}
	if NewRecorder(c).Clock() != c {
		t.Fatal("recorder does not keep its clock")
	}
}
