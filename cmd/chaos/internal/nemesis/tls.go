package nemesis

import (
	"context"
	"crypto/tls"
	"fmt"
	"time"

	"github.com/zklock/zklock/ensemble"
)

// StartLocalTLS is StartLocal for an ensemble that serves clients over TLS
// only (ensemble.Config.TLS); ClientTLS gives the clients' configuration.
func StartLocalTLS(ctx context.Context, syncLimit int) (Cluster, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	e, err := ensemble.Start(ctx, ensemble.Config{SyncLimit: syncLimit, TLS: true})
	if err != nil {
		return nil, fmt.Errorf("starting a local TLS ensemble: %w", err)
	}
	return &localCluster{e: e, owned: true}, nil
}

// ClientTLS is the client TLS configuration of a local ensemble that
// serves TLS, nil for any other cluster.
func ClientTLS(c Cluster) *tls.Config {
	if l, ok := c.(*localCluster); ok {
		return l.e.ClientTLS()
	}
	return nil
}
