package ensemble

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Defaults used when the corresponding Config field is zero.
const (
	DefaultServers  = 3
	DefaultTickTime = 500 * time.Millisecond
	// DefaultSyncLimit is syncLimit in ticks: with DefaultTickTime, a
	// follower cut off from its leader gives up after 2.5 s.
	DefaultSyncLimit = 5
)

// DefaultClassPath returns the class path of Debian's zookeeper package plus
// the slf4j-simple binding: the package ships none, and without one the
// servers would log nothing at all.
func DefaultClassPath() []string {
	return []string{
		"/etc/zookeeper/conf",
		"/usr/share/java/zookeeper.jar",
		"/usr/share/java/slf4j-simple.jar",
	}
}

// DefaultJVMFlags returns JVM flags that keep three servers light on a
// two-core machine: a small serial heap and the C1 compiler only start
// faster and leave cores to the code under test.
func DefaultJVMFlags() []string {
	return []string{
		"-Xmx256m",
		"-XX:+UseSerialGC",
		"-XX:TieredStopAtLevel=1",
		// No hsperfdata file in /tmp: Stop must leave nothing behind.
		"-XX:-UsePerfData",
		"-XX:+ExitOnOutOfMemoryError",
		"-Djava.net.preferIPv4Stack=true",
		"-Dzookeeper.jmx.log4j.disable=true",
		// Timestamps let a failing test's events be matched to server logs.
		"-Dorg.slf4j.simpleLogger.showDateTime=true",
		"-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS",
	}
}

// Config describes an ensemble. The zero value is a valid 3-node ensemble.
type Config struct {
	// Servers is the number of servers; 1 runs a standalone server.
	// Default DefaultServers.
	Servers int
	// TickTime is ZooKeeper's tickTime. Negotiated session timeouts lie in
	// [2, 20] ticks, so the default (500 ms) lets sessions expire in seconds.
	TickTime time.Duration
	// SyncLimit is ZooKeeper's syncLimit, in ticks: how long a follower
	// and its leader go without hearing from each other before they part.
	// Default DefaultSyncLimit.
	SyncLimit int
	// Dir is where the ensemble's root directory is created. Default os.TempDir().
	Dir string
	// Java is the java executable. Default $JAVA_HOME/bin/java, else java on PATH.
	Java string
	// Version is the ZooKeeper server version, Version38 or Version39.
	// Default DefaultVersion() ($ZKLOCK_ZK, else 3.8).
	Version string
	// ClassPath of the servers. Default ClassPathFor(Version): set, it
	// overrides Version.
	ClassPath []string
	// JVMFlags for the servers. Default DefaultJVMFlags().
	JVMFlags []string
	// ExtraConfig holds "key=value" lines appended to every zoo.cfg, after
	// (and so overriding) the ones this package writes.
	ExtraConfig []string
	// Detached starts servers in their own session without a parent-death
	// signal, so they outlive the process that started them. A detached
	// ensemble's servers reach each other directly, not through link
	// proxies (those could not outlive this process): its links cannot be
	// cut, and Partition and the like return ErrNoLinks.
	Detached bool
	// TLS serves clients over TLS only: each server has a secure client
	// port and no plaintext one (Addrs lists the secure ports), with a
	// certificate for 127.0.0.1 and localhost signed by a CA made at
	// Start (see Ensemble.ClientTLS). Links between servers stay
	// plaintext. It needs ZooKeeper 3.6 or later (both versions here are).
	TLS bool
	// ServerConfig holds, for server i (the index Kill takes), "key=value"
	// lines appended to its zoo.cfg after ExtraConfig: servers with other
	// bounds (minSessionTimeout, maxSessionTimeout), as a rolling change
	// of configuration leaves them. Servers past its end get none.
	ServerConfig [][]string
}

func (c Config) withDefaults() Config {
	if c.Servers == 0 {
		c.Servers = DefaultServers
	}
	if c.TickTime == 0 {
		c.TickTime = DefaultTickTime
	}
	if c.SyncLimit == 0 {
		c.SyncLimit = DefaultSyncLimit
	}
	if c.Dir == "" {
		c.Dir = os.TempDir()
	}
	if c.Version == "" && c.ClassPath == nil {
		c.Version = DefaultVersion()
	}
	if c.JVMFlags == nil {
		c.JVMFlags = DefaultJVMFlags()
	}
	return c
}

