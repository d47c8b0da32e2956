package cache

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Leases: each instance takes a small slice of a credential's tokens from
// the shared GCRA in Redis in one call and spends them locally, so a busy
// credential costs one round trip per slice instead of one per request.
//
// Why the overshoot is bounded: Redis never grants a token the GCRA would
// not have allowed, and an instance never spends a token it was not
// granted. The only tokens that escape the GCRA's cap (burst = the
// per-minute limit) are those held, leased and not yet spent, when the
// bucket is full again; each instance holds at most one slice per
// credential, so over any window at most instances × slice requests go
// beyond what the exact GCRA allows. A slice is at most
// limit × leaseOvershoot / instances, so that stays within 5 % of the
// limit for the configured number of instances. Credentials whose limit
// is too small for a slice of two (under 160 a minute with 4 instances)
// lease one token at a time: every request asks Redis, as before.
//
// Slices follow demand: the first is one token, each that runs out before
// it expires doubles the next (up to the cap), and one that expires
// with tokens left shrinks the next to what was used. Left-over tokens
// are given back to Redis in the next lease call (the GCRA's time moves
// back, never below now), so an instance that went quiet hoards at most
// one slice, and only until the bucket refills.

// leaseTTL is how long leased tokens may be spent. It is also the oldest
// credential-cache version a request served from a lease relies on (the
// version is read in each lease call), which is why it equals the auth
// package's FallbackTTL: without a lease call, auth re-checks an entry
// Redis last vouched for over a second ago.
const leaseTTL = time.Second

// leaseOvershoot is the share of the per-minute limit that all instances'
// unspent slices together may hold.
const leaseOvershoot = 0.05

// DefaultInstances is how many instances the slices are sized for when
// nothing else is configured (RATE_LIMIT_INSTANCES).
const DefaultInstances = 4

// leaseSweepAt is the lease book's size from which idle leases are
// dropped when a new one is added.
const leaseSweepAt = 10_000

// leaseScript takes up to ARGV[3] tokens from the GCRA at KEYS[1] after
// giving back ARGV[4] unspent ones. The key and its value (the theoretical
// arrival time, seconds since 2017-01-01, Redis' clock) are redis_rate's,
// so instances running the previous per-request limiter share the budget
// during a rolling upgrade. It returns {granted, remaining after the grant,
// seconds until one token is available (when none was granted), seconds
// until the bucket is full}.
var leaseScript = redis.NewScript(`
redis.replicate_commands()
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local period = tonumber(ARGV[2])
local want = tonumber(ARGV[3])
local giveback = tonumber(ARGV[4])
local emission = period / limit
-- the bucket holds ARGV[5] tokens (the burst; the per-minute limit unless a plan sets one)
local cap = tonumber(ARGV[5] or limit) * emission
local t = redis.call("TIME")
local now = (t[1] - 1483228800) + (t[2] / 1000000)
local tat = tonumber(redis.call("GET", key) or now)
if tat < now then tat = now end
if giveback > 0 then tat = math.max(now, tat - giveback * emission) end
-- whole tokens in the bucket (the epsilon absorbs float error)
local avail = math.floor((now - tat + cap) / emission + 1e-6)
if avail < 0 then avail = 0 end
local grant = math.min(want, avail)
tat = tat + grant * emission
local reset = tat - now
if reset > 0 and (grant > 0 or giveback > 0) then
  redis.call("SET", key, tat, "EX", math.ceil(reset))
end
local retry = -1
if grant == 0 then retry = tat - cap + emission - now end
return {grant, avail - grant, tostring(retry), tostring(reset)}
`)

// grant is one lease call's answer.
type grant struct {
	tokens     int
	remaining  int // in Redis after the grant
	retryAfter time.Duration
	resetAfter time.Duration
}

// lease is one credential's slice on this instance. Guarded by leaseBook.mu.
type lease struct {
	limit   int
	burst   int
	tokens  int       // leased and not yet spent
	expires time.Time // tokens are void from then on
	granted int       // size of the last grant
	size    int       // tokens to ask for next
	// Redis' answer to the last call, for the headers of local decisions.
	at           time.Time
	remaining    int
	resetAfter   time.Duration
	refusedUntil time.Time     // Redis had no token until then
	busy         chan struct{} // closed when the lease call under way ends
}

type leaseBook struct {
	mu sync.Mutex
	m  map[string]*lease
	// sweepAt is the size that triggers the next sweep: twice what the
	// last one left (at least leaseSweepAt), so a book full of live leases
	// (a flood of client IPs on the failed-authentication limit) is not
	// swept on every insert.
	sweepAt int
}

// leaseCall is a lease call this request makes for everyone.
type leaseCall struct {
	l        *lease
	want     int
	giveback int
}

