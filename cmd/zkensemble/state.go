package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/zklock/zklock/ensemble"
)

// repoRoot finds the repository root by walking up to go.mod, so that the
// command finds the same state file from any directory of the repository.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the current directory: run inside the repository or pass -state")
		}
		dir = parent
	}
}

func defaultStatePath(root string) string {
	return filepath.Join(root, ".ensemble", "state.json")
}

// stateDir is where the ensemble's directories go: next to its state file,
// so that `down` and a human find everything in one place.
func stateDir(statePath string) string { return filepath.Dir(statePath) }

func readState(path string) (ensemble.State, error) {
	var st ensemble.State
	b, err := os.ReadFile(path)
	if err != nil {
		return st, err
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return st, fmt.Errorf("state file %s: %w", path, err)
	}
	return st, nil
}

// writeState writes through a temporary file so that a crash never leaves
// a truncated state file that would orphan running servers.
func writeState(path string, st ensemble.State) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
