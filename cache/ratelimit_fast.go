package cache

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// Hot-path Redis budget. Authentication and rate limiting sit in front of
// every data request, so a slow or dead Redis must cost at most this much,
// once: after a failure the circuit opens and requests skip Redis entirely
// (local fallbacks) until the cool-down has passed.
const (
	// AuthFailureTimeout is the deadline of a pool that counts failed
	// authentications: they are not on the hot path, and a count that
	// missed the 50 ms deadline fell back to a budget of the instance's own
	// on top of the shared one (two instances under load let twice the
	// budget through). Only a Redis that is down counts per instance.
	AuthFailureTimeout = time.Second

	fastTimeout  = 50 * time.Millisecond
	fastCoolDown = 3 * time.Second
)

// ErrRedisSkipped means the call did not go to Redis: none is configured, or
// the circuit is open after a recent failure. Callers use their fallback.
var ErrRedisSkipped = errors.New("cache: redis skipped")

// FastClient is the Redis client of the request hot path: its own
// connection pool with tight timeouts that honour the context deadline (the
// caches' 100 ms per call is too much in front of every request), no
// retries, and a circuit breaker. A nil *FastClient is valid and always
// answers ErrRedisSkipped.
type FastClient struct {
	rdb      redis.UniversalClient
	prefix   string
	timeout  time.Duration
	coolDown time.Duration
	now      func() time.Time

	owned bool // the pool is ours to close

	openUntil atomic.Int64 // unix nanoseconds; Redis is skipped before this
	calls     atomic.Int64 // calls that went to Redis (tests, metrics)
}

// FastOptions tunes a FastClient; zero values take the defaults above.
type FastOptions struct {
	Timeout  time.Duration
	CoolDown time.Duration
	Now      func() time.Time // the breaker's clock (tests move it)
}

// NewFastClient opens a hot-path pool to the same Redis as c, with the same
// key prefix. It returns nil when c is nil (no Redis configured).
func NewFastClient(c *Client, o FastOptions) *FastClient {
	if c == nil {
		return nil
	}
	if o.Timeout <= 0 {
		o.Timeout = fastTimeout
	}
	if o.CoolDown <= 0 {
		o.CoolDown = fastCoolDown
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	f := &FastClient{prefix: c.prefix, timeout: o.Timeout, coolDown: o.CoolDown, now: o.Now, owned: true}
	switch r := c.rdb.(type) {
	case *redis.Client:
		opt := *r.Options()
		opt.Dialer = nil // the default dialer captures the options it was built from
		opt.DialTimeout, opt.ReadTimeout, opt.WriteTimeout, opt.PoolTimeout = o.Timeout, o.Timeout, o.Timeout, o.Timeout
		opt.MaxRetries, opt.DialerRetries, opt.ContextTimeoutEnabled = -1, 1, true
		f.rdb = redis.NewClient(&opt)
	case *redis.ClusterClient:
		opt := *r.Options()
		opt.Dialer = nil
		opt.DialTimeout, opt.ReadTimeout, opt.WriteTimeout, opt.PoolTimeout = o.Timeout, o.Timeout, o.Timeout, o.Timeout
		opt.MaxRetries, opt.DialerRetries, opt.ContextTimeoutEnabled = -1, 1, true
		f.rdb = redis.NewClusterClient(&opt)
	default:
		f.rdb, f.owned = c.rdb, false
	}
	return f
}

// Key joins parts under the prefix, as Client.Key does.
func (f *FastClient) Key(parts ...string) string {
	if f == nil {
		return strings.Join(parts, ":")
	}
	return f.prefix + strings.Join(parts, ":")
}

// Do runs fn against Redis under the hot-path deadline, unless the circuit
// is open. Any error other than redis.Nil opens the circuit for the
// cool-down, so the requests that follow do not wait on a dead Redis.
func (f *FastClient) Do(ctx context.Context, fn func(ctx context.Context, rdb redis.UniversalClient) error) error {
	if f == nil || f.now().UnixNano() < f.openUntil.Load() {
		return ErrRedisSkipped
	}
	f.calls.Add(1)
	callCtx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	err := fn(callCtx, f.rdb)
	// A caller that went away is not Redis' fault: only trip on our deadline
	// or a Redis/network error.
	if err != nil && !errors.Is(err, redis.Nil) && ctx.Err() == nil {
		f.openUntil.Store(f.now().Add(f.coolDown).UnixNano())
	}
	return err
}

// DoNow runs fn even while the circuit is open, under a longer deadline
// (ten times the hot-path one): for rare writes whose effect matters more
// than their latency, such as announcing a credential invalidation after an
// admin change. A success closes the circuit.
func (f *FastClient) DoNow(ctx context.Context, fn func(ctx context.Context, rdb redis.UniversalClient) error) error {
	if f == nil {
		return ErrRedisSkipped
	}
	f.calls.Add(1)
	callCtx, cancel := context.WithTimeout(ctx, 10*f.timeout)
	defer cancel()
	err := fn(callCtx, f.rdb)
	if err == nil {
		f.openUntil.Store(0)
	}
	return err
}

// Available reports whether a call now would go to Redis.
func (f *FastClient) Available() bool {
	return f != nil && f.now().UnixNano() >= f.openUntil.Load()
}

// Calls is the number of calls that went to Redis so far.
func (f *FastClient) Calls() int64 {
	if f == nil {
		return 0
	}
	return f.calls.Load()
}

// Close closes the pool.
func (f *FastClient) Close() error {
	if f == nil || !f.owned {
		return nil
	}
	return f.rdb.Close()
}
