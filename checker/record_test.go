package checker

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestLoadRoundTrip(t *testing.T) {
	h := History{
		{Kind: KindAcquire, Client: "c1", Session: SessionID(0x1000000a3c2b0001), Path: "/locks/a", Mode: ModeExclusive,
			Call: 1, Return: 2, Outcome: OutcomeOK, Token: 7, Node: "/locks/a/_c_x-lock-0000000001"},
		{Kind: KindWrite, Client: "c1", Path: "/locks/a", Register: "mem:/locks/a", Call: 3, Return: 4,
			Outcome: OutcomeUnknown, Token: 7, Value: "v"},
		{Kind: KindLost, Client: "c1", Path: "/locks/a", Call: 4, Return: 9, Token: 7},
		{Kind: KindFault, Fault: FaultPause, Target: "proc1", Clients: []string{"c1", "c2"}, Call: 5, Return: 8},
		{Kind: KindLeftover, Path: "/locks/a", Call: 10, Nodes: []string{"/locks/a/_c_y-lock-0000000002"}},
	}
	var buf bytes.Buffer
	if _, err := h.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := Load(&buf)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(h)
	b, _ := json.Marshal(got)
	if !bytes.Equal(a, b) {
		t.Fatalf("round trip changed the history:\n%s\n%s", a, b)
	}
	if h[0].Session != "0x1000000a3c2b0001" {
		t.Errorf("SessionID = %s", h[0].Session)
	}
}

// TestFieldNames pins the history format: these names are read by other tools.
func TestFieldNames(t *testing.T) {
	r := Record{Kind: KindAcquire, Client: "c", Session: "0x1", Path: "/l", Mode: ModeRead, Call: 1, Return: 2,
		Outcome: OutcomeOK, Token: 3, Node: "/l/n", Register: "r", Value: "v", Fault: "f", Target: "t",
		Clients: []string{"c"}, Nodes: []string{"/l/n"}, Error: "e"}
	raw, _ := json.Marshal(r)
	want := `{"kind":"acquire","client":"c","session":"0x1","path":"/l","mode":"read","call":1,"return":2,"outcome":"ok","token":3,"node":"/l/n","register":"r","value":"v","fault":"f","target":"t","clients":["c"],"nodes":["/l/n"],"error":"e"}`
	if string(raw) != want {
		t.Fatalf("format changed:\n got %s\nwant %s", raw, want)
	}
}

func TestLoadErrors(t *testing.T) {
	good := `{"kind":"acquire","client":"c","path":"/l","mode":"exclusive","call":1,"return":2,"outcome":"ok","token":3}`
	cases := []struct {
		name  string
		text  string
		line  int
		is    error
		inMsg string
	}{
		{"syntax", good + "\n{\"kind\":\n", 2, ErrMalformed, "line 2"},
		{"wrong type", good + "\n\n" + `{"kind":"acquire","call":"soon"}`, 3, ErrMalformed, "call"},
		{"unknown field", `{"kind":"acquire","client":"c","path":"/l","mode":"exclusive","call":1,"retrun":2,"outcome":"ok","token":3}`, 1, ErrMalformed, "retrun"},
		{"two values", good + " {}", 1, ErrMalformed, "more than one"},
		{"no kind", `{"client":"c"}`, 1, ErrInvalid, "missing kind"},
		{"unknown kind", `{"kind":"grab","client":"c"}`, 1, ErrInvalid, "grab"},
		{"no client", `{"kind":"release","path":"/l","call":1,"return":2,"outcome":"ok","token":3}`, 1, ErrInvalid, "client"},
		{"ok acquire without token", `{"kind":"acquire","client":"c","path":"/l","mode":"read","call":1,"return":2,"outcome":"ok"}`, 1, ErrInvalid, "token"},
		{"returns before call", `{"kind":"acquire","client":"c","path":"/l","mode":"read","call":5,"return":2,"outcome":"failed"}`, 1, ErrInvalid, "before its call"},
		{"bad outcome", `{"kind":"read","client":"c","register":"r","call":1,"return":2,"outcome":"maybe"}`, 1, ErrInvalid, "maybe"},
		{"bad mode", `{"kind":"acquire","client":"c","path":"/l","mode":"shared","call":1,"return":2,"outcome":"failed"}`, 1, ErrInvalid, "shared"},
		{"unknown lost", `{"kind":"lost","client":"c","path":"/l","call":1,"return":2,"outcome":"unknown","token":3}`, 1, ErrInvalid, "lost"},
		{"fault without name", `{"kind":"fault","call":1,"return":2}`, 1, ErrInvalid, "fault name"},
		{"mixed modes", good + "\n" + strings.Replace(good, "exclusive", "write", 1), 2, ErrInvalid, "mixes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load(strings.NewReader(c.text))
			if !errors.Is(err, c.is) {
				t.Fatalf("want %v, got %v", c.is, err)
			}
			var re *RecordError
			if !errors.As(err, &re) || re.Line != c.line {
				t.Fatalf("want a RecordError on line %d, got %#v", c.line, err)
			}
			if !strings.Contains(err.Error(), c.inMsg) {
				t.Errorf("error %q does not mention %q", err, c.inMsg)
			}
		})
	}
}

func TestLoadSkipsBlankLinesAndNeedsNoFinalNewline(t *testing.T) {
	text := "\n" + `{"kind":"fault","fault":"kill","target":"zk1","call":1,"return":1}` + "\n\n  \n" +
		`{"kind":"leftover","path":"/l","call":9}`
	h, err := Load(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 2 || h[1].Kind != KindLeftover {
		t.Fatalf("got %+v", h)
	}
}

func TestCheckRejectsInvalidHistory(t *testing.T) {
	h := History{{Kind: KindAcquire, Client: "c", Path: "/l", Mode: ModeExclusive, Outcome: OutcomeOK, Call: 1, Return: 2}}
	_, err := Check(h, Options{})
	var re *RecordError
	if !errors.Is(err, ErrInvalid) || !errors.As(err, &re) || re.Index != 0 || re.Line != 0 {
		t.Fatalf("got %v", err)
	}
	if !strings.HasPrefix(err.Error(), "record 0:") {
		t.Errorf("error %q should name the record", err)
	}
}
