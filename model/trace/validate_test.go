package trace

import (
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zklock/zklock/traceevent"
)

func readFile(t *testing.T, name string) []Event {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	evs, err := Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// TestControls replays the handmade traces in testdata: the correct ones
// are accepted, each wrong one is rejected at the event where it goes
// wrong (the positive controls).
func TestControls(t *testing.T) {
	for _, tc := range []struct {
		file    string
		verdict Verdict
		client  string // the diverging event's client and action
		action  traceevent.Action
		why     string // a part of the reason
	}{
		{file: "mutex_correct.jsonl", verdict: Valid},
		{file: "mutex_faults.jsonl", verdict: Valid},
		{file: "rw_correct.jsonl", verdict: Valid},
		// The lock path, an empty container, was reaped and made anew: the
		// numbering restarts, which only an empty queue allows.
		{file: "mutex_seq_restart.jsonl", verdict: Valid},
		{file: "mutex_seq_restart_after_expiry.jsonl", verdict: Valid},
		// A server tells a reconnecting client its session expired before
		// the transaction that deletes its nodes commits; its Cancel,
		// pending, never happened.
		{file: "mutex_expired_before_nodes_go.jsonl", verdict: Valid},
		// The session ended (its loss timer) while a create was in
		// flight; the create committed, and the node stayed until the
		// server closed the session, after the Cancel: a Cancel that says
		// the session had ended deleted nothing.
		{file: "mutex_cancel_after_session_ended.jsonl", verdict: Valid},
		// The control: the same trace with a Cancel that does not say so
		// claims a delete the listing after it contradicts.
		{"mutex_cancel_deletes_late.jsonl", Invalid, "c2", traceevent.ListChildren, "the model's nodes are"},
		{"mutex_seq_goes_back.jsonl", Invalid, "c2", traceevent.ListChildren, "the model's nodes are"},
		// A client pinned to a follower cut off from the leader cancels;
		// its delete never reaches the leader (no end, no zxid), it starts
		// its next request, and another client still lists the cancelled
		// node, until the leader expires the session (AsyncDelete: the
		// request ends at once, the delete lands later or never).
		{file: "mutex_cancel_pending_next_request.jsonl", verdict: Valid},
		// The control: the same Cancel confirmed at zxid 103 deleted the
		// node there; the listing at zxid 104 cannot show it.
		{"mutex_cancel_confirmed_listed_after.jsonl", Invalid, "c3", traceevent.ListChildren, "the model's nodes are"},
		// Real time allows the listing before the release; its pzxid, the
		// release's zxid, does not.
		{"mutex_listing_before_its_zxid.jsonl", Invalid, "c2", traceevent.ListChildren, "the model's nodes are"},
		{"mutex_holds_before_predecessor_gone.jsonl", Invalid, "c2", traceevent.ListChildren, "must wait for"},
		{"mutex_holds_while_waiting.jsonl", Invalid, "c2", traceevent.Grant, `pc[c2] = "wait"`},
		{"mutex_holds_without_listing.jsonl", Invalid, "c1", traceevent.Grant, `pc[c1] = "list"`},
		{"mutex_blind_retry.jsonl", Invalid, "c1", traceevent.ListChildren, "the model's nodes are"},
		{"rw_reader_granted_behind_writer.jsonl", Invalid, "c2", traceevent.ListChildren, "must wait for"},
		// The one-notification hand-off: c2 behind the only node before it
		// takes it; c3, which had two nodes before it, lists again. In the
		// read/write lock a reader behind the only writer and a writer
		// behind a read node take it.
		{file: "mutex_grant_on_head_gone.jsonl", verdict: Valid},
		{file: "rw_grant_on_head_gone.jsonl", verdict: Valid},
		// The node two ahead: c3 watches c1's node and c2's; c1's release
		// makes c3 list again while c2 holds, and c2's release is then c3's
		// grant in one notification.
		{file: "mutex_second_relists.jsonl", verdict: Valid},
		// Its controls: the shortcut taken when the watched node was not
		// the only one before ours (c2 cancels while c1 holds), and by a
		// writer whose watched write node was downgraded.
		{"mutex_shortcut_not_head.jsonl", Invalid, "c3", traceevent.GrantOnHeadGone, "soleBlocker[c3]"},
		{"rw_writer_shortcut_across_downgrade.jsonl", Invalid, "c2", traceevent.GrantOnHeadGone, `target[c2][2] = "read"`},
		// And the stale event: c4 watched c2 (two ahead) and c3; both
		// cancel; c2's event makes it list again ([c1, c4]); c3's event,
		// for a node no longer its target, is taken as the grant while c1
		// holds.
		{"mutex_stale_event_grant.jsonl", Invalid, "c4", traceevent.GrantOnHeadGone, "chose"},
		// Connection loss on the getData of the node waited for
		// (PredecessorLockConnLoss's WatchPredecessorLost): c2 lists again
		// while c1 still holds, watches c1 again and takes the hand-off.
		// Its control: c2 takes the lost reply for a watch set and is woken
		// by c1's release, with no watch armed.
		{file: "mutex_watch_reply_lost.jsonl", verdict: Valid},
		{file: "rw_watch_reply_lost.jsonl", verdict: Valid},
		{"mutex_watch_lost_then_woken.jsonl", Invalid, "c2", traceevent.PredecessorGone, `pc[c2] = "list"`},
		// Connection loss on the getData of the node two ahead
		// (PredecessorLockConnLoss's WatchSecondLost): c3 waits for c2
		// with nothing armed on c1, and is woken by c2's release alone.
		// Its control: c3 woken by c1's release, where no watch was armed.
		{file: "mutex_second_watch_lost.jsonl", verdict: Valid},
		{"mutex_second_lost_then_woken.jsonl", Invalid, "c3", traceevent.PredecessorGone, "no notification for this request"},
		// The marker hand-off (PredecessorLockMarked): c1 marks while c2
		// waits on it; c2 takes the NodeDataChanged (MarkSeen), re-arms,
		// and takes c1's release as its grant without listing. Its
		// control: c2 takes the mark's event as the grant while c1 holds.
		{file: "marker_hand_off.jsonl", verdict: Valid},
		{"marker_change_is_grant.jsonl", Invalid, "c2", traceevent.Grant, `pc[c2] = "grant"`},
		// The mark and c2's getData overlap: only the order in which c2
		// reads the mark (no MarkSeen) explains its grant on c1's delete.
		{file: "marker_mark_read.jsonl", verdict: Valid},
		// A middle waiter cancels: the waiter behind it, which never saw a
		// mark on it, lists again (UnmarkedGone). Its control takes that
		// deletion as the grant while the head holds.
		{file: "marker_unmarked_relists.jsonl", verdict: Valid},
		{"marker_unmarked_grant.jsonl", Invalid, "c3", traceevent.GrantOnMarkedGone, `seen[c3] = "mark"`},
		// The marker and an operator (PredecessorLockMarkedForeign): the
		// operator deletes the marked holder's node, the holder's lease
		// ends on its own-node watch (LearnNodeGone), the successor, which
		// read the mark, takes the deletion as its grant. Its control has
		// no LearnNodeGone: the old holder locks again while it believes it
		// holds.
		{file: "marker_operator_delete.jsonl", verdict: Valid},
		{"marker_operator_unlearned.jsonl", Invalid, "c1", traceevent.RequestLock, `pc[c1] = "idle"`},
		// Unlock racing the operator's delete: the delete finds no node
		// (ReleaseGone), the own watch's event already in. Its control:
		// the same Release by a holder that never marked nor armed its own
		// watch, whose arming getData would have told it (LearnNodeGone).
		{file: "marker_operator_release_gone.jsonl", verdict: Valid},
		{"marker_operator_release_unarmed.jsonl", Invalid, "c1", traceevent.Release, `~ArmingPending(c1)`},
		// A mark whose reply was lost may not have been applied: the
		// successor that read its target unmarked lists again at its
		// deletion. Its control: the same with the mark confirmed before
		// the successor's read, which then read the mark.
		{file: "marker_mark_lost_unapplied.jsonl", verdict: Valid},
		{"marker_mark_confirmed_unread.jsonl", Invalid, "c2", traceevent.UnmarkedGone, `seen[c2] = "mark"`},
	} {
		t.Run(tc.file, func(t *testing.T) {
			rep, err := Validate(readFile(t, tc.file), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict != tc.verdict {
				t.Fatalf("verdict %s, want %s\n%s", rep.Verdict, tc.verdict, rep)
			}
			t.Logf("\n%s", rep)
			if tc.verdict != Invalid {
				return
			}
			d := rep.Locks[0].Divergence
			if d == nil || d.Event.Client != tc.client || d.Event.Action != tc.action || !strings.Contains(d.Reason, tc.why) {
				t.Errorf("diverges at %+v: %s; want %s %s (%q)", d.Event, d.Reason, tc.client, tc.action, tc.why)
			}
			if len(d.Candidates) == 0 || !strings.Contains(d.Candidates[0].State, "/\\ pc = ") {
				t.Errorf("no candidate state printed with its variables")
			}
		})
	}
}

func TestUnsupported(t *testing.T) {
	_, err := Validate(readFile(t, "unsupported_concurrent_requests.jsonl"), Options{})
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "has not ended") {
		t.Errorf("concurrent requests: %v", err)
	}
	good := readFile(t, "mutex_correct.jsonl")
	for name, edit := range map[string]func([]Event) []Event{
		"untraced node": func(evs []Event) []Event {
			evs[5].Children = append(evs[5].Children, NodeName("ffffffff-0000-4000-8000-000000000000", "exclusive", 9))
			return evs
		},
		"mixed kinds": func(evs []Event) []Event { evs[1].Kind = "read"; return evs },
		"no client":   func(evs []Event) []Event { evs[0].Client = ""; return evs },
		"node without uuid": func(evs []Event) []Event {
			evs[5].Children = append(evs[5].Children, "lock-0000000009")
			return evs
		},
		"end before start": func(evs []Event) []Event { e := int64(1); evs[3].End = &e; return evs },
		"other request":    func(evs []Event) []Event { evs[3].Request = "nonsense"; return evs },
		"unknown action":   func(evs []Event) []Event { evs[3].Action = "Teleport"; return evs },
	} {
		evs := append([]Event(nil), good...)
		for i := range evs {
			evs[i].Children = append([]string(nil), good[i].Children...)
		}
		if _, err := Validate(edit(evs), Options{}); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// A stretch of a real 10-minute chaos campaign's trace (one read/write
// lock, 52 sessions, 9,543 events): a reader's Release whose delete never
// reached the server (pending) is followed by a leader change, and its
// node lives on until its session expires. Trying the pending delete
// early made the search backtrack over every step after it: more than
// 20,000,000 states for the whole campaign. It must be valid within a
// small budget.
func TestChaosTracePendingRelease(t *testing.T) {
	validGzipTrace(t, "chaos_rw_pending_release.jsonl.gz")
}

// A whole 1-minute chaos campaign on one Mutex path (14 sessions, 249
// events) with clients pinned to servers and a server cut off from the
// leader: a client cancels while its server cannot reach the leader (its
// delete is never confirmed), starts its next request, and the others list
// its cancelled node until the leader expires its session. Valid only with
// the delete after the request's end (AsyncDelete).
func TestChaosTracePinnedCancel(t *testing.T) {
	validGzipTrace(t, "chaos_mutex_pinned_cancel.jsonl.gz")
}

// validGzipTrace checks that the gzipped trace in testdata is valid within
// a small budget.
func validGzipTrace(t *testing.T, name string) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := Read(zr)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Validate(evs, Options{Budget: 100_000})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != Valid {
		t.Fatalf("%d events:\n%s", len(evs), rep)
	}
	t.Logf("%d events: valid, %d search states", len(evs), rep.Locks[0].Explored)
}
