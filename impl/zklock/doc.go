// Package zklock provides distributed locks on ZooKeeper that never grant
// twice, never herd, survive connection loss, say when a lock is lost, and
// hand out fencing tokens.
//
// A Session is one ZooKeeper session. Mutex is an exclusive lock, RWMutex a
// read/write lock; each Lock returns a Lease, which holds until Unlock or
// until it is lost, and carries a fencing Token. Election is a leader
// election on the same queue (Curator LeaderLatch's node names): Campaign
// returns a Leadership, a Lease with Proclaim and Resign; Leader and
// Observe tell anyone who leads. Semaphore is a counting semaphore (Curator
// InterProcessSemaphoreV2's nodes): at most max leases at once, each a
// Lease.
//
//	s, err := zklock.NewSession(ctx, []string{"zk1:2181", "zk2:2181", "zk3:2181"},
//		zklock.WithEnsembleTiming(2*time.Second, 5)) // the servers' tickTime, syncLimit
//	m, err := zklock.NewMutex(s, "/locks/orders")
//	lease, err := m.Lock(ctx)
//	defer lease.Unlock(ctx)
//	select {
//	case <-lease.Done(): // lost: stop touching the resource
//	case ...
//	}
//
// # Protocol
//
// The protocol is the one specified in spec/tla/PredecessorLock.tla and
// spec/tla/SharedLock.tla; trace events (WithTracer) carry the spec's action
// names, package github.com/zklock/zklock/traceevent's Action constants,
// and TraceEvent.Record writes one as a line of the trace files
// model/trace replays in the Go model of the specs. Each acquisition creates an EPHEMERAL_SEQUENTIAL node named the way
// Apache Curator names them, `_c_<uuid>-lock-<seq>` (read/write:
// `_c_<uuid>-__READ__<seq>`, `_c_<uuid>-__WRIT__<seq>`), so Go and Java
// processes can contend on one path. The queue is ordered by sequence
// number. A waiter watches the node it waits for (its predecessor; for a
// reader the last writer ahead), with getData; a Mutex waiter with two or
// more nodes ahead also watches the node two ahead, whose deletion makes it
// list again while its predecessor holds. After a wake-up it lists the queue
// again and checks that its own node is still there, except when the node it
// waits for was alone ahead of it at the last listing: that node's deletion
// is the grant, in one notification. A lost
// create reply is resolved by finding the node by its uuid, owned by our
// session, before creating again. An acquisition that fails or whose
// context ends deletes its node. Missing parents are created as container
// nodes.
//
// # Loss
//
// go-zookeeper keeps no expiry timer and, after an expiry, silently opens a
// new session. A Session tracks exactly one ZooKeeper session and ends for
// good when the server says it expired, or at its loss deadline: the
// negotiated timeout minus the drift margin after the newest request the
// leader is proven to have heard of. From that instant the server may
// expire it and another client may be granted the lock. An acknowledgement
// alone is no proof (a follower cut off from the leader answers for up to
// syncLimit ticks); a sync is, for requests acknowledged at least
// (syncLimit+1) ticks before the sync was sent, so the session sends one
// every quarter of the room its timeout leaves (WithEnsembleTiming gives it
// the servers' timing; spec/tla/SessionTiming.tla is the rule TLC checks).
// Every Lease of the session then ends (Done closes; Err matches
// ErrLockLost and the session's reason), and every grant checks the
// deadline first. Connection loss alone ends nothing: the client
// reconnects within the session and the leases hold.
//
// A busy session keeps its lease: the acknowledgements kept between two
// syncs are bounded (4,096), and when there are more they are thinned to an
// even grid of arrival times, never merged, so a sync proves nearly what
// remembering them all would, at any request rate
// (spec/tla/SessionTimingLoad.tla checks NoSpuriousLoss and ProvesNoMore).
// ZooKeeper answers a session's requests in order, so the heartbeat's sync
// waits behind everything the session sent before it. Each waiter lists the
// whole queue as it joins, so a session keeps at most 8 of these listings in
// flight and the rest wait on the client, where they delay no sync; a
// waiter woken by a watch lists before those still joining. A thousand
// waiters of one session joining a queue thousands long at once keep it
// alive.
// What can still end a healthy session is a reply to the heartbeat's sync
// that comes later than the room allows: behind requests of your own on
// Conn(), or on a machine too loaded to answer in time.
//
// A process paused for longer than the session timeout cannot notice that
// its lease ended before it touches the resource again. No lock can prevent
// that; fencing can. Pass Lease.Token to the resource and let it refuse
// tokens lower than the highest it has seen, or write to ZooKeeper through
// Lease.Guard, which applies the writes only if the lock node still exists.
//
// # Strangers in the lock path
//
// A child named like a contender is one, whoever made it, as in Curator:
// a lock marker followed by the server's ten sequence digits, the marker
// Curator's ("lock-" exclusive, "__READ__" read, "__WRIT__" write) or
// kazoo's, the Python client's ("__lock__" of Lock and WriteLock,
// exclusive; "__rlock__" of ReadLock, read). All of them form one queue
// ordered by the ten digits, with one rule: a reader waits for the last
// non-reader ahead of it, anyone else for every node ahead of it, which
// is kazoo's rule too. So Go, Java and Python processes can share a lock,
// provided kazoo is told to count Curator's names (extra_lock_patterns:
// "-lock-", "-__READ__" and "-__WRIT__" for Lock and WriteLock, "-lock-"
// and "-__WRIT__" for ReadLock). Any other child is ignored: neither
// waited for nor deleted. A name can only add a contender we wait for,
// never remove one, so no child makes us grant beside a holder. ZooKeeper
// numbers a sequential child by its parent's child-change counter, which
// only grows, so a node created with the sequence flag after ours (any
// zklock, Curator or kazoo client's) sorts after ours. Only a node named by hand,
// without the flag, can sort ahead of a node created before it (say
// lock-0000000000). Such a node is waited for like a holder if a listing of
// ours sees it: the first one after our create, or any later one. A waiter
// whose last listing showed one node ahead takes that node's deletion as
// its grant without listing again (the hand-off in one notification), so a
// hand-named node created after that listing is overtaken, and a lease
// already granted is not affected by one created later. Keep strangers out
// with ACLs (WithACL); only fencing protects a resource from a client with
// write access to the lock path.
//
// # Races on one Lease
//
// Unlock, Downgrade and Guard may be called concurrently on one Lease. The
// Lease is one state machine (holding, downgrading, releasing, ended), and
// every path ends with its lock node deleted or handed over to the read
// node of a Downgrade, never left behind; see Lease for what each call
// returns when they race.
//
// # Connecting
//
// NewSession takes "host:port" addresses or comma-separated connect
// strings, with a chroot suffix as ZooKeeper defines it ("h1:2181,h2:2181/app"):
// every path is sent under the chroot and reported relative to it. A
// misplaced chroot is ErrChroot; no server granting a session within a
// bound is ErrNoServer.
//
// # Who holds a lock
//
// Every lock node carries this process's Identity (host, process id, start
// time) as a small JSON object, unless WithData gives other data;
// ParseIdentity reads it back, and the node's ephemeralOwner names the
// session. Curator does not read the data of lock nodes.
//
// # Metrics
//
// WithObserver has a session report its acquisitions, the ends of its
// leases and its own events to plain functions (Observer); package
// otelzklock records them as OpenTelemetry metrics.
//
// # Errors
//
// Every error matches one of the Err* values with errors.Is. Bad input (an
// invalid path, data over MaxNodeData, a nil session or context, a closed
// session, a second Unlock, a misplaced chroot) returns a typed error and leaves
// nothing on the server. A server's NoAuth reply is ErrNoAuth, which
// matches zk.ErrNoAuth too.
//
// Nothing this package receives from outside the program (the servers'
// replies, other clients' node names, paths and data given by users) can
// make it panic. A nil *Session, *Mutex, *RWMutex, *Lease or *MultiLease is
// a programming error: every call that takes a context, and Lease.Check,
// returns ErrInvalidArgument for it, so that the nil result of a failed
// constructor fails cleanly where it is used; Path returns ""; the other
// accessors (Done, Err, Token, Node, Mode, ID, ...) panic, as methods on a
// nil pointer do in the standard library.
package zklock
