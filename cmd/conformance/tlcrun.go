package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/zklock/zklock/internal/tlc"
)

// tlcSource gives TLC's record of a config: from the results file when it
// matches the config's files, jar and worker setting, else from a new TLC
// run, which it adds to the file.
type tlcSource struct {
	o       options
	records *tlc.Records
	jar     string
	dirty   bool
}

// workers is the -workers setting TLC runs a config with (as cmd/tlc).
func (s *tlcSource) workers(c config) string {
	if !c.Model.Pass {
		return "1"
	}
	return s.o.tlcWorkers
}

func (s *tlcSource) record(ctx context.Context, c config, log io.Writer) (tlc.Record, bool, error) {
	if s.records == nil {
		rs, err := tlc.LoadRecords(s.o.jsonPath)
		if err != nil {
			return tlc.Record{}, false, err
		}
		s.records = rs
	}
	cfgHash, err := tlc.FileHash(c.Path)
	if err != nil {
		return tlc.Record{}, false, err
	}
	specHash, err := tlc.SpecHash(filepath.Dir(c.Spec), c.Module)
	if err != nil {
		return tlc.Record{}, false, err
	}
	jarName := tlc.JarName
	if s.o.jar != "" {
		jarName = filepath.Base(s.o.jar)
	}
	workers := s.workers(c)
	// cmd/tlc runs its small passing configs with one worker: their state
	// counts are those of any worker count (TLC explores the whole graph).
	if rec, ok := s.records.Get(c.ID()); ok && !s.o.rerun &&
		(rec.Matches(cfgHash, specHash, jarName, workers) || c.Model.Pass && rec.Matches(cfgHash, specHash, jarName, "1")) {
		return rec, true, nil
	}
	if s.jar == "" {
		s.jar = s.o.jar
		if s.jar == "" {
			if s.jar, err = tlc.Fetch(ctx, s.o.cacheDir); err != nil {
				return tlc.Record{}, false, fmt.Errorf("fetching TLC: %w", err)
			}
		}
	}
	logf(log, "     running TLC on %s (-workers %s)", c.ID(), workers)
	meta := filepath.Join(s.o.cacheDir, "tlc", "meta", fmt.Sprintf("conformance-%s-%d", c.ID(), os.Getpid()))
	os.RemoveAll(meta)
	defer os.RemoveAll(meta)
	res, _, err := tlc.Run(ctx, tlc.RunOptions{
		Java: s.o.java, Jar: s.jar, Spec: c.Spec, Config: c.Path, MetaDir: meta,
		Workers: workers, Heap: s.o.heap,
	})
	if err != nil {
		return tlc.Record{}, false, err
	}
	rec := tlc.NewRecord(c.Module, c.Name, cfgHash, specHash, jarName, workers, c.Model, res, tlc.Check(c.Model, res))
	s.records.Put(rec)
	s.dirty = true
	return rec, false, nil
}

// save writes the results file if a TLC run added to it.
func (s *tlcSource) save() error {
	if !s.dirty {
		return nil
	}
	return s.records.Save(s.o.jsonPath)
}
