package faultinject

import "net"

// Reset is Sever with a TCP reset instead of an orderly close: the client's
// end of each open connection is closed with no linger, so the client
// receives RST, not FIN. A client's next write on it then fails at once
// with "connection reset by peer" (or "broken pipe"), as when a server
// process dies or a middlebox drops the connection, where after Sever that
// write would still succeed. It returns the number of connections reset.
func (p *Proxy) Reset() int { return resetAll(p.openLinks()) }

// Reset resets every connection open on any proxy of the set; see
// Proxy.Reset.
func (s *Set) Reset() int {
	var links []*link
	for _, p := range s.proxies {
		links = append(links, p.openLinks()...)
	}
	return resetAll(links)
}

func resetAll(links []*link) int {
	for _, l := range links {
		if tc, ok := l.client.(*net.TCPConn); ok {
			// Linger 0: close discards what is unsent and sends RST.
			tc.SetLinger(0)
		}
	}
	return severAll(links)
}
