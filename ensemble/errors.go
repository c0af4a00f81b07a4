package ensemble

import (
	"errors"
	"fmt"
)

// Errors returned by this package, wrapped with context; compare with errors.Is.
var (
	// ErrNotInstalled: java or the ZooKeeper jars are missing (apt-get install zookeeper).
	ErrNotInstalled = errors.New("ensemble: java or ZooKeeper jars not found")
	// ErrBadConfig: a Config field is out of range.
	ErrBadConfig = errors.New("ensemble: invalid config")
	// ErrBadIndex: a server index outside [0, N).
	ErrBadIndex = errors.New("ensemble: server index out of range")
	// ErrStopped: the ensemble has been stopped.
	ErrStopped = errors.New("ensemble: stopped")
	// ErrNotRunning: the server has been killed (or never started).
	ErrNotRunning = errors.New("ensemble: server not running")
	// ErrExited: a server process exited without being killed by this package.
	ErrExited = errors.New("ensemble: server process exited")
	// ErrPortInUse: a server could not bind one of its ports.
	ErrPortInUse = errors.New("ensemble: port already in use")
	// ErrNoLeader: no server, or more than one, reports Mode: leader.
	ErrNoLeader = errors.New("ensemble: no single leader")
	// ErrNotServing: the server answered a four-letter word with
	// "This ZooKeeper instance is not currently serving requests".
	ErrNotServing = errors.New("ensemble: server not serving requests")
	// ErrNoLinks: the ensemble's server-to-server links cannot be cut: it
	// has a single server, or it is detached (its link proxies could not
	// outlive the process that started it).
	ErrNoLinks = errors.New("ensemble: no server-to-server links to cut")
	// ErrBadCommand: a four-letter word that is not four letters.
	ErrBadCommand = errors.New("ensemble: four-letter word must have four letters")
	// ErrMalformed: a four-letter-word reply this package cannot parse.
	ErrMalformed = errors.New("ensemble: malformed four-letter-word reply")
)

// ServerError is an error about one server. It names the server's log file
// because that is where the explanation is.
type ServerError struct {
	Server int    // index in [0, N)
	Op     string // what was being done: "start", "kill", "pause", ...
	Log    string // path of the server's log file
	Err    error  // what went wrong
}

// Error names the server, the operation and the log file.
func (e *ServerError) Error() string {
	return fmt.Sprintf("ensemble: server %d: %s: %v (log: %s)", e.Server, e.Op, e.Err, e.Log)
}

// Unwrap returns the underlying error.
func (e *ServerError) Unwrap() error { return e.Err }
