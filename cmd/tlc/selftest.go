package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
)

// selfTest runs the runner's checks on the configs in dir, each of which
// says in its header whether the checks must accept it (`\* runner:
// accept`) or reject it (`\* runner: reject`). It fails unless every config
// is accepted or rejected as its header says: a checker that cannot reject
// a wrong result is worthless.
func (r runner) selfTest(ctx context.Context, dir string) error {
	cfgs, err := discover(dir)
	if err != nil {
		return err
	}
	if len(cfgs) == 0 {
		return fmt.Errorf("no configs in %s", dir)
	}
	var errs []error
	for _, c := range cfgs {
		want, err := runnerVerdict(c.Path)
		if err != nil {
			return err
		}
		out, _ := r.check(ctx, c)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		accepted := out.err == nil
		reason := "accepted"
		if !accepted {
			reason, _, _ = strings.Cut(out.err.Error(), "\n")
			reason = "rejected: " + reason
		}
		status := "ok"
		if accepted != (want == "accept") {
			status = "FAIL"
			errs = append(errs, fmt.Errorf("%s: the runner should %s it, but %s", c.ID(), want, reason))
		}
		fmt.Fprintf(r.log, "%-4s %-50s %s\n", status, "selftest "+c.ID(), reason)
	}
	return errors.Join(errs...)
}

// runnerVerdict reads the `\* runner: accept|reject` line of a self-test config.
func runnerVerdict(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), `\* runner:`); ok {
			v = strings.TrimSpace(v)
			if v == "accept" || v == "reject" {
				return v, nil
			}
		}
	}
	return "", fmt.Errorf("%s: no `\\* runner: accept|reject` line", path)
}
