package cache

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// Quota counters: one Redis hash per user and UTC day or month,
// {n: requests counted, g: generation, t: when the generation was
// rebuilt}. Counting is one script call that increments both periods
// atomically; a period whose hash is missing (a new period, or Redis lost
// it) is refused by the script until the caller has rebuilt it from
// PostgreSQL (QuotaCounter.Rebuild, a create-if-missing), so no user ever
// starts from zero by accident. The generation tells the instances that
// counted before a rebuild to add what they counted and PostgreSQL did not
// hold yet (QuotaCounter.Add).

// QuotaPeriod is one counter of a quota check.
type QuotaPeriod struct {
	Key string // from QuotaCounter.Key
	// TTL bounds the key's life (a little over its period).
	TTL time.Duration
}

// QuotaState is a counter's state after a check.
type QuotaState struct {
	Count int64  // requests counted in the period, this one included
	Gen   string // the counter's generation
	// Snapshot is the PostgreSQL snapshot the generation was rebuilt from
	// (txid_current_snapshot text): what it saw of each usage flush.
	Snapshot string
}

// ErrQuotaMissing: a counter of the check does not exist (Missing says
// which); nothing was counted.
var ErrQuotaMissing = errors.New("cache: quota counter missing")

// QuotaMissingError is ErrQuotaMissing naming the counter (index in the
// periods of the call).
type QuotaMissingError struct{ Index int }

func (e *QuotaMissingError) Error() string { return ErrQuotaMissing.Error() }
func (e *QuotaMissingError) Unwrap() error { return ErrQuotaMissing }

// quotaScript counts one request in every counter KEYS[i], or none when one
// is missing ({-1, i}). Returns {1, n1, g1, t1, n2, g2, t2, …}.
var quotaScript = redis.NewScript(`
for i = 1, #KEYS do
  if redis.call("EXISTS", KEYS[i]) == 0 then return {-1, i} end
end
local out = {1}
for i = 1, #KEYS do
  local n = redis.call("HINCRBY", KEYS[i], "n", 1)
  local gt = redis.call("HMGET", KEYS[i], "g", "t")
  out[#out + 1] = n
  out[#out + 1] = gt[1] or ""
  out[#out + 1] = gt[2] or ""
end
return out
`)

// quotaRebuildScript creates KEYS[1] as {n: ARGV[1], g: ARGV[2], t: ARGV[3]}
// with TTL ARGV[4] seconds unless it exists; returns 1 when it did.
var quotaRebuildScript = redis.NewScript(`
if redis.call("EXISTS", KEYS[1]) == 1 then return 0 end
redis.call("HSET", KEYS[1], "n", ARGV[1], "g", ARGV[2], "t", ARGV[3])
redis.call("EXPIRE", KEYS[1], ARGV[4])
return 1
`)

// quotaAddScript adds ARGV[2] to KEYS[1] if its generation is still ARGV[1].
var quotaAddScript = redis.NewScript(`
if redis.call("HGET", KEYS[1], "g") ~= ARGV[1] then return 0 end
redis.call("HINCRBY", KEYS[1], "n", ARGV[2])
return 1
`)

// quotaPeekScript reads every counter KEYS[i] without counting: {n1, n2,
// …}, -1 for a missing one. One call, so both periods are read at once.
var quotaPeekScript = redis.NewScript(`
local out = {}
for i = 1, #KEYS do
  local n = redis.call("HGET", KEYS[i], "n")
  if n then out[i] = tonumber(n) else out[i] = -1 end
end
return out
`)

// QuotaCounter runs the quota scripts over the hot-path client.
type QuotaCounter struct{ fast *FastClient }

// NewQuotaCounter returns a counter over fast (nil: every call answers
// ErrRedisSkipped).
func NewQuotaCounter(fast *FastClient) *QuotaCounter { return &QuotaCounter{fast: fast} }

// Key is the counter of user for period (e.g. "d:2030-01-15"), under the
// hot-path prefix; the user is a hash tag, so one user's counters share a
// Redis Cluster slot and one script can touch them all.
func (q *QuotaCounter) Key(user, period string) string {
	if q == nil || q.fast == nil {
		return "quota:{" + user + "}:" + period
	}
	return q.fast.Key("quota", "{"+user+"}", period)
}

// Count counts one request in every period, atomically; a missing counter
// is *QuotaMissingError and counts nothing.
func (q *QuotaCounter) Count(ctx context.Context, periods []QuotaPeriod) ([]QuotaState, error) {
	if q == nil {
		return nil, ErrRedisSkipped
	}
	keys := make([]string, len(periods))
	for i, p := range periods {
		keys[i] = p.Key
	}
	var v []any
	err := q.fast.Do(ctx, func(ctx context.Context, rdb redis.UniversalClient) error {
		var err error
		v, err = quotaScript.Run(ctx, rdb, keys).Slice()
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(v) == 2 {
		if flag, _ := v[0].(int64); flag == -1 {
			i, _ := v[1].(int64)
			return nil, &QuotaMissingError{Index: int(i) - 1}
		}
	}
	if len(v) != 1+3*len(periods) {
		return nil, fmt.Errorf("cache: quota script returned %v", v)
	}
	out := make([]QuotaState, len(periods))
	for i := range periods {
		n, ok1 := v[1+3*i].(int64)
		g, ok2 := v[2+3*i].(string)
		snap, ok3 := v[3+3*i].(string)
		if !ok1 || !ok2 || !ok3 {
			return nil, fmt.Errorf("cache: quota script returned %v", v)
		}
		out[i] = QuotaState{Count: n, Gen: g, Snapshot: snap}
	}
	return out, nil
}

// Peek reads the counts of keys without counting; -1: that counter is
// missing (nothing is created).
func (q *QuotaCounter) Peek(ctx context.Context, keys []string) ([]int64, error) {
	if q == nil {
		return nil, ErrRedisSkipped
	}
	var v []int64
	err := q.fast.Do(ctx, func(ctx context.Context, rdb redis.UniversalClient) error {
		var err error
		v, err = quotaPeekScript.Run(ctx, rdb, keys).Int64Slice()
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(v) != len(keys) {
		return nil, fmt.Errorf("cache: quota peek returned %v", v)
	}
	return v, nil
}

// Rebuild creates p's counter at n, generation gen read in snapshot,
// unless it exists (another instance rebuilt it first: created is false).
func (q *QuotaCounter) Rebuild(ctx context.Context, p QuotaPeriod, n int64, gen, snapshot string) (created bool, err error) {
	if q == nil {
		return false, ErrRedisSkipped
	}
	err = q.fast.Do(ctx, func(ctx context.Context, rdb redis.UniversalClient) error {
		r, err := quotaRebuildScript.Run(ctx, rdb, []string{p.Key}, n, gen, snapshot, max(1, int64(p.TTL/time.Second))).Int()
		created = r == 1
		return err
	})
	return created, err
}

// Add adds n to key's count if its generation is still gen; current says
// whether it was (n may be 0, to ask).
func (q *QuotaCounter) Add(ctx context.Context, key, gen string, n int64) (current bool, err error) {
	if q == nil {
		return false, ErrRedisSkipped
	}
	err = q.fast.Do(ctx, func(ctx context.Context, rdb redis.UniversalClient) error {
		r, err := quotaAddScript.Run(ctx, rdb, []string{key}, gen, n).Int()
		current = r == 1
		return err
	})
	return current, err
}
