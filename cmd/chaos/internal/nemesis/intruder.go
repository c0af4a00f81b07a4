package nemesis

import (
	"context"
	crand "crypto/rand"
	"errors"
	"fmt"
	"strings"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/cmd/chaos/internal/schedule"
	"github.com/zklock/zklock/cmd/chaos/internal/workload"
)

// What an intruder fault tries, in the order it tries them.
const (
	AttemptOverwriteNode = "overwrite-node"   // setData on the holder's lock node
	AttemptOverwriteData = "overwrite-data"   // setData on the ZooKeeper register the lease guards
	AttemptQueue         = "queue-contender"  // a protected sequential node, _c_<uuid>-lock-: a contender
	AttemptAhead         = "create-ahead"     // a plain lock-0000000000, which sorts ahead of every contender
	AttemptDeleteHolder  = "delete-holder"    // delete the holder's lock node: the theft
	AttemptDeleteLock    = "delete-lock-path" // delete the lock path itself
)

// Outcomes of an attempt.
const (
	Refused   = "refused"   // the server said NoAuth
	Succeeded = "succeeded" // the server did it
	Failed    = "failed"    // another error: the node was gone, the path not empty, ...
)

// Attempt is one thing an intruder tried and what the server answered.
type Attempt struct {
	What    string `json:"what"`
	Outcome string `json:"outcome"`
	Error   string `json:"error,omitempty"`
}

// wrongAuth is what an intruder with wrong credentials authenticates as:
// the campaign's user name with a guessed password.
var wrongAuth = []byte("zklock-chaos:guessed")

// intrude is the intruder fault: a session of its own, straight to the
// servers, without credentials or with wrong ones, attacks the lock of a
// holder. It fills ev.
func (in *Injector) intrude(ctx context.Context, f schedule.Fault, ev *Event, fault func(string, string, int64, int64)) {
	// Connected before the target is picked: a lease may last only 100 ms.
	conn, err := in.dial(ctx)
	if err != nil {
		ev.Skipped = fmt.Sprintf("the intruder could not connect: %v", err)
		return
	}
	defer conn.Close() // its ephemeral nodes go with it
	who := "no credentials"
	if f.WrongCredentials() {
		who = "wrong credentials"
		if err := conn.AddAuth(workload.AuthScheme, wrongAuth); err != nil {
			ev.Skipped = fmt.Sprintf("the intruder could not authenticate: %v", err)
			return
		}
	}
	c := in.pickClient(ctx, f)
	if c == nil {
		ev.Skipped = fmt.Sprintf("no %s within %v", f.Role, candidateWait)
		return
	}
	path, node, ok := c.Held()
	lp := in.lockPath(path)
	if !ok || lp == nil {
		ev.Skipped = fmt.Sprintf("%s released before the intruder came", c.Name())
		return
	}
	ev.Target = c.Name()
	in.w.Mon.SetCurrent(fmt.Sprintf("%s %s", f.Kind, c.Name()))
	rec := in.w.Rec
	call := rec.Now()
	var undo error
	ev.Attempts, undo = attack(conn, lp, node)
	fault(string(f.Kind), c.Name(), call, rec.Now())
	if undo != nil {
		ev.Error = undo.Error()
	}
	ev.Detail = who + ": " + attemptsText(ev.Attempts)
}

// attack makes every attempt on the lock lp whose holder has node. What it
// manages to create it deletes at once: only the theft itself (a deleted
// holder node) is left for the lock to cope with. It returns the attempts
// and an error if a node it made could not be deleted.
func attack(conn *zk.Conn, lp *workload.LockPath, node string) ([]Attempt, error) {
	marker := "lock-"
	if lp.RW {
		marker = "__WRIT__" // the marker read/write locks queue writers with
	}
	var out []Attempt
	try := func(what string, err error) bool {
		a := Attempt{What: what, Outcome: Succeeded}
		switch {
		case errors.Is(err, zk.ErrNoAuth):
			a.Outcome, a.Error = Refused, err.Error()
		case err != nil:
			a.Outcome, a.Error = Failed, err.Error()
		}
		out = append(out, a)
		return err == nil
	}
	var undo []error
	remove := func(p string) {
		if err := conn.Delete(p, -1); err != nil && !errors.Is(err, zk.ErrNoNode) {
			undo = append(undo, fmt.Errorf("the intruder could not delete its node %s: %w", p, err))
		}
	}
	_, err := conn.Set(node, []byte("intruder"), -1)
	try(AttemptOverwriteNode, err)
	_, err = conn.Set(lp.Data, []byte("intruder"), -1)
	try(AttemptOverwriteData, err)
	made, err := conn.Create(lp.Path+"/_c_"+uuid()+"-"+marker, nil, zk.FlagEphemeral|zk.FlagSequence, zk.WorldACL(zk.PermAll))
	if try(AttemptQueue, err) {
		remove(made)
	}
	made, err = conn.Create(lp.Path+"/"+marker+"0000000000", nil, 0, zk.WorldACL(zk.PermAll))
	if try(AttemptAhead, err) {
		remove(made)
	}
	try(AttemptDeleteHolder, conn.Delete(node, -1))
	try(AttemptDeleteLock, conn.Delete(lp.Path, -1))
	return out, errors.Join(undo...)
}

// lockPath returns the campaign's lock at path, or nil.
func (in *Injector) lockPath(path string) *workload.LockPath {
	for _, lp := range append(append([]*workload.LockPath(nil), in.w.Excl...), in.w.RW...) {
		if lp.Path == path {
			return lp
		}
	}
	return nil
}

// uuid is a random version-4 UUID, as Curator's protected names carry.
func uuid() string {
	b := make([]byte, 16)
	crand.Read(b) // never fails (crypto/rand's documented contract)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// attemptsText says what the server answered to each attempt, for the
// report: "overwrite-node refused, ...".
func attemptsText(as []Attempt) string {
	parts := make([]string, len(as))
	for i, a := range as {
		parts[i] = a.What + " " + a.Outcome
	}
	return strings.Join(parts, ", ")
}
