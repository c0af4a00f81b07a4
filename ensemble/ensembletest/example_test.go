package ensembletest_test

import (
	"os"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/ensemble/ensembletest"
)

// A test binary starts one ensemble in TestMain; each test asks for it.
func ExampleMain() {
	var m *testing.M // the argument of TestMain
	os.Exit(ensembletest.Main(m))
}

// A test that kills a server needs the local ensemble, and leaves it healed.
func ExampleRequireLocal() {
	var t *testing.T // the argument of the test
	e := ensembletest.RequireLocal(t)
	c := ensembletest.Connect(t, e.Addrs(), 4*time.Second)
	if err := e.Kill(0); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Create("/after-kill", nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
}
