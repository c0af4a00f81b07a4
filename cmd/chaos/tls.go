package main

import (
	"fmt"
	"slices"

	"github.com/zklock/zklock/cmd/chaos/internal/campaign"
	"github.com/zklock/zklock/cmd/chaos/internal/schedule"
	"github.com/zklock/zklock/cmd/chaos/internal/workload"
)

// opaqueKinds are the faults that must read the client's frames, which TLS
// hides from the proxies: they cannot run with --tls.
var opaqueKinds = []schedule.Kind{schedule.CutCreate}

// withoutOpaqueKinds drops the faults a TLS campaign cannot inject.
func withoutOpaqueKinds(kinds []schedule.Kind) []schedule.Kind {
	return slices.DeleteFunc(slices.Clone(kinds), func(k schedule.Kind) bool { return slices.Contains(opaqueKinds, k) })
}

// validateTLS refuses what --tls cannot do: an external ensemble (whose
// certificates the campaign does not have), go-zookeeper's zk.Lock control
// (its worker dials plaintext), and faults that read frames.
func validateTLS(c *campaign.Config) error {
	if !c.TLS {
		return nil
	}
	switch {
	case len(c.Servers) > 0:
		return fmt.Errorf("--tls runs on the local ensemble only, not --servers")
	case c.Lock == workload.LockZk:
		return fmt.Errorf("--tls with --lock=%s: only zklock speaks TLS here", c.Lock)
	}
	for _, k := range c.Faults {
		if slices.Contains(opaqueKinds, k) {
			return fmt.Errorf("--tls cannot inject %s: it reads the frames TLS hides from the proxies (exclude it with --faults)", k)
		}
	}
	return nil
}
