package ensemble

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// probeTimeout bounds one health probe of one server: a server that was
// paused behind our back accepts connections (the kernel does) but never
// answers.
const probeTimeout = 2 * time.Second

type target struct {
	index int
	addr  string
	log   string
}

// snapshot is the set of servers expected to answer: started, not killed,
// not paused.
type snapshot struct {
	live  []target
	total int
	fatal error // a server that exited on its own
}

func (e *Ensemble) snapshotLocked() snapshot {
	snap := snapshot{total: len(e.servers)}
	if e.stopped {
		snap.fatal = ErrStopped
		return snap
	}
	for _, s := range e.servers {
		switch {
		case s.proc == nil || s.paused:
		case s.proc.exited():
			snap.fatal = &ServerError{Server: s.index, Op: "health", Log: s.logPath,
				Err: fmt.Errorf("%w: %v", ErrExited, s.proc.err)}
			return snap
		default:
			snap.live = append(snap.live, target{index: s.index, addr: s.addr(), log: s.logPath})
		}
	}
	return snap
}

// probe checks the servers of snap once. fatal is an error waiting will not
// cure; problem, if not nil, says why the ensemble is not healthy yet.
func (e *Ensemble) probe(ctx context.Context, snap snapshot) (fatal, problem error) {
	if snap.fatal != nil {
		return snap.fatal, nil
	}
	if len(snap.live) == 0 {
		return nil, errors.New("no server is running")
	}
	leaders := 0
	for _, t := range snap.live {
		pctx, cancel := context.WithTimeout(ctx, probeTimeout)
		st, err := e.srvr(pctx, t.addr)
		cancel()
		if err != nil {
			return nil, fmt.Errorf("server %d: %w", t.index, err)
		}
		switch st.Mode {
		case ModeLeader, ModeStandalone:
			leaders++
		}
	}
	if leaders != 1 {
		return nil, fmt.Errorf("%w: %d servers report leader", ErrNoLeader, leaders)
	}
	return nil, nil
}

// WaitHealthy waits until every running, unpaused server answers srvr with
// a mode and exactly one of them is the leader (or, for N=1, the standalone
// server answers). A server that exited without Kill fails it at once.
// Killed and paused servers are not waited for, but a majority must be
// serving for the others to answer at all.
func (e *Ensemble) WaitHealthy(ctx context.Context) error {
	for {
		e.mu.Lock()
		snap := e.snapshotLocked()
		e.mu.Unlock()
		fatal, problem := e.probe(ctx, snap)
		if fatal != nil {
			return fatal
		}
		if problem == nil {
			return nil
		}
		if err := sleep(ctx, pollInterval); err != nil {
			return fmt.Errorf("ensemble: not healthy (%v): %w", problem, err)
		}
	}
}

// Leader returns the index of the server whose srvr reports Mode: leader
// (or standalone). It asks once, without waiting: ErrNoLeader if no running
// server, or more than one, claims leadership, as happens during an election.
func (e *Ensemble) Leader(ctx context.Context) (int, error) {
	e.mu.Lock()
	snap := e.snapshotLocked()
	e.mu.Unlock()
	if errors.Is(snap.fatal, ErrStopped) {
		return -1, ErrStopped
	}
	var leaders []int
	var lastErr error
	for _, t := range snap.live {
		pctx, cancel := context.WithTimeout(ctx, probeTimeout)
		st, err := e.srvr(pctx, t.addr)
		cancel()
		if err != nil {
			lastErr = err
			continue
		}
		if st.Mode == ModeLeader || st.Mode == ModeStandalone {
			leaders = append(leaders, t.index)
		}
	}
	if len(leaders) == 1 {
		return leaders[0], nil
	}
	if lastErr != nil {
		return -1, fmt.Errorf("%w: leaders %v (last error: %v)", ErrNoLeader, leaders, lastErr)
	}
	return -1, fmt.Errorf("%w: leaders %v", ErrNoLeader, leaders)
}

// Heal heals every cut link, resumes paused servers, restarts killed or
// crashed ones and waits until the ensemble is healthy: a test that injected process faults calls
// it so that the next test starts from a whole ensemble.
func (e *Ensemble) Heal(ctx context.Context) error {
	e.mu.Lock()
	e.healLinksLocked()
	e.mu.Unlock()
	for i := 0; i < len(e.servers); i++ {
		e.mu.Lock()
		s, err := e.serverLocked(i)
		if err != nil {
			e.mu.Unlock()
			return err
		}
		paused, dead := s.paused, s.proc == nil || s.proc.exited()
		e.mu.Unlock()
		switch {
		case dead:
			err = e.Restart(ctx, i)
		case paused:
			err = e.Resume(i)
		}
		if err != nil {
			return err
		}
	}
	return e.WaitHealthy(ctx)
}
