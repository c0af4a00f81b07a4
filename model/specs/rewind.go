package specs

import (
	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model/rewind"
)

func rewindInvariants(sp *rewind.Spec) map[string]func(*rewind.State) bool {
	return map[string]func(*rewind.State) bool{
		"TypeOK": sp.TypeOK, "NodeExclusion": sp.NodeExclusion, "BeliefExclusion": sp.BeliefExclusion,
		"TokensGrowOrSaid": sp.TokensGrowOrSaid, "TokensIncrease": sp.TokensIncrease,
	}
}

// loadRewind builds the model of a config of Rewind (model/rewind).
func loadRewind(module string, m tlccfg.Model) (Instance, error) {
	r := newConstReader(m)
	noOne, _ := r.get("NoOne")
	sp, err := build(r, rewind.Constants{
		Clients: r.modelValues("Clients"), NoOne: noOne,
		Rule: rewind.Rule(r.str("Rule")), TokenRule: rewind.TokenRule(r.str("TokenRule")),
		MaxZxid: r.nat("MaxZxid"), MaxRewind: r.nat("MaxRewinds"),
	}, rewind.New)
	if err != nil {
		return nil, err
	}
	return loadTiming[rewind.State](module, m, sp, rewindInvariants(sp))
}
