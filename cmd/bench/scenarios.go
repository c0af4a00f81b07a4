package main

import (
	"context"
	"fmt"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/bench/curator"
)

// measureImpl runs every scenario of one implementation once, each on a
// fresh lock path under base, created beforehand as a persistent node so that
// no implementation pays for creating parents inside the measurement.
func measureImpl(ctx context.Context, cfg config, h *curator.Harness, admin *zk.Conn, base, name string) ([]run, error) {
	mk := func(leaf string) (string, error) {
		p := base + "/" + leaf
		return p, createAll(admin, p)
	}
	if name == implCurator {
		specs, err := curatorSpecs(cfg, mk)
		if err != nil {
			return nil, err
		}
		return runCurator(ctx, cfg, h, specs)
	}
	var runs []run
	if cfg.locks {
		got, err := measureLocks(ctx, cfg, name, mk)
		if err != nil {
			return nil, err
		}
		runs = append(runs, got...)
	}
	q, err := measureQueues(ctx, cfg, name, mk)
	if err != nil {
		return nil, err
	}
	runs = append(runs, q...)
	if name != implZklock {
		return runs, nil
	}
	fo, err := measureFailover(ctx, cfg, mk)
	if err != nil {
		return nil, err
	}
	runs = append(runs, fo...)
	if cfg.readMostly {
		for _, n := range readMostlyClients(cfg) {
			p, err := mk(fmt.Sprintf("readmostly-%d", n))
			if err != nil {
				return nil, err
			}
			r, err := contended(ctx, cfg, name, goImpls[name], p, n, kindReadMostly)
			if err != nil {
				return nil, err
			}
			runs = append(runs, r)
		}
	}
	sem, err := measureSemaphores(ctx, cfg, mk)
	if err != nil {
		return nil, err
	}
	return append(runs, sem...), nil
}

// curatorSpecs lists a repetition's Curator runs, in the order the Go
// implementations run theirs, each on a path made by mk.
func curatorSpecs(cfg config, mk func(string) (string, error)) ([]curatorSpec, error) {
	var specs []curatorSpec
	add := func(kind string, n int) error {
		p, err := mk(fmt.Sprintf("%s-%d", kind, n))
		specs = append(specs, curatorSpec{kind: kind, clients: n, path: p})
		return err
	}
	if cfg.locks {
		if err := add(kindUncontended, 1); err != nil {
			return nil, err
		}
		for _, n := range cfg.clients {
			if err := add(kindContended, n); err != nil {
				return nil, err
			}
		}
	}
	if cfg.readMostly {
		for _, n := range readMostlyClients(cfg) {
			if err := add(kindReadMostly, n); err != nil {
				return nil, err
			}
		}
	}
	// LeaderLatch has no expiry run (see failoverKinds in ZkLockBench),
	// nor a standby run: it times only led, which a standby does not change.
	for _, kind := range cfg.failover {
		if kind != kindFailExpire && kind != kindFailStandby {
			if err := add(kind, 0); err != nil {
				return nil, err
			}
		}
	}
	for _, max := range cfg.semaphores {
		for _, n := range cfg.clients {
			if err := add(semaphoreKind(max), n); err != nil {
				return nil, err
			}
		}
	}
	return specs, nil
}

// measureLocks runs one Go implementation's lock scenarios: uncontended,
// then contended at each client count; for the floor, its hand-off and
// write ceilings instead of contended runs.
func measureLocks(ctx context.Context, cfg config, name string, mk func(string) (string, error)) ([]run, error) {
	dial := goImpls[name]
	p, err := mk("uncontended")
	if err != nil {
		return nil, err
	}
	r, err := uncontended(ctx, cfg, name, dial, p)
	if err != nil {
		return nil, err
	}
	runs := []run{r}
	if name == implFloor {
		// The floor has no contended loop of its own: it does not exclude.
		// Its hand-off is measured directly; contended ratios derive from it.
		p, err := mk("handoff")
		if err != nil {
			return nil, err
		}
		r, err := floorHandoff(ctx, cfg, p, cfg.iterations, cfg.warmup)
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
		// The write ceiling at each N: N raw sessions creating and deleting
		// flat out (N = 1 is the uncontended floor above).
		for _, n := range readMostlyClients(cfg) {
			p, err := mk(fmt.Sprintf("writes-%d", n))
			if err != nil {
				return nil, err
			}
			r, err := contended(ctx, cfg, name, dial, p, n, kindWriteCeiling)
			if err != nil {
				return nil, err
			}
			runs = append(runs, r)
		}
		return runs, nil
	}
	for _, n := range cfg.clients {
		p, err := mk(fmt.Sprintf("contended-%d", n))
		if err != nil {
			return nil, err
		}
		r, err := contended(ctx, cfg, name, dial, p, n, kindContended)
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	return runs, nil
}

// measureFailover runs zklock's failover kinds, each on an election path
// of its own.
func measureFailover(ctx context.Context, cfg config, mk func(string) (string, error)) ([]run, error) {
	var runs []run
	for _, kind := range cfg.failover {
		p, err := mk(kind)
		if err != nil {
			return nil, err
		}
		rounds, warmup := cfg.failoverRounds, 3
		if kind == kindFailExpire {
			rounds, warmup = cfg.expireRounds, 0
		}
		r, err := failover(ctx, cfg, kind, p, rounds, warmup)
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	return runs, nil
}

// readMostlyClients: the client counts above one. One client never shares,
// so read-mostly runs skip it, and its write ceiling is the uncontended floor.
func readMostlyClients(cfg config) []int {
	var ns []int
	for _, n := range cfg.clients {
		if n > 1 {
			ns = append(ns, n)
		}
	}
	return ns
}
