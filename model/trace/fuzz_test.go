package trace

import (
	"bytes"
	"reflect"
	"testing"
)

// FuzzRead feeds arbitrary bytes to the trace reader: it must return events
// or an error, never panic, and events it accepts must survive a write and
// a second read unchanged.
func FuzzRead(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		events, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		for i := range events {
			_ = events[i].String()
		}
		var b bytes.Buffer
		if err := Write(&b, events); err != nil {
			t.Fatalf("writing accepted events: %v", err)
		}
		again, err := Read(&b)
		if err != nil {
			t.Fatalf("accepted events, written, are refused: %v\n%s", err, b.String())
		}
		if len(again) != len(events) {
			t.Fatalf("round trip: %d events, then %d", len(events), len(again))
		}
		for i := range events {
			events[i].Line, again[i].Line = 0, 0 // where it stood in the file
			if !reflect.DeepEqual(events[i], again[i]) {
				t.Fatalf("event %d changed in a round trip:\n%+v\n%+v", i, events[i], again[i])
			}
		}
	})
}
