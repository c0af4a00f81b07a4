package nemesis

import (
	"maps"
	"slices"
	"testing"

	"github.com/zklock/zklock/cmd/chaos/internal/schedule"
	"github.com/zklock/zklock/cmd/chaos/internal/workload"
	"github.com/zklock/zklock/traceevent"
)

// scopeWorkload is a workload of lock (workload.LockZklock: one exclusive
// and one read/write path; workload.LockElection: two election paths),
// traced or not.
func scopeWorkload(lock string, traced bool) *workload.Workload {
	w := &workload.Workload{Cfg: workload.Config{Lock: lock}}
	path := func(name string) *workload.LockPath {
		return workload.NewLockPath("/locks/"+name, "/data/"+name, false, true, nil)
	}
	if lock == workload.LockElection {
		w.Excl = []*workload.LockPath{path("election-0"), path("election-1")}
	} else {
		w.Excl, w.RW = []*workload.LockPath{path("ex-0")}, []*workload.LockPath{path("rw-0")}
	}
	if traced {
		w.Env = func(traceevent.Event) {}
	}
	return w
}

// The operator's scope: untraced, any holder; traced, the holders of every
// path whose model replays the outsider (exclusive and read/write locks,
// elections), except that a traced election takes no operator-replace
// (ElectionForeign has no Proclaim through a replaced node). Each row is
// the control of another: the same workload with the other kind, or
// untraced, gets another answer.
func TestOperatorScope(t *testing.T) {
	const (
		del = schedule.OperatorDelete
		rep = schedule.OperatorReplace
	)
	for _, tc := range []struct {
		lock   string
		traced bool
		kind   schedule.Kind
		want   []string // nil: any holder
		skip   bool
	}{
		{workload.LockZklock, false, del, nil, false},
		{workload.LockZklock, false, rep, nil, false},
		{workload.LockZklock, true, del, []string{"/locks/ex-0", "/locks/rw-0"}, false},
		{workload.LockZklock, true, rep, []string{"/locks/ex-0", "/locks/rw-0"}, false},
		{workload.LockElection, false, del, nil, false},
		{workload.LockElection, false, rep, nil, false},
		{workload.LockElection, true, del, []string{"/locks/election-0", "/locks/election-1"}, false},
		{workload.LockElection, true, rep, nil, true},
	} {
		paths, skip := operatorScope(scopeWorkload(tc.lock, tc.traced), tc.kind)
		got := slices.Sorted(maps.Keys(paths))
		if (skip != "") != tc.skip || (paths == nil) != (tc.want == nil) || !slices.Equal(got, tc.want) {
			t.Errorf("%s traced=%v %s: paths %v (nil %v), skip %q; want %v, skip %v",
				tc.lock, tc.traced, tc.kind, got, paths == nil, skip, tc.want, tc.skip)
		}
	}
}
