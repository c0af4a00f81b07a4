// Package ensemble runs a real ZooKeeper ensemble on loopback for tests and
// chaos campaigns: N servers (default 3) as child JVM processes started from
// Debian's `zookeeper` package, each with its own temporary data directory,
// configuration and log file, on free ports of 127.0.0.1.
//
// Two server versions: Debian's 3.8 package (the default) and Apache
// ZooKeeper 3.9.4, whose jars Maven fetches from Maven Central on first use
// and which are checked against the sha256 sums in zk39/checksums.sha256
// every time. Config.Version, or ZKLOCK_ZK=3.8|3.9 in the environment,
// picks one, for the tests (ensembletest), the chaos campaigns and the
// benchmarks alike.
//
// Faults are injected at the process level: Kill (SIGKILL), Pause and Resume
// (SIGSTOP and SIGCONT) and Restart (same ports, same data directory, so the
// server rejoins with its state), and between servers: in a multi-server
// ensemble that is not detached, each server reaches its peers through
// proxies of this process, so CutLink, Partition, Isolate and HealAll can cut
// and heal the network between any two servers (see Partition). Faults
// between clients and servers live in package faultinject.
//
// Servers started by a non-detached Ensemble die with the Go process that
// started them, even if it is killed, so a crashed test binary leaves no JVM
// behind. A detached Ensemble (see cmd/zkensemble) outlives its starter and is
// stopped later through its State.
//
// Config.TLS serves clients over TLS only, through ZooKeeper's Netty
// connection factory, with a CA and a server certificate for 127.0.0.1 and
// localhost made at Start (Ensemble.ClientTLS trusts them); four-letter
// words then go over TLS too (FourLetterWordTLS).
//
// Servers are numbered by index i in [0, N); server i has myid i+1 and is the
// i-th entry of Addrs.
package ensemble
