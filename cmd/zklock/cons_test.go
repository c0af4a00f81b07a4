package main

import (
	"slices"
	"testing"
)

// The members a dynamic configuration names: the client address after
// ";", the server line's host when the client host is unspecified or
// absent; a server line with no client address is reported, not guessed.
func TestConfigMembers(t *testing.T) {
	conf := "server.1=10.0.0.1:2888:3888:participant;10.0.0.1:2181\n" +
		"server.2=zk2:2888:3888;0.0.0.0:2182\n" +
		"server.3=[fd00::3]:2888:3888:participant;2183\n" +
		"server.4=zk4:2888:3888:observer\n" +
		"version=100000000\n"
	addrs, unnamed := configMembers(conf)
	if want := []string{"10.0.0.1:2181", "zk2:2182", "[fd00::3]:2183"}; !slices.Equal(addrs, want) {
		t.Errorf("members %q, want %q", addrs, want)
	}
	if want := []string{"server.4"}; !slices.Equal(unnamed, want) {
		t.Errorf("unnamed %q, want %q", unnamed, want)
	}
	if a, u := configMembers(""); len(a)+len(u) != 0 {
		t.Errorf("a standalone server's empty configuration: %q, %q", a, u)
	}
}
