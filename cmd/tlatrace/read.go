package main

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/zklock/zklock/model/trace"
)

// readTrace reads a JSON-lines trace, gunzipping a .gz file.
func readTrace(file string) ([]trace.Event, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("tlatrace: %w", err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(file, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("tlatrace: %s: %w", file, err)
		}
		defer zr.Close()
		r = zr
	}
	events, err := trace.Read(r)
	if err != nil {
		return nil, fmt.Errorf("tlatrace: %s: %w", file, err)
	}
	return events, nil
}
