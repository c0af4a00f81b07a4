package ensembletest

import (
	"reflect"
	"testing"
)

func TestSplitServers(t *testing.T) {
	got := splitServers(" 127.0.0.1:1, 127.0.0.1:2,,")
	if want := []string{"127.0.0.1:1", "127.0.0.1:2"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("splitServers = %q, want %q", got, want)
	}
}
