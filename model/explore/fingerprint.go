package explore

import (
	"hash/maphash"
	"sync"
)

// FP is a state's fingerprint: a 128-bit hash of its canonical encoding.
type FP [2]uint64

// hasher computes fingerprints with two independent seeds.
type hasher struct{ a, b maphash.Seed }

func newHasher() hasher { return hasher{maphash.MakeSeed(), maphash.MakeSeed()} }

func (h hasher) fp(enc []byte) FP { return FP{maphash.Bytes(h.a, enc), maphash.Bytes(h.b, enc)} }

// fpSet is a set of fingerprints sharded by hash, safe for concurrent use.
type fpSet struct {
	shards [fpShards]fpShard
}

const fpShards = 64

type fpShard struct {
	mu sync.Mutex
	m  map[FP]struct{}
	_  [40]byte // keep shards on separate cache lines
}

func newFPSet() *fpSet {
	s := &fpSet{}
	for i := range s.shards {
		s.shards[i].m = make(map[FP]struct{})
	}
	return s
}

// add inserts fp and reports whether it was new.
func (s *fpSet) add(fp FP) bool {
	sh := &s.shards[fp[0]%fpShards]
	sh.mu.Lock()
	_, seen := sh.m[fp]
	if !seen {
		sh.m[fp] = struct{}{}
	}
	sh.mu.Unlock()
	return !seen
}
