package checker

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// A History is the records of one run, in the order they were recorded. The order
// carries no meaning: the times do.
type History []Record

// A Reader decodes a history file, one record per line.
type Reader struct {
	br   *bufio.Reader
	line int
}

// NewReader returns a Reader that decodes JSON lines from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{br: bufio.NewReader(r)}
}

// Line returns the line number of the record Read returned last.
func (r *Reader) Line() int { return r.line }

// Read returns the next record, skipping blank lines. It returns io.EOF after the
// last record, and a *RecordError for a line that is not a valid record. The
// record is validated on its own; rules that span records are checked by
// [History.Validate].
func (r *Reader) Read() (Record, error) {
	for {
		// ReadBytes, not a Scanner: a leftover record listing many nodes can exceed
		// any fixed line limit.
		raw, err := r.br.ReadBytes('\n')
		if len(raw) == 0 && err != nil {
			if errors.Is(err, io.EOF) {
				return Record{}, io.EOF
			}
			return Record{}, fmt.Errorf("checker: reading history: %w", err)
		}
		r.line++
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 {
			if err != nil {
				return Record{}, io.EOF
			}
			continue
		}
		rec, derr := decodeRecord(raw)
		if derr != nil {
			return Record{}, &RecordError{Line: r.line, Index: -1, Err: derr}
		}
		if verr := rec.validate(); verr != nil {
			return Record{}, &RecordError{Line: r.line, Index: -1, Err: verr}
		}
		return rec, nil
	}
}

// decodeRecord is strict: an unknown field is far more likely a typo in the harness
// than a newer format, and a typo'd "return" would silently read as 0.
func decodeRecord(raw []byte) (Record, error) {
	var rec Record
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		return Record{}, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	if dec.More() {
		return Record{}, fmt.Errorf("%w: more than one JSON value on the line", ErrMalformed)
	}
	return rec, nil
}

// Load reads a whole history and validates it, rules spanning records included. A
// *RecordError names the first bad line.
func Load(r io.Reader) (History, error) {
	rd := NewReader(r)
	var h History
	var lines []int
	for {
		rec, err := rd.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		h = append(h, rec)
		lines = append(lines, rd.Line())
	}
	if err := h.Validate(); err != nil {
		var re *RecordError
		if errors.As(err, &re) && re.Index >= 0 && re.Index < len(lines) {
			re.Line = lines[re.Index]
		}
		return nil, err
	}
	return h, nil
}

// LoadFile is [Load] on a file.
func LoadFile(path string) (History, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("checker: %w", err)
	}
	defer f.Close()
	return Load(f)
}

// Validate checks every record and the rules that span records: one lock path is
// either exclusive or read/write. The error is a *RecordError.
func (h History) Validate() error {
	modes := make(map[string]Mode)
	for i := range h {
		r := &h[i]
		if err := r.validate(); err != nil {
			return &RecordError{Index: i, Err: err}
		}
		if r.Kind != KindAcquire {
			continue
		}
		rw := r.Mode != ModeExclusive
		if prev, ok := modes[r.Path]; ok && (prev != ModeExclusive) != rw {
			return &RecordError{Index: i, Err: fmt.Errorf(
				"%w: path %s mixes exclusive acquires with read/write ones", ErrInvalid, r.Path)}
		}
		modes[r.Path] = r.Mode
	}
	return nil
}

// WriteTo writes h as JSON lines.
func (h History) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriter(w)
	cw := &countingWriter{w: bw}
	enc := json.NewEncoder(cw)
	for i := range h {
		if err := enc.Encode(&h[i]); err != nil {
			return cw.n, fmt.Errorf("checker: writing history: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return cw.n, fmt.Errorf("checker: writing history: %w", err)
	}
	return cw.n, nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
