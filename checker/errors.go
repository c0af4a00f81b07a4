package checker

import (
	"errors"
	"fmt"
)

// ErrMalformed is wrapped by every error about a history line that is not a JSON
// object of the history format (bad syntax, wrong field types, unknown fields).
var ErrMalformed = errors.New("malformed record")

// ErrInvalid is wrapped by every error about a record that is well-formed JSON but
// breaks a rule of the history format (a missing client, an unknown kind, ...).
var ErrInvalid = errors.New("invalid record")

// A RecordError says which record of a history is malformed or invalid. It wraps
// ErrMalformed or ErrInvalid, so callers can test it with errors.Is.
type RecordError struct {
	// Line is the 1-based line of the file the record came from, or 0 when the
	// history was not read from a file.
	Line int
	// Index is the 0-based position of the record in the history, or -1 for a
	// line that did not decode.
	Index int
	Err   error // wraps ErrMalformed or ErrInvalid
}

// Error implements error.
func (e *RecordError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %v", e.Line, e.Err)
	}
	return fmt.Sprintf("record %d: %v", e.Index, e.Err)
}

// Unwrap lets errors.Is see ErrMalformed, ErrInvalid and the underlying JSON error.
func (e *RecordError) Unwrap() error { return e.Err }
