package specs

import (
	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model/ownwatch"
)

// loadOwnWatch builds the instance of an OwnWatch config: invariants
// only, as the timing modules (the module states no action or temporal
// property).
func loadOwnWatch(module string, m tlccfg.Model) (Instance, error) {
	r := newConstReader(m)
	stranger, _ := r.get("Stranger")
	sp, err := build(r, ownwatch.Constants{
		Clients: r.modelValues("Clients"), MaxRequests: r.nat("MaxRequests"), MaxSeq: r.nat("MaxSeq"),
		MaxForeign: r.nat("MaxForeign"), WatchOwn: r.bool("WatchOwn"), Stranger: stranger,
	}, ownwatch.New)
	if err != nil {
		return nil, err
	}
	return loadTiming[ownwatch.State](module, m, sp, sp.Invariants())
}
