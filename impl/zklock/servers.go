package zklock

import (
	"fmt"
	"strings"
	"time"
)

// connectServers reads the servers given to NewSession: a list of
// "host:port" addresses, a single comma-separated connect string, or a mix.
// A chroot suffix, which ZooKeeper defines as one "/path" after the last
// address of the connect string (Java clients write
// "h1:2181,h2:2181/app"), is refused with ErrChroot wherever it appears:
// go-zookeeper v1.0.4 would dial "h2:2181/app" as a host name and ignore the
// chroot, so locks would be taken outside it.
func connectServers(servers []string) ([]string, error) {
	var out []string
	for _, s := range servers {
		for _, a := range strings.Split(s, ",") {
			a = strings.TrimSpace(a)
			if a == "" {
				continue
			}
			if i := strings.IndexByte(a, '/'); i >= 0 {
				return nil, fmt.Errorf("%w: %q carries %q", ErrChroot, a, a[i:])
			}
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: no servers", ErrInvalidArgument)
	}
	return out, nil
}

// connectBound is how long NewSession waits for a first session at most,
// whatever its context allows: go-zookeeper retries dialing forever.
func connectBound(cfg sessionConfig) time.Duration {
	return max(cfg.timeout, DefaultSessionTimeout)
}
