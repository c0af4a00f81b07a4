package nemesis

import (
	"context"
	"fmt"
	"time"

	"github.com/zklock/zklock/checker"
	"github.com/zklock/zklock/ensemble"
)

// restorer is a cluster that can copy its servers' data and put a copy
// back (the local ensemble).
type restorer interface {
	Backup() (*ensemble.Backup, error)
	Restore(ctx context.Context, b *ensemble.Backup) error
}

// restore is the restore fault: the campaign's first one takes a backup of
// every server's data (the ensemble keeps running), every later one stops
// every server, puts that backup back and starts it again, so the
// ensemble's history goes back to the backup's moment: nodes and sessions
// made since are gone, and zxids go back.
func (in *Injector) restore(ctx context.Context, ev *Event) {
	r, ok := in.clu.(restorer)
	if !ok {
		ev.Skipped = "only a local ensemble can be restored"
		return
	}
	if in.backup == nil {
		b, err := r.Backup()
		if err != nil {
			ev.Error = fmt.Sprintf("the backup the restores go back to: %v", err)
			return
		}
		in.backup, in.backupAt = b, time.Now()
		ev.Target = "all servers"
		ev.Skipped = "the first restore fault takes the backup (the servers keep running); the later ones restore it"
		return
	}
	// A restored ensemble elects its leader in the epoch after the
	// backup's: its zxids go back only after two elections since the
	// backup, which two kills of the leader make (a leader's kill alone is
	// a fault zklock passes: sessions move to another server).
	for round := 0; round < 2; round++ {
		leader, _, err := in.clu.Roles(ctx)
		if err == nil {
			err = in.clu.Kill(ctx, leader, 200*time.Millisecond)
		}
		if err != nil {
			ev.Error = fmt.Sprintf("the elections before the restore: %v", err)
			return
		}
	}
	b := in.backup
	in.rewind(ctx, ev, checker.FaultRestore, func(ctx context.Context) error { return r.Restore(ctx, b) },
		fmt.Sprintf("the leader killed twice (two elections: the restore sends zxids back), then every server stopped, "+
			"its data replaced by the backup taken %v before, started again; the campaign's lock paths and data nodes made again",
			time.Since(in.backupAt).Round(time.Second)))
}

// Backup copies the local ensemble's data (ensemble.Ensemble.Backup).
func (l *localCluster) Backup() (*ensemble.Backup, error) { return l.e.Backup() }

// Restore puts b back (ensemble.Ensemble.Restore), on its own context like
// Wipe: a restore that has begun ends with the ensemble up.
func (l *localCluster) Restore(ctx context.Context, b *ensemble.Backup) error {
	hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), healTimeout)
	defer cancel()
	return l.e.Restore(hctx, b)
}
