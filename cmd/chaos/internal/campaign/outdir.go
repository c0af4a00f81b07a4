package campaign

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// OutDir is the campaign's output folder. It is made (and proved writable)
// before anything slow starts, so that a bad --out fails at once; if the
// campaign then cannot be set up, Discard removes what was made, leaving
// nothing half-written behind.
type OutDir struct {
	Path    string   // the folder, as --out names it
	created []string // folders made by PrepareOut, deepest last
}

// PrepareOut makes dir (and missing parents) and checks that files can be
// created in it. An existing dir must be empty: one campaign per folder.
func PrepareOut(dir string) (*OutDir, error) {
	o := &OutDir{Path: dir}
	if err := o.mkdirs(dir); err != nil {
		o.Discard()
		return nil, fmt.Errorf("--out %s: %w", dir, unwrapPath(err))
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		o.Discard()
		return nil, fmt.Errorf("--out %s: %w", dir, unwrapPath(err))
	}
	if len(entries) > 0 {
		o.Discard()
		return nil, fmt.Errorf("--out %s: not empty (one campaign per folder)", dir)
	}
	probe, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		o.Discard()
		return nil, fmt.Errorf("--out %s: not writable: %w", dir, unwrapPath(err))
	}
	probe.Close()
	os.Remove(probe.Name())
	return o, nil
}

// mkdirs is os.MkdirAll that remembers which folders it made.
func (o *OutDir) mkdirs(dir string) error {
	st, err := os.Stat(dir)
	if err == nil {
		if !st.IsDir() {
			return fmt.Errorf("not a folder")
		}
		return nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if parent := filepath.Dir(dir); parent != dir {
		if err := o.mkdirs(parent); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	o.created = append(o.created, dir)
	return nil
}

// File returns the path of name inside the folder.
func (o *OutDir) File(name string) string { return filepath.Join(o.Path, name) }

// Discard removes the folders PrepareOut made, if they are still empty.
func (o *OutDir) Discard() {
	for i := len(o.created) - 1; i >= 0; i-- {
		os.Remove(o.created[i]) // fails, harmlessly, on a folder that is not empty
	}
	o.created = nil
}

// unwrapPath drops the path an *fs.PathError repeats: the message names it.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
