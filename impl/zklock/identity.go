package zklock

import (
	"encoding/json"
	"os"
	"sync"
	"time"
)

// Identity says who made a lock node: zklock writes it into every lock node
// unless WithData gives other data, so that an operator listing a lock path
// (zkCli's get, or a tool that reads the nodes as the locks do) sees which
// process holds the lock and which wait. The session that owns a node is
// the node's ephemeralOwner; Identity adds what the server does not know.
//
// In the node it is one JSON object, for example
//
//	{"host":"web-3","pid":4123,"started":"2026-11-27T04:50:12Z"}
//
// Readers must accept unknown fields (later versions may add some).
// Curator never reads the data of lock nodes, so Go and Java processes
// still share a path; Curator's own nodes carry the client's IP address.
type Identity struct {
	Host    string    `json:"host"`    // os.Hostname, "" if it failed
	PID     int       `json:"pid"`     // the process id
	Started time.Time `json:"started"` // when the process started (loaded this package), to the second
}

// ParseIdentity reads the data of a lock node written by default; ok is
// false for any other data (WithData's, Curator's address, nothing).
func ParseIdentity(data []byte) (id Identity, ok bool) {
	if len(data) == 0 || data[0] != '{' {
		return Identity{}, false
	}
	if err := json.Unmarshal(data, &id); err != nil || id.PID <= 0 {
		return Identity{}, false
	}
	return id, true
}

// processStarted is when this package was initialised: the process's
// start, as near as a library can tell without asking the system.
var processStarted = time.Now().UTC().Truncate(time.Second)

// ownIdentity is this process's Identity, encoded once: every lock node
// of the process carries the same bytes.
var ownIdentity = sync.OnceValue(func() []byte {
	host, _ := os.Hostname()
	b, err := json.Marshal(Identity{Host: host, PID: os.Getpid(), Started: processStarted})
	if err != nil { // cannot happen for these types; a node without identity is still a lock node
		return nil
	}
	return b
})
