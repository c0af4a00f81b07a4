package specs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model/explore"
)

// BenchmarkExplore explores a PredecessorLock and a SharedLock config with
// one worker (the explorer's whole hot path: Next, the actions, encoding
// and the invariants). Compare runs with benchstat; no test depends on
// the time.
func BenchmarkExplore(b *testing.B) {
	for _, name := range []string{"PredecessorLock.PauseFenced", "SharedLock.PauseSafety"} {
		b.Run(name, func(b *testing.B) {
			data, err := os.ReadFile(filepath.Join(specDir, name+".cfg"))
			if err != nil {
				b.Fatal(err)
			}
			m, err := tlccfg.Parse(data)
			if err != nil {
				b.Fatal(err)
			}
			module := name[:len(name)-len(filepath.Ext(name))]
			in, err := Load(module, m)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				if _, err := in.Check(explore.Options{Workers: 1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
