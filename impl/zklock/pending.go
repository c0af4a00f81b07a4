package zklock

// pendingRequests holds one connection's requests not answered yet, so
// that each reply finds the request it answers in constant time, however
// many are outstanding.
//
// A reply answers the first request sent with its xid. go-zookeeper gives
// each request its own xid, and the server answers them in the order they
// were sent, but not every reply keeps that order: an auth reply is sent
// as soon as the server reads the request, ahead of the requests before
// it, and the special xids (pings, auth, setWatches) are shared by every
// request of their kind. So the requests are kept by xid, each xid's in
// the order they were sent, rather than in one queue whose head a reply
// would be expected to match. A reply whose xid matches nothing (a request
// whose header could not be read, a hostile server) finds nothing and
// changes nothing. The requests of a connection go with it: a reconnect
// dials a new trackedConn, whose requests start empty, and a reply there
// never matches a request sent on the old one.
//
// Not safe for concurrent use: trackedConn holds its mu around every call.
type pendingRequests struct {
	byXid map[int32][]pendingRequest // each xid's requests, oldest first
	count int
	sent  uint64 // requests added in the connection's life: the next one's order
}

// add records a request just sent.
func (q *pendingRequests) add(p pendingRequest) {
	if q.byXid == nil {
		q.byXid = make(map[int32][]pendingRequest)
	}
	p.order = q.sent
	q.sent++
	q.byXid[p.xid] = append(q.byXid[p.xid], p)
	q.count++
}

// take removes and returns the oldest request sent with xid; ok is false,
// and nothing changes, when no request with xid is pending.
func (q *pendingRequests) take(xid int32) (req pendingRequest, ok bool) {
	same := q.byXid[xid]
	if len(same) == 0 {
		return pendingRequest{}, false
	}
	req = same[0]
	if len(same) == 1 {
		delete(q.byXid, xid)
	} else {
		// Cleared, so the backing array does not keep its created alive.
		same[0] = pendingRequest{}
		q.byXid[xid] = same[1:]
	}
	q.count--
	return req, true
}

// len is the number of requests pending.
func (q *pendingRequests) len() int { return q.count }
