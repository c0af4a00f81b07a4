package checker

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// FuzzLoadCheck: no input makes Load or Check panic; Load fails only with the
// package's typed errors, and whatever it accepts Check accepts too.
func FuzzLoadCheck(f *testing.F) {
	if raw, err := os.ReadFile("README.md"); err == nil {
		text := string(raw)
		if i := strings.Index(text, "```jsonl\n"); i >= 0 {
			text = text[i+len("```jsonl\n"):]
			f.Add([]byte(text[:strings.Index(text, "```")]))
		}
	}
	f.Add([]byte(`{"kind":"acquire","client":"a","path":"/l","mode":"read","call":1,"return":2,"outcome":"ok","token":1}
{"kind":"acquire","client":"b","path":"/l","mode":"write","call":1,"return":3,"outcome":"ok","token":2}
{"kind":"lost","client":"a","path":"/l","call":2,"return":9,"token":1}
{"kind":"fault","fault":"pause","target":"*","call":0,"return":4611686018427387904}
{"kind":"write","client":"a","register":"r","call":5,"return":6,"outcome":"unknown","token":1}
{"kind":"leftover","path":"/l","call":10,"nodes":["x","x"]}`))
	f.Add([]byte("{\"kind\":\"acquire\"}\n\x00\xff{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := Load(bytes.NewReader(data))
		if err != nil {
			var re *RecordError
			if !errors.As(err, &re) || !(errors.Is(err, ErrMalformed) || errors.Is(err, ErrInvalid)) {
				t.Fatalf("untyped error: %v", err)
			}
			return
		}
		res, err := Check(h, Options{Timeout: time.Second, MaxFindings: 3})
		if err != nil {
			t.Fatalf("Load accepted what Check rejects: %v", err)
		}
		var b strings.Builder
		if err := res.WriteReport(&b); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzLoadRoundTrip feeds arbitrary bytes to the history reader: it must return a
// history or an error, never panic, and a history it accepts must survive
// a write and a second read unchanged.
func FuzzLoadRoundTrip(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := Load(bytes.NewReader(data))
		if err != nil {
			return
		}
		var b bytes.Buffer
		if _, err := h.WriteTo(&b); err != nil {
			t.Fatalf("writing an accepted history: %v", err)
		}
		first := bytes.Clone(b.Bytes())
		again, err := Load(&b)
		if err != nil {
			t.Fatalf("an accepted history, written, is refused: %v\n%s", err, first)
		}
		// Equal up to what JSON cannot tell apart (an empty list and none).
		var b2 bytes.Buffer
		if _, err := again.WriteTo(&b2); err != nil {
			t.Fatal(err)
		}
		if len(h) != len(again) || !bytes.Equal(first, b2.Bytes()) {
			t.Fatalf("round trip changed the history:\n%s\n%s", first, b2.String())
		}
	})
}
