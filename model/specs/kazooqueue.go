package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model/kazooqueue"
)

func loadKazooQueue(module string, m tlccfg.Model) (Instance, error) {
	specName, err := specNamed(module, m, "Spec")
	if err != nil {
		return nil, err
	}
	r := newConstReader(m)
	sp, err := build(r, kazooqueue.Constants{
		ZReaders:   r.nat("ZReaders"),
		ZWriters:   r.nat("ZWriters"),
		KReaders:   r.nat("KReaders"),
		KWriters:   r.nat("KWriters"),
		CountKazoo: r.bool("CountKazoo"),
	}, kazooqueue.New)
	if err != nil {
		return nil, err
	}
	es := view[kazooqueue.State]("KazooQueue", sp, kazooqueue.ActionName)
	es.Invariants, err = invariantsNamed("KazooQueue", map[string]func(*kazooqueue.State) bool{
		"TypeOK":            sp.TypeOK,
		"MutualExclusion":   sp.MutualExclusion,
		"ReadersNeverShare": sp.ReadersNeverShare,
	}, m.Invariants)
	if err == nil && len(m.Properties) > 0 {
		err = fmt.Errorf("specs: KazooQueue has no property %s", m.Properties[0])
	}
	return newInstance(module, specName, m, es, err, sp.Format)
}
