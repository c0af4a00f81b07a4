package ensemble

import (
	"fmt"
	"net"
)

// serverPorts are one server's ports on 127.0.0.1. Quorum and election are
// zero for a standalone server.
type serverPorts struct {
	client, quorum, election int
}

// reservedPorts are the ZooKeeper defaults and the admin server's: a test
// server on one of them could be mistaken for (or collide with) a real one.
var reservedPorts = map[int]bool{2181: true, 2888: true, 3888: true, 8080: true}

// allocatePorts finds n distinct free ports by binding 127.0.0.1:0 n times,
// holding every listener until all are chosen so that no port is picked
// twice. The ports are released before the servers bind them, so another
// process may take one in between: Start retries with fresh ports when a
// server reports a bind failure. A variable so that tests can inject a
// port that is taken.
var allocatePorts = func(n int) ([]int, error) {
	var held []net.Listener
	defer func() {
		for _, l := range held {
			l.Close()
		}
	}()
	ports := make([]int, 0, n)
	for len(ports) < n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("ensemble: allocate port: %w", err)
		}
		held = append(held, l)
		p := l.Addr().(*net.TCPAddr).Port
		if reservedPorts[p] {
			continue
		}
		ports = append(ports, p)
	}
	return ports, nil
}
