package zklock

import (
	"fmt"
	"strings"
	"time"
)

// connectServers reads the servers given to NewSession: a list of
// "host:port" addresses, a single comma-separated connect string, or a mix,
// with at most one chroot suffix, as ZooKeeper defines it: "/path" after
// the last address of the whole string (Java clients write
// "h1:2181,h2:2181/app"; as a list, the last element carries it). A chroot
// anywhere else, or one that is not a valid absolute path, is ErrChroot:
// go-zookeeper v1.0.4 would dial "h1:2181/app" as a host name and ignore
// the chroot, so locks would be taken outside it. A chroot of "/" is none.
func connectServers(servers []string) (addrs []string, chroot string, err error) {
	var parts []string
	for _, s := range servers {
		for _, a := range strings.Split(s, ",") {
			if a = strings.TrimSpace(a); a != "" {
				parts = append(parts, a)
			}
		}
	}
	if len(parts) == 0 {
		return nil, "", fmt.Errorf("%w: no servers", ErrInvalidArgument)
	}
	last := len(parts) - 1
	if i := strings.IndexByte(parts[last], '/'); i >= 0 {
		parts[last], chroot = parts[last][:i], parts[last][i:]
		if chroot == "/" {
			chroot = ""
		} else if err := validateLockPath(chroot); err != nil {
			return nil, "", fmt.Errorf("%w: %w", ErrChroot, err)
		}
	}
	for _, a := range parts {
		if a == "" || strings.Contains(a, "/") {
			return nil, "", fmt.Errorf("%w: %q: a chroot goes once, after the last address", ErrChroot, a)
		}
	}
	return parts, chroot, nil
}

// connectBound is how long NewSession waits for a first session at most,
// whatever its context allows: go-zookeeper retries dialing forever.
func connectBound(cfg sessionConfig) time.Duration {
	return max(cfg.timeout, minConnectBound)
}

// minConnectBound is the shortest wait for a first session.
const minConnectBound = 10 * time.Second

// boundPassed is the error of a NewSession that waited its whole bound:
// tests tell it from one that gave up early for a reason (see ErrTLS).
type boundPassed time.Duration

func errBoundPassed(d time.Duration) error { return boundPassed(d) }

func (b boundPassed) Error() string { return fmt.Sprintf("within %v", time.Duration(b)) }
