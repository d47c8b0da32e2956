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
	group  flightGroup
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

// Prefix returns the key prefix.
func (c *Client) Prefix() string { return c.prefix }

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
	if v, ok := getJSON[T](ctx, c, key); ok {
		return v, nil
	}
	v, err := c.group.do(key, func() (any, error) {
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
			_ = c.rdb.Set(context.WithoutCancel(ctx), key, b, ttl).Err()
		}
		return val, nil
	})
	if err != nil {
		return zero, err
	}
	return v.(T), nil
}

func getJSON[T any](ctx context.Context, c *Client, key string) (T, bool) {
	var v T
	b, err := c.rdb.Get(ctx, key).Bytes()
	if err != nil || json.Unmarshal(b, &v) != nil {
		return v, false
	}
	return v, true
}

// flightGroup collapses concurrent loads of one key into one call.
type flightGroup struct {
	mu    sync.Mutex
	calls map[string]*flight
}

type flight struct {
	wg  sync.WaitGroup
	val any
	err error
}

func (g *flightGroup) do(key string, fn func() (any, error)) (any, error) {
	g.mu.Lock()
	if g.calls == nil {
		g.calls = map[string]*flight{}
	}
	if f, ok := g.calls[key]; ok {
		g.mu.Unlock()
		f.wg.Wait()
		return f.val, f.err
	}
	f := &flight{}
	f.wg.Add(1)
	g.calls[key] = f
	g.mu.Unlock()

	f.val, f.err = fn()
	f.wg.Done()
	g.mu.Lock()
	delete(g.calls, key)
	g.mu.Unlock()
	return f.val, f.err
}
