package campaign

import (
	"context"
	"crypto/tls"
	"errors"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/cmd/chaos/internal/nemesis"
	"github.com/zklock/zklock/cmd/chaos/internal/workload"
	"github.com/zklock/zklock/faultinject"
	"github.com/zklock/zklock/impl/zklock"
)

// A campaign over TLS (--tls) runs on a local ensemble that serves clients
// over TLS only. The clients' proxies relay the TLS stream without reading
// it (faultinject.WithOpaqueStream): faults on the connection (sever,
// blackhole, latency, a frozen client's silence) work as without TLS, a
// cut-create, which must find a create and its reply, cannot, and the
// command line refuses it.

// errNoTLS: --tls on a cluster that does not serve TLS.
var errNoTLS = errors.New("--tls needs the local TLS ensemble (not --servers)")

// clientTLS is the client configuration of a TLS campaign, nil without TLS.
func (c *Campaign) clientTLS() (*tls.Config, error) {
	if !c.Cfg.TLS {
		return nil, nil
	}
	cfg := nemesis.ClientTLS(c.Clu)
	if cfg == nil {
		return nil, errNoTLS
	}
	return cfg, nil
}

// tlsOptions adds WithTLS to a session's options when the campaign has TLS.
func tlsOptions(cfg *tls.Config, opts ...zklock.SessionOption) []zklock.SessionOption {
	if cfg != nil {
		opts = append(opts, zklock.WithTLS(cfg))
	}
	return opts
}

// connectObserver opens the observer's plain go-zookeeper connection.
func connectObserver(ctx context.Context, addrs []string, timeout time.Duration, cfg *tls.Config) (*zk.Conn, error) {
	if cfg != nil {
		return workload.ConnectTLS(ctx, addrs, timeout, cfg)
	}
	return workload.Connect(ctx, addrs, timeout)
}

// proxyOptions are the options of every client's proxies.
func proxyOptions(cfg *tls.Config) []faultinject.Option {
	if cfg != nil {
		return []faultinject.Option{faultinject.WithOpaqueStream()}
	}
	return nil
}
