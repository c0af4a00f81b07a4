// Package zkwire is ZooKeeper's client-server wire format, as far as zklock
// reads it: request opcodes, the special xids, length-prefixed frames, and
// the headers at the start of each frame (a request's xid and opcode, a
// reply's xid, zxid and error code, the connect reply's timeout and session
// id). It is written once here for its two readers: faultinject, the proxy
// that reads whole frames to relay them (ReadFrame), and impl/zklock, which
// scans the bytes go-zookeeper sends and receives for headers only
// (Scanner), keeping a few bytes of each frame however large it is.
//
// The package imports only the standard library and nothing else of this
// module. impl/zklock's rule is that it imports only go-zookeeper; a
// module-internal leaf like this one (as traceevent) adds no dependency a
// user of impl/zklock would see, so importing it keeps to the rule.
package zkwire
