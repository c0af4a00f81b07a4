// Package faultinject puts a TCP proxy in front of a ZooKeeper server to
// inject network faults into one client session:
//
//   - Sever: close every connection (the client sees connection loss and
//     reconnects, keeping its session);
//   - Blackhole: relay nothing, either way, for a while, with connections
//     left open (long enough and the server expires the session);
//   - Delay: add latency to every frame;
//   - CutAfterRequest: let the next request with a given opcode reach the
//     server, then sever the connection before its reply reaches the client
//     (the create-succeeded-but-reply-lost case).
//
// The proxy speaks just enough of ZooKeeper's wire protocol to find frames
// (4-byte big-endian length prefix), request opcodes and reply xids; it
// never changes a byte it relays. Give each client session its own Set of
// proxies (one per server) so that a fault hits that session only.
//
// A stream the proxy cannot read, such as TLS, is relayed as it comes with
// WithOpaqueStream: Sever, Blackhole and Delay work on it, CutAfterRequest
// cannot (its Cut ends with ErrOpaque).
package faultinject
