package workload

import (
	"slices"
	"testing"

	"github.com/zklock/zklock/faultinject"
)

// --pin puts client i on server i mod N; --pin-followers narrows that to
// the followers (PinTo), so that no client is on the leader; without --pin
// a client may use every server.
func TestPinnedAddrs(t *testing.T) {
	set, err := faultinject.NewSet([]string{"127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3"})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	all := set.Addrs()
	on := func(cfg Config, i int) []string {
		return NewClient(&Workload{Cfg: cfg}, i, set).addrs()
	}
	for i := range 6 {
		if got := on(Config{}, i); !slices.Equal(got, all) {
			t.Fatalf("unpinned client %d uses %v, want all of %v", i, got, all)
		}
		if got, want := on(Config{Pin: true}, i), all[i%3]; !slices.Equal(got, []string{want}) {
			t.Fatalf("pinned client %d uses %v, want [%s]", i, got, want)
		}
		followers := []int{0, 2} // server 1 leads
		if got, want := on(Config{Pin: true, PinTo: followers}, i), all[followers[i%2]]; !slices.Equal(got, []string{want}) {
			t.Fatalf("client %d pinned to the followers uses %v, want [%s]", i, got, want)
		}
	}
}
