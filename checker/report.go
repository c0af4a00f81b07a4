package checker

import (
	"bufio"
	"fmt"
	"io"
	"time"
)

// WriteReport writes a human-readable report: the verdict, porcupine's verdict per
// partition, and every finding kept, violations first.
func (r *Result) WriteReport(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "verdict: %s\n", r)
	fmt.Fprintln(bw, "linearizability (porcupine):")
	for _, m := range r.Models {
		fmt.Fprintf(bw, "  %-8s %-30s %7d ops %5d unknown  %-7s %s", m.Model, m.Key, m.Operations, m.Unknown,
			m.Result, m.Elapsed.Round(time.Millisecond))
		if m.HTML != "" {
			fmt.Fprintf(bw, "  %s", m.HTML)
		}
		if m.VisualizeErr != nil {
			fmt.Fprintf(bw, "  (no visualisation: %v)", m.VisualizeErr)
		}
		fmt.Fprintln(bw)
	}
	if r.Election != nil {
		fmt.Fprintf(bw, "election: %s\n", r.Election)
	}
	if r.Semaphore != nil {
		fmt.Fprintf(bw, "semaphore: %s\n", r.Semaphore)
	}
	if len(r.Findings) == 0 && r.Suppressed == 0 {
		fmt.Fprintln(bw, "direct checks: nothing found")
	} else {
		fmt.Fprintln(bw, "direct checks:")
		for i := range r.Findings {
			fmt.Fprintf(bw, "  %s\n", r.Findings[i].String())
		}
		if r.Suppressed > 0 {
			fmt.Fprintf(bw, "  ... and %d more findings (%d of them violations) not shown\n", r.Suppressed, r.SuppressedViolations)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("checker: writing report: %w", err)
	}
	return nil
}
