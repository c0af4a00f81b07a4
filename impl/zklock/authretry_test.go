package zklock

import (
	"errors"
	"path"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/ensemble/ensembletest"
	"github.com/zklock/zklock/faultinject"
)

// TestNewSessionAuthSurvivesConnectionLoss: credentials belong to the
// connection, and go-zookeeper re-sends on a reconnect only those whose
// AddAuth succeeded. NewSession cuts the connection right after its
// setAuth request (the reply is dropped): it must send them again on the
// next connection and return an authenticated session, where it returned
// "zk: connection closed", an error matching no Err* (code mutant
// auth-not-retried). The session then proves its identity: a node it
// creates with the auth ACL ("the authenticated creator") is refused
// without credentials (InvalidACL).
func TestNewSessionAuthSurvivesConnectionLoss(t *testing.T) {
	set, err := faultinject.NewSet(ensembletest.Require(t))
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	ctx := ctxFor(t, time.Minute)
	cut := set.CutAfterRequest(faultinject.OpAuth)
	s, err := NewSession(ctx, set.Addrs(), WithSessionTimeout(longTimeout), timing(),
		WithAuth("digest", []byte("owner:secret")))
	if err != nil {
		t.Fatalf("NewSession with its setAuth reply lost: %v", err)
	}
	defer s.Close()
	report, err := cut.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !report.ReplyDropped {
		t.Fatalf("the cut did not drop the setAuth reply: %+v", report)
	}
	node := "/" + path.Base(lockPath(t)) // no parent to create
	if _, err := s.Conn().Create(node, nil, zk.FlagEphemeral, zk.AuthACL(zk.PermAll)); err != nil {
		t.Fatalf("create with the auth ACL: %v (the session is not authenticated)", err)
	}
	defer s.Conn().Delete(node, -1)
	// The control: the same create without credentials is refused.
	a := admin(t)
	if _, err := a.Create(node+"-anon", nil, zk.FlagEphemeral, zk.AuthACL(zk.PermAll)); !errors.Is(err, zk.ErrInvalidACL) {
		t.Fatalf("create with the auth ACL and no credentials: %v, want zk.ErrInvalidACL", err)
	}
}