// take spends a leased token of id, or refuses from a recent refusal, or
// tells the caller to wait for a lease call under way, or to make one.
func (b *leaseBook) take(id string, limit, burst, maxSlice int, now time.Time) (d Decision, call *leaseCall, wait chan struct{}) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m == nil {
		b.m = map[string]*lease{}
	}
	l := b.m[id]
	if l == nil || l.limit != limit || l.burst != burst {
		if l == nil && len(b.m) >= max(b.sweepAt, leaseSweepAt) {
			b.sweep(now)
			b.sweepAt = 2 * len(b.m)
		}
		l = &lease{limit: limit, burst: burst, size: 1}
		b.m[id] = l
	}
	live := now.Before(l.expires)
	switch {
	case l.tokens > 0 && live:
		l.tokens--
		return l.local(now, true), nil, nil
	case now.Before(l.refusedUntil):
		return l.local(now, false), nil, nil
	case l.busy != nil:
		return Decision{}, nil, l.busy
	}
	// Size the next slice from how the last one went.
	giveback := l.tokens // void: the lease expired
	switch {
	case giveback > 0:
		l.size = max(1, l.granted-giveback)
	case live && l.granted >= l.size:
		l.size *= 2 // spent before it expired
	}
	l.size = min(l.size, maxSlice)
	l.tokens = 0
	l.busy = make(chan struct{})
	return Decision{}, &leaseCall{l: l, want: l.size, giveback: giveback}, nil
}

// done records the answer of c (err: Redis failed) and wakes the waiters.
// The caller's request takes the first granted token.
func (b *leaseBook) done(c *leaseCall, g grant, err error, now time.Time) Decision {
	b.mu.Lock()
	defer b.mu.Unlock()
	l := c.l
	close(l.busy)
	l.busy = nil
	if err != nil {
		return Decision{}
	}
	l.at, l.remaining, l.resetAfter, l.granted = now, g.remaining, g.resetAfter, g.tokens
	if g.tokens == 0 {
		l.refusedUntil = now.Add(g.retryAfter)
		return l.local(now, false)
	}
	l.tokens, l.expires = g.tokens-1, now.Add(leaseTTL)
	return l.local(now, true)
}

// local is the decision for a request answered from l at now: headers from
// Redis' last answer, aged by the time since.
func (l *lease) local(now time.Time, allowed bool) Decision {
	since := now.Sub(l.at)
	d := Decision{Limit: l.limit, Allowed: allowed, Shared: true, ResetAfter: max(0, l.resetAfter-since)}
	if !allowed {
		d.RetryAfter = max(time.Nanosecond, l.refusedUntil.Sub(now))
		return d
	}
	// What this credential can still do: what Redis had left, refilled
	// since at the limit's pace, plus what this instance still holds.
	refill := int(since * time.Duration(l.limit) / time.Minute)
	d.Remaining = min(l.burst-1, l.remaining+refill+l.tokens)
	d.RetryAfter = -1
	return d
}

// sweep drops leases nobody is using: expired, not refused, no call under way.
func (b *leaseBook) sweep(now time.Time) {
	for id, l := range b.m {
		if l.busy == nil && !now.Before(l.expires) && !now.Before(l.refusedUntil) {
			delete(b.m, id)
		}
	}
}

// callLease runs leaseScript for c, with a GET of peek (when not empty) in
// the same round trip.
func (lm *Limiter) callLease(ctx context.Context, key string, limit, burst int, c *leaseCall, peek string) (g grant, peeked string, peekOK bool, err error) {
	var (
		cmd *redis.Cmd
		pb  *piggyback
	)
	err = lm.fast.Do(ctx, func(ctx context.Context, rdb redis.UniversalClient) error {
		pb = &piggyback{UniversalClient: rdb, peekKey: peek}
		cmd = leaseScript.Run(ctx, pb, []string{key}, limit, int(time.Minute/time.Second), c.want, c.giveback, burst)
		return cmd.Err()
	})
	if err != nil {
		return grant{}, "", false, err
	}
	if g, err = parseGrant(cmd); err != nil {
		return grant{}, "", false, err
	}
	if peek != "" && pb.peek != nil {
		v, err := pb.peek.Result()
		switch {
		case err == nil:
			peeked, peekOK = v, true
		case errors.Is(err, redis.Nil):
			peekOK = true
		}
	}
	return g, peeked, peekOK, nil
}

func parseGrant(cmd *redis.Cmd) (grant, error) {
	v, err := cmd.Slice()
	if err != nil {
		return grant{}, err
	}
	if len(v) != 4 {
		return grant{}, fmt.Errorf("cache: lease script returned %d values", len(v))
	}
	n, ok1 := v[0].(int64)
	rem, ok2 := v[1].(int64)
	retry, ok3 := v[2].(string)
	reset, ok4 := v[3].(string)
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return grant{}, fmt.Errorf("cache: lease script returned %v", v)
	}
	retryS, err1 := strconv.ParseFloat(retry, 64)
	resetS, err2 := strconv.ParseFloat(reset, 64)
	if err1 != nil || err2 != nil {
		return grant{}, fmt.Errorf("cache: lease script returned %v", v)
	}
	return grant{tokens: int(n), remaining: int(rem), retryAfter: seconds(retryS), resetAfter: seconds(resetS)}, nil
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
