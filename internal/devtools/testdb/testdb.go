// Package testdb gives tests real services: a fresh PostgreSQL database per
// test or package (created and dropped), a seeded db-sync database per
// mode, and the real Redis under a key prefix of its own. Imported only by
// _test.go files. Under `go test -short` every helper that needs a service
// skips the test (RequireServices); otherwise an unreachable service fails
// the test with a pointer to the README, it never skips.
package testdb

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/cache"
)

const hint = "tests need PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres) and Redis (TEST_REDIS_URL, default redis://127.0.0.1:6379/0); see README"

// ServerURL is the maintenance database tests create their databases from.
func ServerURL() string {
	if v := os.Getenv("TEST_DATABASE_URL"); v != "" {
		return v
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}

// RedisURL is the Redis tests use.
func RedisURL() string {
	if v := os.Getenv("TEST_REDIS_URL"); v != "" {
		return v
	}
	return "redis://127.0.0.1:6379/0"
}

// RandomSuffix returns n random bytes as hex (names that never collide
// across packages, worktrees or parallel CI runs).
func RandomSuffix(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Create makes a new empty database named <prefix>_<random> and returns its
// URL and a function that drops it. For TestMain, which has no testing.TB.
func Create(prefix string) (dsn string, drop func(), err error) {
	name := strings.ToLower(prefix) + "_" + RandomSuffix(4)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	maint, err := sqlx.Open("postgres", ServerURL())
	if err != nil {
		return "", nil, err
	}
	defer maint.Close()
	if _, err := maint.ExecContext(ctx, `CREATE DATABASE `+pq.QuoteIdentifier(name)); err != nil {
		return "", nil, fmt.Errorf("create test database: %w (%s)", err, hint)
	}
	u, err := url.Parse(ServerURL())
	if err != nil {
		return "", nil, err
	}
	u.Path = "/" + name
	q := u.Query()
	if q.Get("sslmode") == "" {
		q.Set("sslmode", "disable")
	}
	u.RawQuery = q.Encode()
	drop = func() { Drop(name) }
	return u.String(), drop, nil
}

// Drop removes a test database, ending any session still attached.
func Drop(name string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	maint, err := sqlx.Open("postgres", ServerURL())
	if err != nil {
		return
	}
	defer maint.Close()
	_, _ = maint.ExecContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, name)
	_, _ = maint.ExecContext(ctx, `DROP DATABASE IF EXISTS `+pq.QuoteIdentifier(name))
}

// New creates a database for one test and drops it in t.Cleanup. Skips
// under -short (RequirePostgres).
func New(t testing.TB, prefix string) string {
	t.Helper()
	RequirePostgres(t)
	dsn, drop, err := Create(prefix)
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	t.Cleanup(drop)
	return dsn
}

// Open connects to dsn and closes the pool in t.Cleanup. Skips under
// -short.
func Open(t testing.TB, dsn string) *sqlx.DB {
	t.Helper()
	SkipShort(t)
	db, err := sqlx.Open("postgres", dsn)
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	if err := db.Ping(); err != nil {
		t.Fatalf("testdb: %v (%s)", err, hint)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// Redis returns a client for the real Redis whose keys all start with a
// prefix unique to this test; they are deleted in t.Cleanup. Skips under
// -short (RequireRedis).
func Redis(t testing.TB) *cache.Client {
	t.Helper()
	RequireRedis(t)
	prefix := "sgtest:" + RandomSuffix(6) + ":"
	c, err := cache.New(RedisURL(), prefix)
	if err != nil {
		t.Fatalf("testdb: redis: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := c.Ping(ctx); err != nil {
		t.Fatalf("testdb: redis: %v (%s)", err, hint)
	}
	t.Cleanup(func() {
		ctx := context.Background()
		iter := c.Redis().Scan(ctx, 0, prefix+"*", 1000).Iterator()
		for iter.Next(ctx) {
			c.Redis().Del(ctx, iter.Val())
		}
		c.Close()
	})
	return c
}
