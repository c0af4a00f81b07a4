package zk

import (
	"testing"
	"unsafe"
)

// TestNoKindTakesNoSpace: a PredecessorLock name is its seq alone, a node
// and a watch as small as with plain ints (a zero-size field last would be
// padded).
func TestNoKindTakesNoSpace(t *testing.T) {
	if n, w, x := unsafe.Sizeof(Name[NoKind]{}), unsafe.Sizeof(Watch[NoKind]{}), unsafe.Sizeof(Node[NoKind]{}); n != 8 || w != 24 || x != 48 {
		t.Errorf("sizes of Name, Watch, Node with NoKind: %d, %d, %d; want 8, 24, 48", n, w, x)
	}
}
