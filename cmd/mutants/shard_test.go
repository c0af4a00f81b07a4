package main

import "testing"

// -shard K/N splits the mutants into N stages; a malformed shard is an
// error, never a silent run of all or none.
func TestParseShard(t *testing.T) {
	for in, want := range map[string][2]int{"": {1, 1}, "1/2": {1, 2}, "2/2": {2, 2}, "3/5": {3, 5}} {
		k, n, err := parseShard(in)
		if err != nil || k != want[0] || n != want[1] {
			t.Errorf("parseShard(%q) = %d, %d, %v; want %d, %d", in, k, n, err, want[0], want[1])
		}
	}
	for _, bad := range []string{"0/2", "3/2", "1/0", "2", "a/b", "-1/2"} {
		if _, _, err := parseShard(bad); err == nil {
			t.Errorf("parseShard(%q) accepted", bad)
		}
	}
}
