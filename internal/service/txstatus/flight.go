package txstatus

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/syncgate/syncgate/node"
)

// lockPoll is how often a submission waiting for another instance's asks
// Redis again; lockOpTimeout bounds one Redis call.
const (
	lockPoll       = 20 * time.Millisecond
	lockOpTimeout  = 500 * time.Millisecond
	lockCheckEvery = 5 // polls between two looks at the log
)

// unlockScript deletes the lock only while it is still this holder's.
var unlockScript = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

// lock takes the deployment-wide submission lock of key (SET NX with a
// TTL), waiting while another instance holds it. While it waits it asks
// answered every lockCheckEvery whether the holder's answer is in: a holder
// that answered but could not release the lock (Redis trouble) keeps no one
// waiting. Redis failing is no reason to refuse a submission: the flight
// then goes ahead, single per instance only. shared is true when answered
// gave the answer (res, err); otherwise a nil err means the lock is held
// (or Redis cannot hold it) and an error that ctx ended while waiting.
func (s *Service) lock(ctx context.Context, key string, answered func() (SubmitResult, bool, error)) (unlock func(), res SubmitResult, shared bool, err error) {
	none := func() {}
	if s.opts.Redis == nil {
		return none, SubmitResult{}, false, nil
	}
	rdb, k := s.opts.Redis.Redis(), s.opts.Redis.Key("txsubmit", key)
	var tok [16]byte
	_, _ = rand.Read(tok[:])
	token := hex.EncodeToString(tok[:])
	for attempt := 1; ; attempt++ {
		lctx, cancel := context.WithTimeout(ctx, lockOpTimeout)
		ok, err := rdb.SetNX(lctx, k, token, s.opts.LockTTL).Result()
		cancel()
		switch {
		case ctx.Err() != nil:
			return nil, SubmitResult{}, false, waitErr(ctx)
		case err != nil:
			s.log.Warn("submission lock unavailable; single flight per instance only", slog.String("error", err.Error()))
			return none, SubmitResult{}, false, nil
		case ok:
			return func() {
				uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), lockOpTimeout)
				defer cancel()
				_ = unlockScript.Run(uctx, rdb, []string{k}, token).Err()
			}, SubmitResult{}, false, nil
		}
		if attempt%lockCheckEvery == 0 {
			if res, ok, err := answered(); ok {
				return none, res, true, err
			}
		}
		select {
		case <-ctx.Done():
			return nil, SubmitResult{}, false, waitErr(ctx)
		case <-time.After(lockPoll):
		}
	}
}

// waitErr is why waiting for another submission's answer ended: the client
// went away, or time ran out (a node timeout to the client: the answer is
// still coming).
func waitErr(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.Canceled) {
		return fmt.Errorf("txstatus: waiting for a submission: %w", context.Canceled)
	}
	return fmt.Errorf("%w: waiting for another submission of the transaction", node.ErrTimeout)
}

// flights runs one submission per key at a time on this instance. A
// request joins the flight in progress, or takes the answer of the flight
// that ended after it started (it was concurrent with it), so concurrent
// submissions of the same bytes reach the node once.
type flights struct {
	mu   sync.Mutex
	m    map[string]*flight
	done map[string]finished
}

type flight struct {
	wait chan struct{}
	res  SubmitResult
	err  error
}

type finished struct {
	at  time.Time
	res SubmitResult
	err error
}

// keepFinished is how long a flight's answer is kept for requests that
// started before it ended; maxFinished bounds how many are kept.
const (
	keepFinished = time.Minute
	maxFinished  = 10_000
)

func (g *flights) do(ctx context.Context, key string, started time.Time, fn func(context.Context) (SubmitResult, error)) (SubmitResult, error) {
	g.mu.Lock()
	if f, ok := g.done[key]; ok && f.at.After(started) {
		g.mu.Unlock()
		return f.res, f.err
	}
	f, ok := g.m[key]
	if !ok {
		f = &flight{wait: make(chan struct{})}
		g.m[key] = f
		// The flight outlives the request that started it (the others
		// wait on it, and the node's answer must be recorded), within that
		// request's deadline.
		fctx, cancel := detached(ctx)
		go func() {
			defer cancel()
			f.res, f.err = fn(fctx)
			g.mu.Lock()
			delete(g.m, key)
			g.remember(key, finished{at: time.Now(), res: f.res, err: f.err})
			g.mu.Unlock()
			close(f.wait)
		}()
	}
	g.mu.Unlock()
	select {
	case <-f.wait:
		return f.res, f.err
	case <-ctx.Done():
		return SubmitResult{}, waitErr(ctx)
	}
}

// remember keeps a flight's answer (g.mu held), dropping expired ones when
// the book is full.
func (g *flights) remember(key string, f finished) {
	if len(g.done) >= maxFinished {
		for k, old := range g.done {
			if f.at.Sub(old.at) > keepFinished {
				delete(g.done, k)
			}
		}
		if len(g.done) >= maxFinished {
			return
		}
	}
	g.done[key] = f
}

// detached is ctx without its cancellation but with its deadline (or
// DefaultLockTTL when it has none).
func detached(ctx context.Context) (context.Context, context.CancelFunc) {
	base := context.WithoutCancel(ctx)
	if d, ok := ctx.Deadline(); ok {
		return context.WithDeadline(base, d)
	}
	return context.WithTimeout(base, DefaultLockTTL)
}
