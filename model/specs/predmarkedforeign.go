package specs

import (
	"fmt"
	"slices"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/predmarked"
	"github.com/zklock/zklock/model/predmarkedforeign"
)

// loadPredMarkedForeign builds the instance of a
// PredecessorLockMarkedForeign config (MFSpec): PredecessorLockMarked's
// constants with OwnWatch and Stranger, its invariants and
// PredecessorLockForeign's, and PredecessorLock's action properties.
func loadPredMarkedForeign(module string, m tlccfg.Model) (Instance, error) {
	if m.Specification != "MFSpec" {
		return nil, fmt.Errorf("specs: %s has no specification %s", module, m.Specification)
	}
	var plain []string
	var rule, stranger string
	var forgery, ownWatch bool
	k, err := predLockConstants(newConstReader(m), func(r *constReader) {
		plain = r.modelValues("Plain")
		rule = r.str("MarkRule")
		forgery = r.bool("WithForgery")
		ownWatch = r.bool("OwnWatch")
		stranger, _ = r.get("Stranger")
	})
	if err != nil {
		return nil, err
	}
	mk := predmarkedforeign.Constants{Constants: predmarked.Constants{Constants: k, WithForgery: forgery},
		OwnWatch: ownWatch, Stranger: stranger}
	if mk.MarkRule, err = predmarked.ParseMarkRule(rule); err != nil {
		return nil, err
	}
	for _, p := range plain {
		i := slices.Index(k.Clients, p)
		if i < 0 {
			return nil, fmt.Errorf("specs: Plain client %s is not in Clients", p)
		}
		mk.Plain = append(mk.Plain, i)
	}
	sp, err := predmarkedforeign.New(mk)
	if err != nil {
		return nil, err
	}
	es := view[predmarked.State](module, sp, sp.ActionName)
	if es.Invariants, err = invariantsNamed(module, sp.Invariants(), m.Invariants); err != nil {
		return nil, err
	}
	acts := sp.ActionProperties()
	for _, name := range m.Properties {
		f, ok := acts[name]
		if !ok {
			return nil, fmt.Errorf("specs: %s has no property %s", module, name)
		}
		es.Actions = append(es.Actions, explore.ActionProperty[predmarked.State]{Name: name, Holds: f})
	}
	return newInstance(module, m.Specification, m, es, nil, sp.Format)
}
