// Package cache is syncgate's use of Redis: the client (single node or
// Cluster); Cache, the one read-through cache every Redis-backed cache is
// built on (typed values, TTL, remembered "not found", single-flight, and a
// bounded in-process fallback); and the per-credential rate limiter with
// the hot-path client it runs on (FastClient). Redis is a helper, never the
// truth: when it is absent, slow or down, a cache falls back to its local
// store and its loader, never to an error.
package cache

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/syncgate/syncgate/internal/platform/metrics"
)

// Defaults of the local fallback: short-lived, because it is one
// instance's view (it cannot see what the others store), and small.
const (
	DefaultLocalTTL   = 5 * time.Second
	DefaultLocalBytes = 4 << 20
)

// notFoundMarker is how a remembered "not found" is stored, in Redis and
// locally. It is not JSON, so no cached value can look like it, and an
// instance that does not know it (an older version during a rolling
// deploy) reads it as an unusable value: a miss.
var notFoundMarker = []byte("\x00syncgate:not-found")

// Options configures a Cache.
type Options struct {
	// TTL is how long a loaded value is kept (GetTTL's loader may say
	// otherwise per value); zero means one minute.
	TTL time.Duration
	// NotFound is the error by which the loader says "there is no such
	// thing" (matched with errors.Is). When it and NegativeTTL are set,
	// that answer is remembered for NegativeTTL and later Gets return
	// NotFound without loading.
	NotFound    error
	NegativeTTL time.Duration
	// LocalTTL caps how long an entry lives in the local fallback
	// (default DefaultLocalTTL); LocalBytes bounds that store's size
	// (default DefaultLocalBytes).
	LocalTTL   time.Duration
	LocalBytes int
	// LocalFirst says a key's value never changes (its key names the
	// chain tip it was read at): a value this instance holds is served
	// from the local store without asking Redis, and a value read from
	// Redis is kept locally (for LocalTTL). A hot answer then costs no
	// round trip and no copy from Redis: a busy slot's 400 kB detailed
	// page is a map lookup, not 400 kB read back and validated.
	LocalFirst bool
	// Admit, when set, stores an answer only when its key is asked for
	// again (Admission): a value loaded once is answered and forgotten.
	Admit *Admission
}

// Cache is a read-through cache of T under one name: the first part of its
// Redis keys ("<prefix><name>:<key>") and its label in the cache metrics.
//
// Get looks in Redis; when Redis is absent, skipped after a failure or
// cannot read the key, it looks in the local store instead. On a miss the
// loader runs once per key however many callers wait (single-flight), and
// its value is stored in Redis and locally. A value that cannot be decoded
// (corrupt, or written by someone else) is a miss. Every Redis call is
// bounded by a short timeout.
type Cache[T any] struct {
	rc     *Client
	name   string
	opts   Options
	encode func(T) ([]byte, error)
	decode func([]byte) (T, error)
	// trusted decodes bytes this process encoded or already decoded once
	// (local entries): for raw JSON no second validation.
	trusted func([]byte) (T, error)

	local   localStore
	flights flightGroup
}

// NewJSON returns a cache of values stored as JSON. rc may be nil (no
// Redis configured): the local store is then the only cache.
func NewJSON[T any](rc *Client, name string, o Options) *Cache[T] {
	decode := func(b []byte) (T, error) {
		var v T
		err := json.Unmarshal(b, &v)
		return v, err
	}
	return newCache(rc, name, o, func(v T) ([]byte, error) { return json.Marshal(v) }, decode, decode)
}

// NewRawJSON returns a cache of JSON documents kept byte for byte as the
// loader made them (whole responses); a stored value that is not valid
// JSON is a miss.
func NewRawJSON(rc *Client, name string, o Options) *Cache[[]byte] {
	same := func(b []byte) ([]byte, error) { return b, nil }
	return newCache(rc, name, o, same,
		func(b []byte) ([]byte, error) {
			if !json.Valid(b) {
				return nil, errors.New("not JSON")
			}
			return b, nil
		}, same)
}

