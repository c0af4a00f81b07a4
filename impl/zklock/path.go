package zklock

import (
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// validateLockPath applies ZooKeeper's path rules (PathUtils.validatePath)
// plus this package's: the lock path must be absolute, not the root, and not
// under /zookeeper, which the server reserves.
func validateLockPath(p string) error {
	bad := func(why string) error { return fmt.Errorf("%w: %q: %s", ErrInvalidPath, p, why) }
	switch {
	case p == "":
		return bad("empty")
	case p[0] != '/':
		return bad("not absolute")
	case p == "/":
		return bad("the root cannot be a lock")
	case strings.HasSuffix(p, "/"):
		return bad("trailing slash")
	case p == "/zookeeper" || strings.HasPrefix(p, "/zookeeper/"):
		return bad("reserved by ZooKeeper")
	}
	for _, seg := range strings.Split(p[1:], "/") {
		switch seg {
		case "":
			return bad("empty segment (//)")
		case ".", "..":
			return bad("relative segment " + seg)
		}
	}
	for _, r := range p {
		if r == 0 || (r > 0 && r < 0x20) || (r >= 0x7f && r <= 0x9f) ||
			(r >= 0xd800 && r <= 0xf8ff) || (r >= 0xfff0 && r <= 0xffff) {
			return bad(fmt.Sprintf("character %U not allowed", r))
		}
	}
	return nil
}

// Node-name parts, as Apache Curator writes them, so that Go and Java
// processes contend on one lock path.
const (
	protectedPrefix = "_c_"
	mutexMarker     = "-lock-"
	latchMarker     = "-latch-" // Curator's LeaderLatch: a candidate of an election
	readMarker      = "-__READ__"
	writeMarker     = "-__WRIT__"
	seqDigits       = 10
	uuidLen         = 36
)

// Node-name parts as kazoo (the Python client, kazoo.recipe.lock) writes
// them: "<32 hex digits>__lock__<seq>" for Lock and WriteLock, which wait
// for every contender ahead of them, and "<32 hex digits>__rlock__<seq>"
// for ReadLock, which waits only for the "__lock__" nodes ahead of it. That
// is zklock's own rule for an exclusive node and a read node, so a kazoo
// node counts as one of those, in the one queue ordered by the server's
// sequence suffix. kazoo never downgrades a node in place, so "__lock__"
// is exclusive rather than write (see handOff).
const (
	kazooLockMarker = "__lock__"
	kazooReadMarker = "__rlock__"
)

// newUUID returns a random (version 4) UUID, the identity of one acquisition:
// after a lost create reply it finds the node the server may have made.
func newUUID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("zklock: uuid: %w", err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	// Encoded by hand, not with fmt: one allocation per acquisition, not six.
	var u [uuidLen]byte
	hex.Encode(u[0:8], b[0:4])
	u[8] = '-'
	hex.Encode(u[9:13], b[4:6])
	u[13] = '-'
	hex.Encode(u[14:18], b[6:8])
	u[18] = '-'
	hex.Encode(u[19:23], b[8:10])
	u[23] = '-'
	hex.Encode(u[24:36], b[10:16])
	return string(u[:]), nil
}

// child is one lock node as seen in a listing.
type child struct {
	name string
	seq  int64
	kind Mode
	uuid string // empty for nodes not made in protected mode
}

// parseChild reads a child name of a lock path. A contender's name ends
// in a marker followed by exactly the server's ten sequence digits:
// Curator's "lock-" (exclusive), "__READ__" (read) and "__WRIT__" (write),
// or kazoo's "__lock__" (exclusive) and "__rlock__" (read), whoever made
// the node and whatever comes before the marker. Any other child, such as
// a nested lock path whose name happens to end in digits
// ("job-0000000001"), is not a contender and ok is false: it is ignored,
// neither waited for nor deleted. A name can only ever add a contender
// that we wait for, never remove one, so no name makes us grant beside a
// holder.
func parseChild(name string) (c child, ok bool) { return parseNode(name, lockNodes) }

// nodeSet is which names count as contenders on a path: each kind of path
// takes the other kinds' nodes for strangers, so a Mutex, an Election and
// a Semaphore on one path never count each other's nodes.
type nodeSet int

const (
	lockNodes  nodeSet = iota // a lock path: parseChild's names
	latchNodes                // an election path: "latch-" nodes only
	// leaseNodes: a semaphore's leases path: "lease-" and the sequence
	// digits, after the protected prefix _c_<uuid>- when Curator's
	// protection (or ours) made the node.
	leaseNodes
)

// nodes is the set of contenders of l's kind of path.
func (l *lockCore) nodes() nodeSet {
	switch {
	case l.sem != "":
		return leaseNodes
	case l.latch:
		return latchNodes
	}
	return lockNodes
}

// parseNode reads a child name of a path whose contenders are set.
func parseNode(name string, set nodeSet) (c child, ok bool) {
	if len(name) < seqDigits {
		return c, false
	}
	head, digits := name[:len(name)-seqDigits], name[len(name)-seqDigits:]
	for _, r := range digits {
		if r < '0' || r > '9' {
			return c, false
		}
	}
	seq, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return c, false
	}
	c = child{name: name, seq: seq}
	switch latch := set == latchNodes; {
	case set == leaseNodes && (head == leaseMarker[1:] || strings.HasSuffix(head, leaseMarker)):
		c.kind = ModeExclusive // a lease holds beside the others: no queue
	case set == leaseNodes, latch != strings.HasSuffix(head, latchMarker[1:]):
		return child{}, false
	case latch:
		c.kind = ModeExclusive // one leader at a time: the mutex's queue
	case strings.HasSuffix(head, mutexMarker[1:]):
		c.kind = ModeExclusive
	case strings.HasSuffix(head, readMarker[1:]):
		c.kind = ModeRead
	case strings.HasSuffix(head, writeMarker[1:]):
		c.kind = ModeWrite
	case strings.HasSuffix(head, kazooReadMarker):
		c.kind = ModeRead
	case strings.HasSuffix(head, kazooLockMarker):
		c.kind = ModeExclusive
	default:
		return child{}, false
	}
	if strings.HasPrefix(name, protectedPrefix) && len(name) > len(protectedPrefix)+uuidLen &&
		name[len(protectedPrefix)+uuidLen] == '-' {
		c.uuid = name[len(protectedPrefix) : len(protectedPrefix)+uuidLen]
	}
	return c, true
}

