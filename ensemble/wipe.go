package ensemble

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// A wipe and a restore are what an operator does to a whole ensemble when
// its data is lost or must go back: every server is stopped, its data
// directory emptied (Wipe) or replaced by an older copy (Restore), and
// every server started again on the same ports. The ensemble's history
// then starts again from an earlier point: its zxids go back, and every
// session it knew is gone. Clients that saw a newer zxid are refused by
// every server ("Refusing session request ... as it has seen zxid ...").

// Backup is a copy of every server's data directory, taken by Backup and
// put back by Restore. It lives under the ensemble's directory and is
// removed with it.
type Backup struct {
	dir string // one sub-directory per server, by index
	n   int
}

// Backup copies every server's data directory as it is now. The servers
// keep running: ZooKeeper's snapshots and transaction logs are written
// append-only, and a restore from a copy whose log ends in a torn record
// recovers up to the last whole one, as it would after a crash.
func (e *Ensemble) Backup() (*Backup, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.stopped {
		return nil, ErrStopped
	}
	dir, err := os.MkdirTemp(e.root, "backup-")
	if err != nil {
		return nil, fmt.Errorf("ensemble: backup: %w", err)
	}
	for _, s := range e.servers {
		if err := copyDir(s.dataDir, filepath.Join(dir, fmt.Sprint(s.index))); err != nil {
			return nil, &ServerError{Server: s.index, Op: "backup", Log: s.logPath, Err: err}
		}
	}
	return &Backup{dir: dir, n: len(e.servers)}, nil
}

// Wipe stops every server, empties its data directory (its myid stays) and
// starts it again, then waits until the ensemble is healthy: the ensemble
// forgets every node and session, and its zxids start again from the first
// epoch. Cut links stay cut and the servers come back unpaused.
func (e *Ensemble) Wipe(ctx context.Context) error {
	return e.rewind(ctx, "wipe", func(s *server) error { return os.RemoveAll(s.dataDir) })
}

// Restore stops every server, replaces its data directory with b's copy
// and starts it again, then waits until the ensemble is healthy: the
// ensemble's state goes back to when b was taken. Its zxids go back only
// if the ensemble elected a leader at least twice since: the restored
// ensemble's first epoch is the one after b's, and a zxid's high 32 bits
// are its epoch.
func (e *Ensemble) Restore(ctx context.Context, b *Backup) error {
	if b == nil || b.n != e.Size() {
		return fmt.Errorf("%w: restore: a backup of another ensemble, or none", ErrBadConfig)
	}
	return e.rewind(ctx, "restore", func(s *server) error {
		if err := os.RemoveAll(s.dataDir); err != nil {
			return err
		}
		return copyDir(filepath.Join(b.dir, fmt.Sprint(s.index)), s.dataDir)
	})
}

// rewind kills every server, lets fill make its data directory anew, writes
// its myid and configuration again and restarts it on its ports.
func (e *Ensemble) rewind(ctx context.Context, op string, fill func(*server) error) error {
	e.mu.Lock()
	if e.stopped {
		e.mu.Unlock()
		return ErrStopped
	}
	if err := e.killAllLocked(); err != nil {
		e.mu.Unlock()
		return err
	}
	for _, s := range e.servers {
		if err := fill(s); err != nil {
			e.mu.Unlock()
			return &ServerError{Server: s.index, Op: op, Log: s.logPath, Err: err}
		}
		if err := e.writeConfig(s); err != nil {
			e.mu.Unlock()
			return &ServerError{Server: s.index, Op: op, Log: s.logPath, Err: err}
		}
	}
	e.mu.Unlock()
	// Restart waits for each server to listen and retries a port another
	// process took meanwhile; the quorum forms once a majority is up.
	for i := range e.servers {
		if err := e.Restart(ctx, i); err != nil {
			return fmt.Errorf("ensemble: %s: %w", op, err)
		}
	}
	if err := e.WaitHealthy(ctx); err != nil {
		return fmt.Errorf("ensemble: %s: %w", op, err)
	}
	return nil
}

// copyDir copies the regular files and directories under src to dst.
func copyDir(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case d.Type().IsRegular():
			return copyFile(p, to)
		}
		return nil
	})
}

func copyFile(src, dst string) (err error) {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, out.Close()) }()
	_, err = io.Copy(out, in)
	return err
}