func newCache[T any](rc *Client, name string, o Options, encode func(T) ([]byte, error), decode, trusted func([]byte) (T, error)) *Cache[T] {
	if o.TTL <= 0 {
		o.TTL = time.Minute
	}
	if o.LocalTTL <= 0 {
		o.LocalTTL = DefaultLocalTTL
	}
	if o.LocalBytes <= 0 {
		o.LocalBytes = DefaultLocalBytes
	}
	return &Cache[T]{rc: rc, name: name, opts: o, encode: encode, decode: decode, trusted: trusted, local: localStore{max: o.LocalBytes}}
}

// Get returns the value cached under key, or load's value, which is then
// kept for the cache's TTL. A load error is returned to every caller
// waiting on the key, and is not cached unless it is Options.NotFound.
func (c *Cache[T]) Get(ctx context.Context, key string, load func(context.Context) (T, error)) (T, error) {
	return c.GetTTL(ctx, key, func(ctx context.Context) (T, time.Duration, error) {
		v, err := load(ctx)
		return v, 0, err
	})
}

// GetTTL is Get whose loader also says how long its value may be kept
// (zero: the cache's TTL). The load runs detached from the cancellation of
// the caller that started it, with that caller's deadline.
func (c *Cache[T]) GetTTL(ctx context.Context, key string, load func(context.Context) (T, time.Duration, error)) (T, error) {
	return c.get(ctx, key, false, load)
}

// GetAdmitted is GetTTL for a key the caller knows is asked for again (a
// page it let through its own admission): stored whatever Options.Admit
// says.
func (c *Cache[T]) GetAdmitted(ctx context.Context, key string, load func(context.Context) (T, time.Duration, error)) (T, error) {
	return c.get(ctx, key, true, load)
}

func (c *Cache[T]) get(ctx context.Context, key string, admitted bool, load func(context.Context) (T, time.Duration, error)) (T, error) {
	full := c.fullKey(key)
	// A key this instance has not seen lately was not stored by it, so a
	// first ask goes straight to load (answered, not stored): a partner
	// polling each of its addresses once a block would otherwise pay a
	// Redis round trip per request for a miss. Another instance may hold
	// it; its first ask here then reads the database once.
	store := admitted || c.opts.Admit.Again(full)
	if !store {
		metrics.CacheLookup(c.name, false)
		res, err := c.flights.do(ctx, full, func(ctx context.Context) (any, error) {
			v, _, err := load(ctx)
			return v, err
		})
		v, _ := res.(T)
		return v, err
	}
	if v, hit, err := c.lookup(ctx, full); hit {
		metrics.CacheLookup(c.name, true)
		return v, err
	}
	metrics.CacheLookup(c.name, false)
	res, err := c.flights.do(ctx, full, func(ctx context.Context) (any, error) {
		// A flight that ended between our miss and this call has stored
		// its answer: look again before loading. It stored it locally too,
		// so a LocalFirst cache looks only there (no second round trip).
		if c.opts.LocalFirst {
			if b, r := c.local.get(full); r == found {
				if v, hit, err := c.answer(b, c.trusted); hit {
					return v, err
				}
			}
		} else if v, hit, err := c.lookup(ctx, full); hit {
			return v, err
		}
		v, ttl, err := load(ctx)
		switch {
		case err == nil:
			if ttl <= 0 {
				ttl = c.opts.TTL
			}
			if b, err := c.encode(v); err == nil {
				c.store(ctx, full, b, ttl)
			}
		case c.opts.NotFound != nil && c.opts.NegativeTTL > 0 && errors.Is(err, c.opts.NotFound):
			c.store(ctx, full, notFoundMarker, c.opts.NegativeTTL)
		}
		return v, err
	})
	v, _ := res.(T)
	return v, err
}