// queue parses and orders a listing of a lock path by sequence number, the
// only order that counts: node names differ in their uuid prefix.
func queue(names []string) []child { return queueIn(names, lockNodes) }

// queueOf is queue for a lock path or, latch true, an election path.
func queueOf(names []string, latch bool) []child {
	if latch {
		return queueIn(names, latchNodes)
	}
	return queueIn(names, lockNodes)
}

// leaseQueue parses the lease nodes of a listing, oldest first; any other
// child is a stranger, left out (it still counts toward max: take).
func leaseQueue(names []string) []child { return queueIn(names, leaseNodes) }

// queueIn is queue for a path whose contenders are set.
func queueIn(names []string, set nodeSet) []child {
	q := make([]child, 0, len(names))
	for _, n := range names {
		if c, ok := parseNode(n, set); ok {
			q = append(q, c)
		}
	}
	// slices.SortFunc, not sort.Slice: no reflection, no allocation.
	slices.SortFunc(q, func(a, b child) int {
		return cmp.Or(cmp.Compare(a.seq, b.seq), strings.Compare(a.name, b.name))
	})
	return q
}

// seqName formats a sequence number the way the server does for sequential
// nodes, so a node made by name keeps its place in the queue (Downgrade).
func seqName(seq int64) string {
	return fmt.Sprintf("%0*d", seqDigits, seq)
}

func joinPath(parent, name string) string { return parent + "/" + name }
