package workload

import (
	"context"
	"crypto/tls"
	"net"
	"time"

	"github.com/go-zookeeper/zk"
)

// ConnectTLS is Connect over TLS, verified with cfg.
func ConnectTLS(ctx context.Context, addrs []string, timeout time.Duration, cfg *tls.Config) (*zk.Conn, error) {
	dial := func(network, addr string, timeout time.Duration) (net.Conn, error) {
		d := tls.Dialer{NetDialer: &net.Dialer{Timeout: timeout}, Config: cfg}
		dctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		return d.DialContext(dctx, network, addr)
	}
	return connect(ctx, addrs, timeout, dial)
}
