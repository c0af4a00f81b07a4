package zklock

import "testing"

// The observer's filter sends a leader once, each new value of it once,
// a vacancy once, and never an epoch below one already sent, a vacancy
// between or not.
func TestObserverFilter(t *testing.T) {
	var w watcher
	leader := func(epoch, mzxid int64, v string) LeaderInfo {
		return LeaderInfo{Node: "/e/n", Value: []byte(v), Epoch: epoch, mzxid: mzxid}
	}
	steps := []struct {
		info LeaderInfo
		want bool
	}{
		{LeaderInfo{}, true},        // first: a vacancy
		{LeaderInfo{}, false},       // the same vacancy
		{leader(10, 10, "a"), true}, // a leader
		{leader(10, 10, "a"), false},
		{leader(10, 12, "a"), false}, // rewritten, same value
		{leader(10, 13, "b"), true},  // a new value
		{leader(10, 11, "a"), false}, // an older value
		{leader(9, 20, "x"), false},  // an older leader
		{LeaderInfo{}, true},
		{leader(9, 20, "x"), false}, // older than the last leader, after a vacancy
		{leader(20, 20, "c"), true},
	}
	for i, s := range steps {
		if got := w.isNews(s.info); got != s.want {
			t.Fatalf("step %d (%+v): isNews = %v, want %v", i, s.info, got, s.want)
		}
		if s.want {
			w.markSent(s.info)
		}
	}
}
