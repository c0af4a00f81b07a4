package zklock

import (
	"errors"
	"fmt"

	"github.com/go-zookeeper/zk"
)

// Errors returned by this package. Match them with errors.Is: most are
// wrapped with the path or node they concern, and a lease lost with its
// session wraps both ErrLockLost and the session's reason.
var (
	// ErrSessionLost: the session can no longer be trusted. Either the server
	// expired it, or its loss deadline passed: no sync proved recently enough
	// that the leader still heard from it, so the server may have expired it
	// (see Session). Every lease of the session has ended.
	ErrSessionLost = errors.New("zklock: session lost")
	// ErrSessionExpired: the server said the session expired. It is an
	// ErrSessionLost too.
	ErrSessionExpired = fmt.Errorf("%w: expired by the server", ErrSessionLost)
	// ErrClosed: the session was closed by its owner.
	ErrClosed = errors.New("zklock: session closed")

	// ErrLocked: TryLock found the lock held or queued for by someone else.
	ErrLocked = errors.New("zklock: locked by another contender")
	// ErrLockLost: a lease ended without Unlock (its session was lost, or its
	// lock node disappeared). Whatever it protected may now be held by
	// someone else.
	ErrLockLost = errors.New("zklock: lock lost")
	// ErrNoLeader: Election.Leader found no candidate on the election path.
	ErrNoLeader = errors.New("zklock: no leader")
	// ErrReleased is a released lease's Err.
	ErrReleased = errors.New("zklock: lease released")
	// ErrNotHeld: Unlock, Guard or Downgrade on a lease that already ended.
	ErrNotHeld = errors.New("zklock: lease not held")

	// ErrWouldDeadlock: a write lock asked for by a session that holds a read
	// lease on the same path; the write would wait for a reader that waits
	// for it. Unlock the read lease first.
	ErrWouldDeadlock = errors.New("zklock: would deadlock")
	// ErrNotWriteLease: Downgrade of a lease that is not a write lease.
	ErrNotWriteLease = errors.New("zklock: not a write lease")

	// ErrInvalidPath: a lock path ZooKeeper would reject, or one this package
	// refuses (relative, trailing slash, under /zookeeper, the root).
	ErrInvalidPath = errors.New("zklock: invalid lock path")
	// ErrDataTooLarge: lock-node data over MaxNodeData bytes.
	ErrDataTooLarge = errors.New("zklock: lock node data too large")
	// ErrInvalidArgument: a nil session, context or option value, no server
	// address, or a drift margin not below the session timeout.
	ErrInvalidArgument = errors.New("zklock: invalid argument")
	// ErrChroot: a chroot in the connect string that is not one valid
	// absolute path after the last address ("h1:2181/app,h2:2181", or
	// "h1:2181,h2:2181/app/"). It is an ErrInvalidArgument too.
	ErrChroot = fmt.Errorf("%w: chroot in the connect string", ErrInvalidArgument)
	// ErrNoServer: NewSession got no session from any server within its
	// bound (see NewSession): nothing listens there, or nothing answers.
	ErrNoServer = errors.New("zklock: no server granted a session")
	// ErrTLS: NewSession could not speak to any server in its protocol:
	// a certificate that does not verify (the x509 cause is wrapped too),
	// a server that does not speak TLS to a session made WithTLS, or one
	// that speaks only TLS to a session made without. NewSession returns it
	// wrapped with ErrNoServer, as soon as every address failed so.
	ErrTLS = errors.New("zklock: TLS")
	// ErrNoAuth: the server refused an operation for lack of permission (the
	// lock path's ACL against the session's credentials). It matches
	// zk.ErrNoAuth too.
	ErrNoAuth = fmt.Errorf("zklock: not authorized: %w", zk.ErrNoAuth)
)

// lockLost wraps a lease-ending cause so that errors.Is finds both
// ErrLockLost and the cause.
func lockLost(cause error) error {
	if cause == nil {
		return ErrLockLost
	}
	return fmt.Errorf("%w: %w", ErrLockLost, cause)
}
