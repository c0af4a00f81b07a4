package workload

import (
	"context"
	"crypto/tls"
	"fmt"
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
	conn, events, err := zk.Connect(addrs, timeout, zk.WithLogger(nopLogger{}), zk.WithLogInfo(false), zk.WithDialer(dial))
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		select {
		case ev := <-events:
			if ev.State == zk.StateHasSession {
				return conn, nil
			}
		case <-ctx.Done():
			conn.Close()
			return nil, fmt.Errorf("no session from %v over TLS: %w", addrs, ctx.Err())
		}
	}
}
