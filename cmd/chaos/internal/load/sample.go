package load

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"strconv"
	"time"

	"github.com/zklock/zklock/ensemble"
)

// Sample is the campaign process's memory and goroutines and the servers'
// watches at one instant.
type Sample struct {
	At         time.Duration `json:"-"`     // since the start of the campaign
	Label      string        `json:"label"` // start, run, end, closed
	HeapBytes  uint64        `json:"heap_bytes"`
	Goroutines int           `json:"goroutines"`
	Watches    []int         `json:"watches"` // per server, wchs's "Total watches" (-1: no answer)
}

// TotalWatches is the sum over the servers that answered.
func (s Sample) TotalWatches() int {
	n := 0
	for _, w := range s.Watches {
		n += max(w, 0)
	}
	return n
}

var totalWatches = regexp.MustCompile(`Total watches:\s*(\d+)`)

// parseWchs reads the watch count from a wchs reply.
func parseWchs(reply string) (int, error) {
	m := totalWatches.FindStringSubmatch(reply)
	if m == nil {
		return 0, fmt.Errorf("wchs: no watch count in %q", reply)
	}
	return strconv.Atoi(m[1])
}

// fourLetter sends a four-letter word; a variable so that tests can answer.
var fourLetter = ensemble.FourLetterWord

// takeSample reads the runtime's counters and asks every server for wchs.
// A server that does not answer counts -1 and its error is returned.
func takeSample(ctx context.Context, addrs []string, label string, at time.Duration) (Sample, error) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	s := Sample{At: at, Label: label, HeapBytes: ms.HeapAlloc, Goroutines: runtime.NumGoroutine()}
	var errs []error
	for _, a := range addrs {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		reply, err := fourLetter(ctx, a, "wchs")
		cancel()
		n := -1
		if err == nil {
			n, err = parseWchs(reply)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", a, err))
			n = -1
		}
		s.Watches = append(s.Watches, n)
	}
	return s, errors.Join(errs...)
}
