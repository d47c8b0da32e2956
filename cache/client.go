package cache

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// Network limits of the shared client. go-redis' defaults (a 5 s dial,
// retried five times with back-off, three command retries) would let a dead
// Redis cost seconds; with these a refused connection costs one dial.
const (
	dialTimeout = 250 * time.Millisecond
	ioTimeout   = 200 * time.Millisecond
	poolTimeout = 250 * time.Millisecond
)

// A cache's Redis calls: each is bounded by callTimeout (or the caller's
// deadline, if sooner), and after a failure Redis is skipped for coolDown,
// so a hung Redis costs one timeout per cool-down, not one per call.
const (
	callTimeout = 100 * time.Millisecond
	coolDown    = time.Second
)

// Client wraps a go-redis UniversalClient and a key prefix (one per
// deployment, or per test so parallel tests never share keys).
type Client struct {
	rdb    redis.UniversalClient
	prefix string

	skipUntil atomic.Int64 // unix nanoseconds; cache calls skip Redis before this
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
		tune(&opt.DialTimeout, &opt.ReadTimeout, &opt.WriteTimeout, &opt.PoolTimeout,
			&opt.MaxRetries, &opt.DialerRetries, &opt.ContextTimeoutEnabled)
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
	tune(&copt.DialTimeout, &copt.ReadTimeout, &copt.WriteTimeout, &copt.PoolTimeout,
		&copt.MaxRetries, &copt.DialerRetries, &copt.ContextTimeoutEnabled)
	return &Client{rdb: redis.NewClusterClient(copt), prefix: prefix}, nil
}

// tune sets the limits above, one dial attempt and no command retries, and
// makes go-redis honour context deadlines (by default it ignores them for
// socket reads and writes), so callTimeout really bounds a call.
func tune(dial, read, write, pool *time.Duration, retries, dialRetries *int, ctxDeadlines *bool) {
	*dial, *read, *write, *pool = dialTimeout, ioTimeout, ioTimeout, poolTimeout
	*retries, *dialRetries, *ctxDeadlines = -1, 1, true
}

// Redis returns the underlying go-redis client, for what the cache does
// not offer (tests, key clean-up). The rate limiter and usage counters do
// not use it: they run on a FastClient.
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

// Health reports what /v1/health says of Redis: answers, whether Redis
// answered at all, and err, what is wrong (nil: healthy). A single server
// is pinged. A cluster is asked CLUSTER INFO on every master it lists: a
// PING answered by one live master says nothing of a dead one, whose
// slots (a share of every cache, limiter and counter key) fail while the
// others answer, so the cluster is healthy only when every master
// answers and reports cluster_state:ok; answers with an error is a
// degraded cluster.
func (c *Client) Health(ctx context.Context) (answers bool, err error) {
	if c == nil {
		return false, errors.New("redis not configured")
	}
	cc, ok := c.rdb.(*redis.ClusterClient)
	if !ok {
		err := c.rdb.Ping(ctx).Err()
		return err == nil, err
	}
	var mu sync.Mutex
	var answered int
	var problems []error
	err = cc.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
		info, err := node.ClusterInfo(ctx).Result()
		mu.Lock()
		defer mu.Unlock()
		addr := node.Options().Addr
		switch {
		case err != nil:
			problems = append(problems, fmt.Errorf("%s: %w", addr, err))
		case clusterState(info) != "ok":
			answered++
			problems = append(problems, fmt.Errorf("%s: cluster_state:%s", addr, clusterState(info)))
		default:
			answered++
		}
		return nil
	})
	if err != nil && answered == 0 {
		return false, err // not even the cluster's layout could be read
	}
	if answered == 0 {
		return false, errors.Join(problems...)
	}
	return true, errors.Join(problems...)
}

// clusterState is CLUSTER INFO's cluster_state ("ok", "fail").
func clusterState(info string) string {
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "cluster_state:"); ok {
			return v
		}
	}
	return "unknown"
}

// Close closes the connection pool.
func (c *Client) Close() error {
	if c == nil {
		return nil
	}
	return c.rdb.Close()
}

// reply is what a cache's Redis read found.
type reply int

const (
	found       reply = iota
	missing           // Redis answered: no such key
	unavailable       // no client, Redis skipped or failed, or the key holds no string
)

// get reads key for a cache.
func (c *Client) get(ctx context.Context, key string) ([]byte, reply) {
	var b []byte
	err := c.call(ctx, func(ctx context.Context) (err error) {
		b, err = c.rdb.Get(ctx, key).Bytes()
		return err
	})
	switch {
	case err == nil:
		return b, found
	case errors.Is(err, redis.Nil):
		return nil, missing
	}
	return nil, unavailable
}

// set stores value under key for ttl, best effort.
func (c *Client) set(ctx context.Context, key string, value []byte, ttl time.Duration) {
	_ = c.call(ctx, func(ctx context.Context) error { return c.rdb.Set(ctx, key, value, ttl).Err() })
}

var errSkipped = errors.New("cache: redis skipped")

// call runs fn under callTimeout unless there is no client or Redis is
// being skipped. A network failure or our own deadline starts the skip; a
// caller that went away, redis.Nil and an error reply (Redis answered, e.g.
// WRONGTYPE for a key of another type) do not.
func (c *Client) call(ctx context.Context, fn func(context.Context) error) error {
	if c == nil || time.Now().UnixNano() < c.skipUntil.Load() {
		return errSkipped
	}
	callCtx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	err := fn(callCtx)
	var reply redis.Error
	if err != nil && !errors.As(err, &reply) && ctx.Err() == nil {
		c.skipUntil.Store(time.Now().Add(coolDown).UnixNano())
	}
	return err
}
