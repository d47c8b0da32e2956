// Package cache is syncgate's use of Redis: the client (single node or
// Cluster), a read-through JSON cache with single-flight, and key naming.
// Redis is a helper, never the truth: every caller must work when it is
// absent or down (a cache miss, not an error).
package cache

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/syncgate/syncgate/internal/metrics"
)

// Short network timeouts: a dead Redis must cost milliseconds, not the
// seconds go-redis' defaults (retries, 5 s dial) would add to a request.
const (
	dialTimeout = 250 * time.Millisecond
	ioTimeout   = 200 * time.Millisecond
	poolTimeout = 250 * time.Millisecond
)

// Client wraps a go-redis UniversalClient and a key prefix (one per
// deployment, or per test so parallel tests never share keys).
type Client struct {
	rdb    redis.UniversalClient
	prefix string
	group  FlightGroup
}

// New connects to the Redis at rawURL: a redis:// or rediss:// URL, or a
// comma-separated list of them for Redis Cluster. It does not ping.
func New(rawURL, prefix string) (*Client, error) {
	urls := strings.Split(rawURL, ",")
	if len(urls) == 1 {
		opt, err := redis.ParseURL(strings.TrimSpace(urls[0]))
		if err != nil {
			return nil, fmt.Errorf("redis url: %w", err)
		}
		tune(&opt.DialTimeout, &opt.ReadTimeout, &opt.WriteTimeout, &opt.PoolTimeout, &opt.MaxRetries)
		return &Client{rdb: redis.NewClient(opt), prefix: prefix}, nil
	}
	var addrs []string
	var first *redis.Options
	for _, u := range urls {
		opt, err := redis.ParseURL(strings.TrimSpace(u))
		if err != nil {
			return nil, fmt.Errorf("redis url: %w", err)
		}
		if first == nil {
			first = opt
		}
		addrs = append(addrs, opt.Addr)
	}
	copt := &redis.ClusterOptions{Addrs: addrs, Username: first.Username, Password: first.Password, TLSConfig: first.TLSConfig}
	tune(&copt.DialTimeout, &copt.ReadTimeout, &copt.WriteTimeout, &copt.PoolTimeout, &copt.MaxRetries)
	return &Client{rdb: redis.NewClusterClient(copt), prefix: prefix}, nil
}

func tune(dial, read, write, pool *time.Duration, retries *int) {
	*dial, *read, *write, *pool = dialTimeout, ioTimeout, ioTimeout, poolTimeout
	*retries = -1 // no retries: fall back at once
}

// Redis returns the underlying client (rate limiter, usage counters).
func (c *Client) Redis() redis.UniversalClient { return c.rdb }

// Key joins parts under the client's prefix: "<prefix>asset:<id>".
func (c *Client) Key(parts ...string) string { return c.prefix + strings.Join(parts, ":") }

// Ping checks that Redis answers.
func (c *Client) Ping(ctx context.Context) error {
	if c == nil {
		return errors.New("redis not configured")
	}
	return c.rdb.Ping(ctx).Err()
}

// Close closes the connection pool.
func (c *Client) Close() error {
	if c == nil {
		return nil
	}
	return c.rdb.Close()
}

// Fetch is a read-through cache of JSON values: it returns the cached
// value under key, or calls load once per key at a time across concurrent
// callers of this process (single-flight), stores the result for ttl and
// returns it. A nil client or a Redis error only means a miss.
func Fetch[T any](ctx context.Context, c *Client, key string, ttl time.Duration, load func(context.Context) (T, error)) (T, error) {
	var zero T
	if c == nil {
		return load(ctx)
	}
	v, ok := getJSON[T](ctx, c, key)
	metrics.CacheLookup(c.cacheName(key), ok)
	if ok {
		return v, nil
	}
	loaded, err := c.group.Do(ctx, key, func(ctx context.Context) (any, error) {
		// A flight that ended between our miss and this call has stored
		// the value already: look again before loading.
		if v, ok := getJSON[T](ctx, c, key); ok {
			return v, nil
		}
		val, err := load(ctx)
		if err != nil {
			return nil, err
		}
		if b, err := json.Marshal(val); err == nil {
			_ = c.rdb.Set(ctx, key, b, ttl).Err()
		}
		return val, nil
	})
	if err != nil {
		return zero, err
	}
	return loaded.(T), nil
}

// cacheName is a key's first part under the prefix ("txtotal", "pool"):
// the cache's name in metrics, never the rest of the key.
func (c *Client) cacheName(key string) string {
	name, _, _ := strings.Cut(strings.TrimPrefix(key, c.prefix), ":")
	return name
}

func getJSON[T any](ctx context.Context, c *Client, key string) (T, bool) {
	var v T
	b, err := c.rdb.Get(ctx, key).Bytes()
	if err != nil || json.Unmarshal(b, &v) != nil {
		return v, false
	}
	return v, true
}

// FlightGroup collapses concurrent loads of one key into one call. The load
// runs detached from the cancellation of the caller that started it (it
// keeps that caller's deadline, if any), so one client going away does not
// fail everyone else waiting on the same key; each caller stops waiting when
// its own context ends. A panic in the load becomes its error.
type FlightGroup struct {
	mu    sync.Mutex
	calls map[string]*flight
}

type flight struct {
	done chan struct{}
	val  any
	err  error
}

// Do returns the result of fn for key, sharing one call among concurrent
// callers.
func (g *FlightGroup) Do(ctx context.Context, key string, fn func(context.Context) (any, error)) (any, error) {
	g.mu.Lock()
	if g.calls == nil {
		g.calls = map[string]*flight{}
	}
	f, ok := g.calls[key]
	if !ok {
		f = &flight{done: make(chan struct{})}
		g.calls[key] = f
		loadCtx, cancel := context.WithoutCancel(ctx), context.CancelFunc(func() {})
		if d, ok := ctx.Deadline(); ok {
			loadCtx, cancel = context.WithDeadline(loadCtx, d)
		}
		go func() {
			defer func() {
				if r := recover(); r != nil {
					f.err = fmt.Errorf("cache: load of %q panicked: %v", key, r)
				}
				cancel()
				g.mu.Lock()
				delete(g.calls, key)
				g.mu.Unlock()
				close(f.done)
			}()
			f.val, f.err = fn(loadCtx)
		}()
	}
	g.mu.Unlock()
	select {
	case <-f.done:
		return f.val, f.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
