package ensemble_test

import (
	"errors"
	"testing"

	"github.com/zklock/zklock/ensemble"
)

// srvr output of Debian's 3.8.0 build, placeholder included.
const debianSrvr = `Zookeeper version: 3.8.0-${mvngit.commit.id}, built on 2023-03-04 10:21 UTC
Latency min/avg/max: 0/0.5/3
Received: 42
Sent: 41
Connections: 2
Outstanding: 0
Zxid: 0x100000007
Mode: leader
Node count: 7
Proposal sizes last/min/max: 48/48/92
`

func TestParseSrvrDebianVersionLine(t *testing.T) {
	st, err := ensemble.ParseSrvr(debianSrvr)
	if err != nil {
		t.Fatal(err)
	}
	want := ensemble.Stat{
		Version: "3.8.0-${mvngit.commit.id}", Mode: ensemble.ModeLeader, Zxid: 0x100000007,
		Received: 42, Sent: 41, Connections: 2, NodeCount: 7,
	}
	if st != want {
		t.Fatalf("ParseSrvr = %+v, want %+v", st, want)
	}
}

func TestParseSrvrErrors(t *testing.T) {
	for _, tc := range []struct {
		name, out string
		want      error
	}{
		{"not serving", "This ZooKeeper instance is not currently serving requests\n", ensemble.ErrNotServing},
		{"no mode", "Zookeeper version: 3.8.0\nReceived: 1\n", ensemble.ErrMalformed},
		{"bad zxid", "Zxid: zzz\nMode: follower\n", ensemble.ErrMalformed},
		{"empty", "", ensemble.ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := ensemble.ParseSrvr(tc.out); !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
}
