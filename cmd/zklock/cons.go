package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// connectedSessions asks each server for its client connections with the
// four-letter word "cons" and returns the session ids connected to any of
// them, or why it cannot tell: a server that does not allow cons (ZooKeeper
// 3.5 and later allow only srvr unless 4lw.commands.whitelist says
// otherwise), one that does not answer, or a TLS-only ensemble. A session
// of a lock node that no server lists is disconnected: its client may
// still come back within the session timeout, or the server will expire
// it and delete its nodes.
func connectedSessions(ctx context.Context, connect string) (map[int64]bool, error) {
	hosts, _, _ := strings.Cut(connect, "/") // the chroot suffix
	out := map[int64]bool{}
	for _, addr := range strings.Split(hosts, ",") {
		if err := cons(ctx, strings.TrimSpace(addr), out); err != nil {
			return nil, err
		}
	}
	return out, nil
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
