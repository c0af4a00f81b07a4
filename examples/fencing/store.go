package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite": SQLite in pure Go, no cgo, no server
)

// ErrStaleToken is the store's refusal of a write whose fencing token is
// lower than the highest it has accepted for that key: the writer's lock
// was taken over by someone else since it was granted.
var ErrStaleToken = errors.New("fencing: stale token: a newer holder has written")

// Store is a table of records, each with the fencing token of its last
// write. The database, not the writer, decides: one conditional statement
// writes the record only if the token is not lower than the one stored, so
// no check-then-write race is left to the application.
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
		CREATE TABLE IF NOT EXISTS records (key TEXT PRIMARY KEY, value TEXT NOT NULL, token INTEGER NOT NULL)`); err != nil {
		db.Close()
		return nil, fmt.Errorf("fencing: create table: %w", err)
	}
	return &Store{db: db, fenced: fenced}, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Write sets key to value with the writer's fencing token, or returns
// ErrStaleToken if a write with a higher token came first.
func (s *Store) Write(ctx context.Context, key, value string, token int64) error {
	q := `INSERT INTO records (key, value, token) VALUES (?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value, token = excluded.token
		WHERE excluded.token >= records.token`
	if !s.fenced {
		q = `INSERT INTO records (key, value, token) VALUES (?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value, token = excluded.token`
	}
	res, err := s.db.ExecContext(ctx, q, key, value, token)
	if err != nil {
		return fmt.Errorf("fencing: write %s: %w", key, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("fencing: write %s: %w", key, err)
	} else if n == 0 {
		return fmt.Errorf("fencing: write %s with token %d: %w", key, token, ErrStaleToken)
	}
	return nil
}

// Read returns key's value and the token of its last write.
func (s *Store) Read(ctx context.Context, key string) (value string, token int64, err error) {
	err = s.db.QueryRowContext(ctx, `SELECT value, token FROM records WHERE key = ?`, key).Scan(&value, &token)
	if err != nil {
		return "", 0, fmt.Errorf("fencing: read %s: %w", key, err)
	}
	return value, token, nil
}