// Load runs load once for concurrent callers of one key and version
// (version names what a load now reads; callers at another version load
// their own) and stores its value when store says so (LookupValid's
// again): the other half of LookupValid.
func (c *Cache[T]) Load(ctx context.Context, key, version string, store bool, load func(context.Context) (T, time.Duration, error)) (T, error) {
	res, err := c.flights.do(ctx, c.fullKey(key)+"@"+version, func(ctx context.Context) (any, error) {
		v, ttl, err := load(ctx)
		if err == nil && store {
			c.Put(ctx, key, v, ttl)
		}
		return v, err
	})
	v, _ := res.(T)
	return v, err
}

// Peek returns the value this instance holds in process under key (a
// LocalFirst cache's copy; a remembered not-found is a hit with
// Options.NotFound), without Redis or admission: for a caller that would
// otherwise look elsewhere first.
func (c *Cache[T]) Peek(key string) (v T, hit bool, err error) {
	b, r := c.local.get(c.fullKey(key))
	if r != found {
		return v, false, nil
	}
	v, hit, err = c.answer(b, c.trusted)
	if hit {
		metrics.CacheLookup(c.name, true)
	}
	return v, hit, err
}

// LookupValid returns the value stored under key when valid says it still
// holds (hit). A first ask of a key is not looked up (Options.Admit)
// unless admitted; again reports whether it was, that is whether a value
// read now is to be stored (Put) for the next ask.
func (c *Cache[T]) LookupValid(ctx context.Context, key string, admitted bool, valid func(T) bool) (v T, hit, again bool) {
	full := c.fullKey(key)
	again = admitted || c.opts.Admit.Again(full)
	if again {
		if v, hit, err := c.lookup(ctx, full); hit && err == nil && valid(v) {
			metrics.CacheLookup(c.name, true)
			return v, true, true
		}
	}
	metrics.CacheLookup(c.name, false)
	return v, false, again
}

// Put stores v under key for ttl (≤ 0: Options.TTL).
func (c *Cache[T]) Put(ctx context.Context, key string, v T, ttl time.Duration) {
	if ttl <= 0 {
		ttl = c.opts.TTL
	}
	if b, err := c.encode(v); err == nil {
		c.store(ctx, c.fullKey(key), b, ttl)
	}
}

func (c *Cache[T]) fullKey(key string) string {
	if c.rc != nil {
		return c.rc.Key(c.name, key)
	}
	return c.name + ":" + key
}

// lookup reads full from Redis, or from the local store when Redis cannot
// answer (or first, for a LocalFirst cache). hit is true for a usable
// value and for a remembered not-found (then err is Options.NotFound).
func (c *Cache[T]) lookup(ctx context.Context, full string) (v T, hit bool, err error) {
	if c.opts.LocalFirst {
		if b, r := c.local.get(full); r == found {
			return c.answer(b, c.trusted)
		}
	}
	b, r := c.rc.get(ctx, full)
	if r == unavailable {
		b, r = c.local.get(full)
		if r == found {
			return c.answer(b, c.trusted)
		}
	}
	if r != found {
		return v, false, nil
	}
	v, hit, err = c.answer(b, c.safeDecode)
	if hit && c.opts.LocalFirst {
		c.local.set(full, b, c.opts.LocalTTL)
	}
	return v, hit, err
}

// answer turns stored bytes into a lookup's result with decode.
func (c *Cache[T]) answer(b []byte, decode func([]byte) (T, error)) (v T, hit bool, err error) {
	if bytes.Equal(b, notFoundMarker) {
		if c.opts.NotFound == nil || c.opts.NegativeTTL <= 0 {
			return v, false, nil
		}
		return v, true, c.opts.NotFound
	}
	v, err = decode(b)
	return v, err == nil, nil
}

// safeDecode is decode that turns a panic (a codec meeting bytes it never
// expected) into an error: a foreign value is a miss, never a crash.
func (c *Cache[T]) safeDecode(b []byte) (v T, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cache %s: decode panicked: %v", c.name, r)
		}
	}()
	return c.decode(b)
}

func (c *Cache[T]) store(ctx context.Context, full string, b []byte, ttl time.Duration) {
	c.local.set(full, b, min(ttl, c.opts.LocalTTL))
	c.rc.set(ctx, full, b, ttl)
}
