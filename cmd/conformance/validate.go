package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/zklock/zklock/model/trace"
)

// errInvalid is returned when a trace is not a run of the model.
var errInvalid = errors.New("the trace is not a run of the model")

// validate replays a JSON-lines trace of impl/zklock in the model
// (model/trace) and prints the report.
func validate(o options, w io.Writer) error {
	f, err := os.Open(o.validate)
	if err != nil {
		return fmt.Errorf("validate: %w", err)
	}
	defer f.Close()
	events, err := trace.Read(f)
	if err != nil {
		return fmt.Errorf("validate: %w", err)
	}
	start := time.Now()
	rep, err := trace.Validate(events, trace.Options{Budget: o.budget})
	if err != nil {
		return fmt.Errorf("validate: %w", err)
	}
	fmt.Fprint(w, rep)
	if o.verbose {
		for _, l := range rep.Locks {
			if l.Verdict == trace.Valid {
				fmt.Fprintf(w, "order found for %s:\n", l.Lock)
				for _, s := range l.Steps {
					fmt.Fprintf(w, "  %s\n", s)
				}
			}
		}
	}
	fmt.Fprintf(w, "%d events in %s\n", len(events), time.Since(start).Round(time.Millisecond))
	switch rep.Verdict {
	case trace.Invalid:
		return errInvalid
	case trace.Inconclusive:
		return errors.New("inconclusive: the search budget ran out (-budget)")
	}
	return nil
}