func (c Config) validate() error {
	if c.Servers < 1 || c.Servers > 255 {
		return fmt.Errorf("%w: Servers = %d, want 1..255", ErrBadConfig, c.Servers)
	}
	if c.ClassPath == nil && !knownVersion(c.Version) {
		return fmt.Errorf("%w: Version = %q, want one of %s (%s)", ErrBadConfig, c.Version,
			strings.Join(Versions(), ", "), VersionEnv)
	}
	if c.TickTime < time.Millisecond {
		return fmt.Errorf("%w: TickTime = %v, want >= 1ms", ErrBadConfig, c.TickTime)
	}
	if c.SyncLimit < 1 || c.SyncLimit > 1000 {
		return fmt.Errorf("%w: SyncLimit = %d, want 1..1000", ErrBadConfig, c.SyncLimit)
	}
	if c.TLS && c.Detached {
		// A detached ensemble is found again through its State, which
		// holds no certificates: a client could not trust its servers.
		return fmt.Errorf("%w: TLS and Detached together", ErrBadConfig)
	}
	for _, l := range c.ExtraConfig {
		if !strings.Contains(l, "=") || strings.ContainsAny(l, "\n\r") {
			return fmt.Errorf("%w: ExtraConfig line %q is not key=value", ErrBadConfig, l)
		}
	}
	return c.validateServerConfig()
}

// findJava resolves the java executable and checks that every jar on the
// class path exists, so that a missing package is reported as such rather
// than as a JVM that dies with a ClassNotFoundException.
func (c Config) findJava() (string, error) {
	for _, p := range c.ClassPath {
		if strings.HasSuffix(p, ".jar") {
			if _, err := os.Stat(p); err != nil {
				return "", fmt.Errorf("%w: %v", ErrNotInstalled, err)
			}
		}
	}
	java := c.Java
	if java == "" {
		if home := os.Getenv("JAVA_HOME"); home != "" {
			if p := filepath.Join(home, "bin", "java"); fileExists(p) {
				java = p
			}
		}
	}
	if java == "" {
		java = "java"
	}
	p, err := exec.LookPath(java)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNotInstalled, err)
	}
	return p, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// zooCfg renders server s's configuration file. With links, s reaches its
// peers through its own proxies; its own line keeps its real ports, which it
// binds.
func (c Config) zooCfg(s *server, all []*server, links *linkTable, tm *tlsMaterial) string {
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	line("# written by github.com/zklock/zklock/ensemble")
	line("tickTime=%d", c.TickTime.Milliseconds())
	line("initLimit=10")
	line("syncLimit=%d", c.SyncLimit)
	line("dataDir=%s", s.dataDir)
	// Explicit address and port: a server must never fall back to 2181 on
	// all interfaces.
	if tm == nil {
		line("clientPortAddress=127.0.0.1")
		line("clientPort=%d", s.ports.client)
	} else {
		for _, l := range tm.configLines(s.ports.client) {
			line("%s", l)
		}
	}
	line("admin.enableServer=false")
	line("4lw.commands.whitelist=*")
	line("maxClientCnxns=0")
	// We inject process kills, not power loss: the page cache survives them,
	// so fsync buys nothing but latency.
	line("forceSync=no")
	line("preAllocSize=4096")
	line("reconfigEnabled=false")
	if len(all) > 1 {
		for _, o := range all {
			q, el := o.ports.quorum, o.ports.election
			if links != nil && o != s {
				q, el = links.port(s.index, o.index, portQuorum), links.port(s.index, o.index, portElection)
			}
			// Each member's client address after the ";", as the dynamic
			// configuration's format has it: /zookeeper/config (and conf)
			// then name every member a client can reach, not only its
			// quorum ports (zklock inspect asks them all for cons). Not
			// with TLS, whose client port is the secure one.
			if tm == nil {
				line("server.%d=127.0.0.1:%d:%d;127.0.0.1:%d", o.id, q, el, o.ports.client)
			} else {
				line("server.%d=127.0.0.1:%d:%d", o.id, q, el)
			}
		}
	}
	for _, l := range c.ExtraConfig {
		line("%s", l)
	}
	for _, l := range c.serverLines(s.index) {
		line("%s", l)
	}
	return b.String()
}
