package load

import (
	"context"
	"errors"
	"fmt"
	"path"
	"sync"
	"sync/atomic"

	"github.com/zklock/zklock/impl/zklock"
)

// The queue's recipes (Config.Recipe): the waiters of a round take a
// Mutex's lease, campaign in an Election (and proclaim once as leader), or
// take a lease of a Semaphore of Config.Max, as the library's users would.
const (
	RecipeLock      = "lock"
	RecipeElection  = "election"
	RecipeSemaphore = "semaphore"
)

// Recipes are the values of Config.Recipe.
var Recipes = []string{RecipeLock, RecipeElection, RecipeSemaphore}

// acquirer is one acquisition of the round's recipe on one session: it
// blocks until granted and returns how to give the grant back.
type acquirer func(ctx context.Context) (release func(context.Context) error, err error)

// newAcquirer makes the recipe's acquirer for session s on the queue path.
// Nothing is sent until it is called.
func (r *runner) newAcquirer(s *zklock.Session, p string) (acquirer, error) {
	switch r.cfg.Recipe {
	case RecipeElection:
		e, err := zklock.NewElection(s, p)
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context) (func(context.Context) error, error) {
			l, err := e.Campaign(ctx, []byte("campaign"))
			if err != nil {
				return nil, err
			}
			// A leader proclaims once: the observers' watch fires, the
			// next candidate's data watch too (it lists again).
			if err := l.Proclaim(ctx, []byte("proclaimed")); err != nil {
				return nil, fmt.Errorf("proclaim: %w", err)
			}
			return l.Resign, nil
		}, nil
	case RecipeSemaphore:
		sm, err := zklock.NewSemaphore(s, p, r.cfg.Max)
		if err != nil {
			return nil, err
		}
		return leaseAcquirer(sm.Acquire), nil
	default:
		m, err := zklock.NewMutex(s, p)
		if err != nil {
			return nil, err
		}
		return leaseAcquirer(m.Lock), nil
	}
}

func leaseAcquirer(acquire func(context.Context) (*zklock.Lease, error)) acquirer {
	return func(ctx context.Context) (func(context.Context) error, error) {
		l, err := acquire(ctx)
		if err != nil {
			return nil, err
		}
		return l.Unlock, nil
	}
}

// holds is how many grants the round's holder takes so that every waiter
// queues behind it: a Semaphore's max, one otherwise.
func (r *runner) holds() int {
	if r.cfg.Recipe == RecipeSemaphore {
		return r.cfg.Max
	}
	return 1
}

// queued counts the waiting acquisitions of the round on p, from the admin
// session: a Mutex's contenders (the holder's node among them) or the
// candidates of an Election (the holder's among them), or the nodes of a
// Semaphore's internal mutex, where its acquirers queue in single file
// while the holder's leases are all taken (the holder's released its own).
func (r *runner) queued(ctx context.Context, p string) (n, want int, err error) {
	switch r.cfg.Recipe {
	case RecipeElection, RecipeSemaphore:
		dir, want := p, r.cfg.Waiters+1
		if r.cfg.Recipe == RecipeSemaphore {
			dir, want = path.Join(p, "locks"), r.cfg.Waiters
		}
		names, _, err := r.admin.Conn().Children(dir)
		return len(names), want, err
	default:
		m, err := zklock.NewMutex(r.admin, p)
		if err != nil {
			return 0, 0, err
		}
		c, err := m.Contenders(ctx)
		return len(c), r.cfg.Waiters + 1, err
	}
}

// observers are an election round's observations, one per waiter session,
// counting what they report.
type observers struct {
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	reports atomic.Int64
	mu      sync.Mutex
	ended   []error // observations that ended before the round did
}

// observe starts the round's observers (none unless the recipe is an
// election).
func (r *runner) observe(ctx context.Context, p string, sessions []*busy) (*observers, error) {
	ctx, cancel := context.WithCancel(ctx)
	o := &observers{cancel: cancel}
	if r.cfg.Recipe != RecipeElection {
		return o, nil
	}
	for _, b := range sessions {
		e, err := zklock.NewElection(b.s, p)
		if err == nil {
			var obs *zklock.Observation
			if obs, err = e.Observe(ctx); err == nil {
				o.wg.Add(1)
				go o.drain(ctx, obs, b.name)
				continue
			}
		}
		o.stop()
		return nil, fmt.Errorf("observing %s: %w", p, err)
	}
	return o, nil
}

// drain counts obs's reports until it closes; closed before ctx ended, it
// is an observation lost under load.
func (o *observers) drain(ctx context.Context, obs *zklock.Observation, session string) {
	defer o.wg.Done()
	for range obs.Leaders() {
		o.reports.Add(1)
	}
	if ctx.Err() == nil {
		o.mu.Lock()
		o.ended = append(o.ended, fmt.Errorf("the observer on %s stopped: %w", session, obs.Err()))
		o.mu.Unlock()
	}
}

// stop ends the observations and returns their reports, and an error if
// any had stopped by itself.
func (o *observers) stop() (int, error) {
	o.cancel()
	o.wg.Wait()
	o.mu.Lock()
	defer o.mu.Unlock()
	return int(o.reports.Load()), errors.Join(o.ended...)
}
