package testdb

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// `go test -short` runs only the tests that need nothing outside the
// process: every helper here that reaches PostgreSQL or Redis, or starts a
// server of its own, skips the test under -short. Without -short a missing
// service fails the test (never skips): a suite that silently skipped its
// database tests would pass without testing anything.

// shortReason is the skip message: it says how to run the test.
const shortReason = "needs PostgreSQL/Redis (or starts its own server); runs without -short (make test)"

// SkipShort skips the test under -short. For tests that need a service
// but reach it through no helper of this package (their own DSN, a
// server binary).
func SkipShort(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip(shortReason)
	}
}

// RequireServices skips the test under -short; otherwise it fails the test
// at once, with a pointer to the README, if the shared PostgreSQL
// (ServerURL) or Redis (RedisURL) does not answer. The probe runs once per
// test binary.
func RequireServices(t testing.TB) {
	t.Helper()
	RequirePostgres(t)
	RequireRedis(t)
}

// RequirePostgres is RequireServices for a test that needs only PostgreSQL.
func RequirePostgres(t testing.TB) {
	t.Helper()
	SkipShort(t)
	if err := pgProbe.do(probePostgres); err != nil {
		t.Fatalf("testdb: PostgreSQL at %s: %v (%s)", redactURL(ServerURL()), err, hint)
	}
}

// RequireRedis is RequireServices for a test that needs only Redis.
func RequireRedis(t testing.TB) {
	t.Helper()
	SkipShort(t)
	if err := redisProbe.do(probeRedis); err != nil {
		t.Fatalf("testdb: Redis at %s: %v (%s)", RedisURL(), err, hint)
	}
}

// probe remembers one service check's answer for the whole test binary:
// a down service fails every test that needs it quickly, each with the
// same message, instead of each waiting for its own timeout.
type probe struct {
	once sync.Once
	err  error
}

var pgProbe, redisProbe probe

func (p *probe) do(check func(context.Context) error) error {
	p.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		p.err = check(ctx)
	})
	return p.err
}

func probePostgres(ctx context.Context) error {
	db, err := sql.Open("postgres", ServerURL())
	if err != nil {
		return err
	}
	defer db.Close()
	return db.PingContext(ctx)
}

func probeRedis(ctx context.Context) error {
	opt, err := redis.ParseURL(RedisURL())
	if err != nil {
		return fmt.Errorf("TEST_REDIS_URL: %w", err)
	}
	opt.MaxRetries = -1 // a refused connection is the answer; retrying only delays it
	c := redis.NewClient(opt)
	defer c.Close()
	return c.Ping(ctx).Err()
}

// redactURL hides a password in a database URL for messages.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" {
		return "the configured server"
	}
	return u.Redacted()
}
