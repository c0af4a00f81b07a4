package ensemble

import (
	"fmt"
	"strconv"
	"strings"
)

// Mode is a server's role as srvr reports it.
type Mode string

// The modes srvr reports.
const (
	ModeLeader     Mode = "leader"
	ModeFollower   Mode = "follower"
	ModeObserver   Mode = "observer"
	ModeStandalone Mode = "standalone"
)

// Stat is the parsed reply to srvr.
type Stat struct {
	// Version is the version field as printed, e.g. "3.8.0-${mvngit.commit.id}":
	// Debian's build leaves the placeholder in, which is why this parser
	// does not insist on a hex commit id (go-zookeeper's does, and fails).
	Version     string
	Mode        Mode  // the server's role
	Zxid        int64 // the last zxid the server has processed
	Received    int64 // packets received
	Sent        int64 // packets sent
	Connections int64 // open client connections, this one included
	Outstanding int64 // requests queued, not yet answered
	NodeCount   int64 // znodes in the server's tree
}

// notServing is ZooKeeper's reply to most four-letter words while it is not
// part of a working quorum.
const notServing = "not currently serving requests"

// ParseSrvr parses the reply to the srvr four-letter word. It returns
// ErrNotServing for a server outside a quorum and ErrMalformed for a reply
// without a Mode line.
func ParseSrvr(out string) (Stat, error) {
	var st Stat
	if strings.Contains(out, notServing) {
		return st, ErrNotServing
	}
	for _, line := range strings.Split(out, "\n") {
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		var err error
		switch strings.TrimSpace(key) {
		case "Zookeeper version":
			v, _, _ := strings.Cut(val, ",")
			st.Version = strings.TrimSpace(v)
		case "Mode":
			st.Mode = Mode(val)
		case "Zxid":
			st.Zxid, err = strconv.ParseInt(val, 0, 64)
		case "Received":
			st.Received, err = strconv.ParseInt(val, 10, 64)
		case "Sent":
			st.Sent, err = strconv.ParseInt(val, 10, 64)
		case "Connections":
			st.Connections, err = strconv.ParseInt(val, 10, 64)
		case "Outstanding":
			st.Outstanding, err = strconv.ParseInt(val, 10, 64)
		case "Node count":
			st.NodeCount, err = strconv.ParseInt(val, 10, 64)
		}
		if err != nil {
			return Stat{}, fmt.Errorf("%w: line %q: %v", ErrMalformed, line, err)
		}
	}
	if st.Mode == "" {
		return Stat{}, fmt.Errorf("%w: no Mode line in %q", ErrMalformed, out)
	}
	return st, nil
}
