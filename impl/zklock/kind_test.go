package zklock

import (
	"fmt"
	"testing"
)

// q builds a queue from kinds: 'x' exclusive, 'r' read, 'w' write.
func q(kinds string) []child {
	out := make([]child, len(kinds))
	for i, k := range kinds {
		kind := map[rune]Mode{'x': ModeExclusive, 'r': ModeRead, 'w': ModeWrite}[k]
		out[i] = child{name: fmt.Sprintf("n%d", i), seq: int64(i), kind: kind}
	}
	return out
}

func TestDecide(t *testing.T) {
	cases := []struct {
		queue string
		me    int
		grant bool
		wait  string
	}{
		{"x", 0, true, ""},
		{"xxx", 2, false, "n1"}, // predecessor, not the holder: no herd
		{"rrr", 2, true, ""},    // readers share
		{"wrr", 2, false, "n0"}, // a reader waits for the last writer ahead
		{"rwrr", 3, false, "n1"},
		{"rrw", 2, false, "n1"}, // a writer waits for its predecessor, reader or not
		{"w", 0, true, ""},
		{"xr", 1, false, "n0"}, // an unknown node kind counts as a writer for readers
	}
	for _, c := range cases {
		queue := q(c.queue)
		grant, wait := decide(queue, c.me, queue[c.me].kind)
		if grant != c.grant || wait.name != c.wait {
			t.Errorf("decide(%s, %d) = %v, %q; want %v, %q", c.queue, c.me, grant, wait.name, c.grant, c.wait)
		}
	}
}
