package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/zklock/zklock/impl/zklock"
)

// connectedSessions asks every member of the ensemble for its client
// connections with the four-letter word "cons" and returns the session ids
// connected to any of them. The members are the servers the ensemble's
// configuration names (/zookeeper/config, the client address after each
// server line's ";"), with those of the connect string: a session may be
// attached to a member the connect string leaves out. A member that does
// not answer (stopped, cut off, or not allowing cons: ZooKeeper 3.5 and
// later allow only srvr unless 4lw.commands.whitelist says otherwise)
// leaves unknown only the sessions no other member lists. A session of a
// node that no member lists, when all answered, is disconnected: its
// client may still come back within the session timeout, or the server
// will expire it and delete its nodes.
func connectedSessions(ctx context.Context, s *zklock.Session, connect string) liveness {
	hosts, _, _ := strings.Cut(connect, "/") // the chroot suffix
	var members []string
	for _, addr := range strings.Split(hosts, ",") {
		members = append(members, strings.TrimSpace(addr))
	}
	var whys []string
	conf, _, err := s.Conn().Get("/zookeeper/config")
	if err != nil {
		whys = append(whys, fmt.Sprintf("the ensemble's members not read: %v", err))
	} else {
		named, unnamed := configMembers(string(conf))
		members = append(members, named...)
		if len(unnamed) > 0 {
			whys = append(whys, fmt.Sprintf("no client address configured for %s", strings.Join(unnamed, ", ")))
		}
	}
	slices.Sort(members)
	members = slices.Compact(members)
	l := liveness{ids: map[int64]bool{}}
	for _, addr := range members {
		if err := cons(ctx, addr, l.ids); err != nil {
			whys = append(whys, err.Error())
		}
	}
	l.complete, l.why = len(whys) == 0, strings.Join(whys, "; ")
	return l
}

// configMembers reads the client addresses of the members a dynamic
// configuration names ("server.1=host:2888:3888:participant;0.0.0.0:2181":
// an unspecified client host is the server line's host), and the servers
// whose line names none.
func configMembers(conf string) (addrs, unnamed []string) {
	for _, line := range strings.Split(conf, "\n") {
		key, val, ok := strings.Cut(strings.TrimSpace(line), "=")
		if !ok || !strings.HasPrefix(key, "server.") {
			continue
		}
		quorum, client, ok := strings.Cut(val, ";")
		if !ok || client == "" {
			unnamed = append(unnamed, key)
			continue
		}
		host, port, err := net.SplitHostPort(client)
		if err != nil { // a port alone
			host, port = "", client
		}
		if host == "" || host == "0.0.0.0" || host == "::" {
			host = quorum
			if strings.HasPrefix(host, "[") { // an IPv6 address
				host, _, _ = strings.Cut(host[1:], "]")
			} else {
				host, _, _ = strings.Cut(host, ":")
			}
		}
		addrs = append(addrs, net.JoinHostPort(host, port))
	}
	return addrs, unnamed
}

// sidField is a connection's session id in cons's output: "sid=0x1000..."
var sidField = regexp.MustCompile(`\bsid=0x([0-9a-fA-F]+)`)

func cons(ctx context.Context, addr string, into map[int64]bool) error {
	d := net.Dialer{Timeout: 3 * time.Second}
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("cons on %s: %w", addr, err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Write([]byte("cons")); err != nil {
		return fmt.Errorf("cons on %s: %w", addr, err)
	}
	sc := bufio.NewScanner(c)
	lines := 0
	for sc.Scan() {
		line := sc.Text()
		lines++
		if strings.Contains(line, "not in the whitelist") || strings.Contains(line, "not executed") {
			return fmt.Errorf("cons on %s: not allowed (4lw.commands.whitelist)", addr)
		}
		if m := sidField.FindStringSubmatch(line); m != nil {
			if id, err := strconv.ParseUint(m[1], 16, 64); err == nil {
				into[int64(id)] = true
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("cons on %s: %w", addr, err)
	}
	if lines == 0 {
		return fmt.Errorf("cons on %s: no answer", addr)
	}
	return nil
}
