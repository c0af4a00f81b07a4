package checker

import (
	"os"
	"strings"
	"testing"
)

// TestREADMEExamplesLoad keeps the examples of the history format valid.
func TestREADMEExamplesLoad(t *testing.T) {
	raw, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	start := strings.Index(text, "```jsonl\n")
	if start < 0 {
		t.Fatal("README.md has no jsonl example")
	}
	text = text[start+len("```jsonl\n"):]
	text = text[:strings.Index(text, "```")]
	h, err := Load(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[Kind]bool{}
	for _, r := range h {
		kinds[r.Kind] = true
	}
	if len(kinds) != 7 {
		t.Errorf("the examples show %d kinds, want all 7", len(kinds))
	}
	if _, err := Check(h, Options{}); err != nil {
		t.Fatal(err)
	}
}
