package cache

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"
)

// Decision is the outcome of one rate-limit check.
type Decision struct {
	Limit      int           // requests per minute
	Allowed    bool          // this request may proceed
	Remaining  int           // requests left after this one (4, 3, 2, 1, 0 for a limit of 5)
	RetryAfter time.Duration // when refused: until the next request is allowed
	ResetAfter time.Duration // until the full burst is available again
	// Shared is true when Redis decided (one limit across all instances),
	// false when the per-instance fallback did.
	Shared bool
	// Peeked is the value of the key passed to Allow as peek, read in the
	// same Redis round trip ("" when the key does not exist). PeekOK is
	// false when it could not be read (Redis skipped or failed).
	Peeked string
	PeekOK bool
}

// Limiter is the per-credential GCRA rate limiter: one budget shared by
// all instances through Redis, spent in small leased slices (lease.go),
// with an in-process GCRA of the same shape taking over at once when Redis
// is absent, slow or down.
type Limiter struct {
	fast      *FastClient
	local     localGCRA
	leases    leaseBook
	now       func() time.Time
	instances int
}

// DefaultPerMinute is the spec's default rate_limit_per_minute.
const DefaultPerMinute = 60

// NewLimiter returns a limiter over fast (nil: local only), its slices
// sized for DefaultInstances instances.
func NewLimiter(fast *FastClient, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{fast: fast, now: now, local: localGCRA{tat: map[string]time.Time{}}, instances: DefaultInstances}
}

// ForInstances sizes the slices for n instances sharing the budget (call
// it before the first Allow): more instances, smaller slices, the same
// bound on the overshoot.
func (l *Limiter) ForInstances(n int) *Limiter {
	l.instances = max(1, n)
	return l
}

// maxSlice is the most tokens one instance may hold of a perMinute budget.
func (l *Limiter) maxSlice(perMinute int) int {
	return max(1, int(float64(perMinute)*leaseOvershoot/float64(l.instances)))
}

// Allow counts one request of id against perMinute requests per minute
// (burst perMinute). When it asks Redis, a non-empty peek key is read in
// the same round trip (Decision.PeekOK); a request answered from a leased
// slice asks nothing.
func (l *Limiter) Allow(ctx context.Context, id string, perMinute int, peek string) Decision {
	return l.AllowBurst(ctx, id, perMinute, 0, peek)
}

// AllowBurst is Allow with a burst other than the per-minute limit (a
// plan's; 0: the limit).
func (l *Limiter) AllowBurst(ctx context.Context, id string, perMinute, burst int, peek string) Decision {
	if perMinute < 1 {
		// The schema guarantees 1..10000; a zero here is a caller bug, and
		// GCRA divides by the rate, so fall back to the spec default.
		perMinute = DefaultPerMinute
	}
	if burst < 1 {
		burst = perMinute
	}
	limit := redis_rate.Limit{Rate: perMinute, Burst: burst, Period: time.Minute}
	if l.fast == nil {
		return l.local.allow(id, limit, l.now())
	}
	for {
		now := l.now()
		d, call, wait := l.leases.take(id, perMinute, burst, min(l.maxSlice(perMinute), max(1, burst/2)), now)
		switch {
		case wait != nil:
			// Another request of this credential is leasing: its slice
			// serves this one too.
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return l.fallback(id, limit, now)
			}
		case call == nil:
			return d
		}
		// redis_rate's key, under our prefix: "rate:<prefix>rl:<id>".
		g, peeked, peekOK, err := l.callLease(ctx, "rate:"+l.fast.Key("rl", id), perMinute, burst, call, peek)
		d = l.leases.done(call, g, err, l.now())
		if err != nil {
			return l.fallback(id, limit, l.now())
		}
		d.Peeked, d.PeekOK = peeked, peekOK
		return d
	}
}

// fallback decides for id in this instance alone, while Redis is skipped or
// missed its deadline: each instance spends only its share of the budget
// (limit and burst / the instances the limiter is sized for, at least 1),
// so instances that all fall back at once grant the budget in total, not
// each (max(limit, instances) when the limit is smaller than the number
// of instances). The answer names the credential's limit, not the share.
// Without Redis configured at all (fast nil) the budget is the instance's.
func (l *Limiter) fallback(id string, limit redis_rate.Limit, now time.Time) Decision {
	share := limit
	share.Rate = max(1, limit.Rate/l.instances)
	share.Burst = max(1, limit.Burst/l.instances)
	d := l.local.allow(id, share, now)
	d.Limit = limit.Rate
	return d
}

// piggyback hands a script runner a client whose script calls travel in one
// pipeline together with a GET of peekKey: the rate limit and the
// credential-cache check cost a single round trip.
type piggyback struct {
	redis.UniversalClient
	peekKey string
	peek    *redis.StringCmd
}

func (p *piggyback) EvalSha(ctx context.Context, sha1 string, keys []string, args ...any) *redis.Cmd {
	return p.withPeek(ctx, func(pl redis.Pipeliner) *redis.Cmd { return pl.EvalSha(ctx, sha1, keys, args...) })
}

func (p *piggyback) Eval(ctx context.Context, script string, keys []string, args ...any) *redis.Cmd {
	return p.withPeek(ctx, func(pl redis.Pipeliner) *redis.Cmd { return pl.Eval(ctx, script, keys, args...) })
}

func (p *piggyback) withPeek(ctx context.Context, script func(redis.Pipeliner) *redis.Cmd) *redis.Cmd {
	pl := p.UniversalClient.Pipeline()
	if p.peekKey != "" {
		p.peek = pl.Get(ctx, p.peekKey)
	}
	cmd := script(pl)
	_, _ = pl.Exec(ctx) // each command carries its own error
	return cmd
}

// localGCRA is redis_rate's algorithm in process: the per-instance limiter
// used while Redis is unavailable. tat is each key's theoretical arrival time.
type localGCRA struct {
	mu  sync.Mutex
	tat map[string]time.Time
}

// localSweepAt bounds the map: past this size, keys whose limit has fully
// reset are dropped on the next insert.
const localSweepAt = 10_000

func (g *localGCRA) allow(key string, limit redis_rate.Limit, now time.Time) Decision {
	emission := limit.Period / time.Duration(limit.Rate)
	burstOffset := emission * time.Duration(limit.Burst)

	g.mu.Lock()
	defer g.mu.Unlock()
	tat, ok := g.tat[key]
	if !ok || tat.Before(now) {
		tat = now
	}
	newTAT := tat.Add(emission)
	allowAt := newTAT.Add(-burstOffset)
	diff := now.Sub(allowAt)
	d := Decision{Limit: limit.Rate}
	if diff < 0 {
		d.RetryAfter = -diff
		d.ResetAfter = tat.Sub(now)
		return d
	}
	if len(g.tat) >= localSweepAt {
		for k, t := range g.tat {
			if !t.After(now) {
				delete(g.tat, k)
			}
		}
	}
	g.tat[key] = newTAT
	d.Allowed = true
	d.Remaining = int(math.Floor(float64(diff) / float64(emission)))
	d.RetryAfter = -1
	d.ResetAfter = newTAT.Sub(now)
	return d
}
