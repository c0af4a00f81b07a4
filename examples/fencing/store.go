package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite": SQLite in pure Go, no cgo, no server
)

// ErrStaleToken is the store's refusal of a write whose fencing token is
// lower than the highest it has accepted under the same lock: the writer's
// lock was taken over by someone else since it was granted.
var ErrStaleToken = errors.New("fencing: stale token: a newer holder has written")

// Store is a table of records guarded by locks: each lock has one
// high-water fencing token, the highest of the writes made under it, and
// every write checks and raises it in the same transaction as it writes
// its record. The database, not the writer, decides, and it decides per
// lock, not per record: once a newer holder has written anything under
// the lock, an older holder may write nothing under it, not even a record
// the newer one has not touched (a per-record token would let it land in
// the middle of the newer holder's work).
type Store struct {
	db     *sql.DB
	fenced bool
}

// OpenStore opens (creating if need be) the SQLite database at path. With
// fenced false the store accepts every write (the control: what a store
// without fencing does with a paused holder's late write).
func OpenStore(ctx context.Context, path string, fenced bool) (*Store, error) {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return nil, fmt.Errorf("fencing: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1) // one writer at a time inside this process; SQLite locks the file across processes
	if _, err := db.ExecContext(ctx, `PRAGMA busy_timeout = 5000;
		CREATE TABLE IF NOT EXISTS fences (lock TEXT PRIMARY KEY, token INTEGER NOT NULL);
		CREATE TABLE IF NOT EXISTS records (key TEXT PRIMARY KEY, value TEXT NOT NULL, token INTEGER NOT NULL)`); err != nil {
		db.Close()
		return nil, fmt.Errorf("fencing: create tables: %w", err)
	}
	return &Store{db: db, fenced: fenced}, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Write sets key to value under lock with the writer's fencing token, or
// returns ErrStaleToken, writing nothing, if a write under the same lock
// with a higher token came first (whatever key it wrote).
func (s *Store) Write(ctx context.Context, lock, key, value string, token int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("fencing: write %s: %w", key, err)
	}
	defer tx.Rollback() // after Commit, a no-op
	if s.fenced {
		// The fence first: its write takes SQLite's write lock, so no other
		// writer can come between this check and the record's write.
		res, err := tx.ExecContext(ctx, `INSERT INTO fences (lock, token) VALUES (?, ?)
			ON CONFLICT (lock) DO UPDATE SET token = excluded.token WHERE excluded.token >= fences.token`, lock, token)
		if err != nil {
			return fmt.Errorf("fencing: write %s: %w", key, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("fencing: write %s: %w", key, err)
		} else if n == 0 {
			return fmt.Errorf("fencing: write %s under %s with token %d: %w", key, lock, token, ErrStaleToken)
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO records (key, value, token) VALUES (?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value, token = excluded.token`, key, value, token); err != nil {
		return fmt.Errorf("fencing: write %s: %w", key, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("fencing: write %s: %w", key, err)
	}
	return nil
}

// Read returns key's value and the token of its last write; an error
// matching sql.ErrNoRows if it has none.
func (s *Store) Read(ctx context.Context, key string) (value string, token int64, err error) {
	err = s.db.QueryRowContext(ctx, `SELECT value, token FROM records WHERE key = ?`, key).Scan(&value, &token)
	if err != nil {
		return "", 0, fmt.Errorf("fencing: read %s: %w", key, err)
	}
	return value, token, nil
}
