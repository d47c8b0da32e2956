package auth_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// migrated returns a fresh, migrated admin database.
func migrated(t *testing.T) *sqlx.DB {
	t.Helper()
	db := testdb.Open(t, testdb.New(t, "sg_test_auth"))
	if _, err := admin.Migrate(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	return db
}

// instance is one service instance's authentication and admin store, wired
// as serve wires them (the store invalidates through the authenticator).
func instance(t *testing.T, db *sqlx.DB, rc *cache.Client, clk *clock) (*auth.Authenticator, *admin.Store) {
	t.Helper()
	fast := cache.NewFastClient(rc, cache.FastOptions{Now: clk.now})
	a := auth.New(auth.Options{DB: db, Redis: fast, Now: clk.now, RetryInterval: time.Hour})
	s := admin.NewStore(db, admin.Options{Invalidator: a, Now: clk.now})
	t.Cleanup(func() { s.Close(); a.Close(); fast.Close() })
	return a, s
}

// fixture makes an admin key, a user and a credential; it returns the
// actor and the credential's key.
func fixture(t *testing.T, s *admin.Store) (admin.Admin, admin.Credential, string) {
	t.Helper()
	ctx := context.Background()
	k, _, err := s.CreateAdminKey(ctx, admin.Bootstrap(""), "partner", admin.Permissions)
	if err != nil {
		t.Fatal(err)
	}
	a := admin.Admin{ID: k.ID, PartnerID: k.PartnerID, EntityName: k.EntityName, Permissions: k.Permissions, IP: "192.0.2.1"}
	u, err := s.CreateUser(ctx, a, admin.NewUser{Name: "u"})
	if err != nil {
		t.Fatal(err)
	}
	c, key, err := s.CreateCredential(ctx, a, admin.NewCredential{Name: "c", UserAccountID: u.ID})
	if err != nil {
		t.Fatal(err)
	}
	return a, c, key
}

func hashOf(key string) []byte {
	h := sha256.Sum256([]byte(key))
	return h[:]
}

// TestCredentialCache: a key seen before is answered from memory (a change
// made behind the store's back is not seen), until the Redis version moves.
func TestCredentialCache(t *testing.T) {
	db := migrated(t)
	rc := testdb.Redis(t)
	clk := &clock{t: time.Now()}
	a, s := instance(t, db, rc, clk)
	other, _ := instance(t, db, rc, clk)
	ctx := context.Background()
	_, c, key := fixture(t, s)

	caller, err := a.Authenticate(ctx, key)
	if err != nil || caller.CredentialID != c.ID || caller.RateLimitPerMinute != 60 || caller.KeyPrefix != key[:12] || caller.VersionKey == "" {
		t.Fatalf("first: %+v %v", caller, err)
	}
	v, ok := a.ReadVersion(ctx, key)
	if !ok {
		t.Fatal("version unreadable")
	}
	if _, err := db.Exec(`UPDATE syncgate.credentials SET revoked = true, revoked_at = now() WHERE id = $1`, c.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Authenticate(ctx, key); err != nil {
		t.Fatalf("cached entry not used: %v", err)
	}
	if _, err := a.Confirm(ctx, key, v, true); err != nil {
		t.Fatalf("unchanged version reloaded: %v", err)
	}
	// Another instance announces a change: the next confirmation reloads.
	other.Invalidate(ctx, hashOf(key))
	v2, _ := a.ReadVersion(ctx, key)
	if v2 == v {
		t.Fatal("version did not move")
	}
	if _, err := a.Confirm(ctx, key, v2, true); !errors.Is(err, auth.ErrKeyRevoked) {
		t.Fatalf("after announcement: %v", err)
	}
	// Revoked is final: answered from memory from now on.
	if _, err := a.Authenticate(ctx, key); !errors.Is(err, auth.ErrKeyRevoked) {
		t.Fatalf("revoked: %v", err)
	}
}

// TestCredentialCacheTTL: without Redis (and no listener) an entry lives
// FallbackTTL (1 s); with Redis, CacheTTL at most.
func TestCredentialCacheTTL(t *testing.T) {
	db := migrated(t)
	clk := &clock{t: time.Now()}
	ctx := context.Background()
	solo, soloStore := instance(t, db, nil, clk)
	_, c, key := fixture(t, soloStore)
	if _, err := solo.Authenticate(ctx, key); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE syncgate.user_accounts SET status = 'suspended' WHERE id = $1`, c.UserAccountID); err != nil {
		t.Fatal(err)
	}
	clk.add(900 * time.Millisecond)
	if _, err := solo.Confirm(ctx, key, "", false); err != nil {
		t.Fatalf("inside the fallback TTL: %v", err)
	}
	clk.add(100 * time.Millisecond)
	settles(t, "after the fallback TTL", auth.ErrUserInactive, func() error {
		_, err := solo.Confirm(ctx, key, "", false)
		return err
	})

	// A change made through the same instance is seen at once, Redis or not.
	_, c3, key3 := fixture(t, soloStore)
	if _, err := solo.Authenticate(ctx, key3); err != nil {
		t.Fatal(err)
	}
	if _, err := soloStore.RevokeCredential(ctx, admin.Admin{ID: c3.AdminKeyID, PartnerID: c3.PartnerID}, c3.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := solo.Authenticate(ctx, key3); !errors.Is(err, auth.ErrKeyRevoked) {
		t.Fatalf("own revocation: %v", err)
	}

	shared, sharedStore := instance(t, db, testdb.Redis(t), clk)
	_, c2, key2 := fixture(t, sharedStore)
	if _, err := shared.Authenticate(ctx, key2); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE syncgate.credentials SET revoked = true, revoked_at = now() WHERE id = $1`, c2.ID); err != nil {
		t.Fatal(err)
	}
	clk.add(59 * time.Second)
	if _, err := shared.Authenticate(ctx, key2); err != nil {
		t.Fatalf("inside the cache TTL: %v", err)
	}
	clk.add(time.Second)
	settles(t, "after the cache TTL", auth.ErrKeyRevoked, func() error {
		_, err := shared.Authenticate(ctx, key2)
		return err
	})
}

// settles calls f until it returns want, for a few seconds at most. An
// aged entry whose reload takes longer than the request waits for it (a
// loaded machine) answers as before until the reload lands, by design;
// the clock stands still meanwhile, so only that reload can change the
// answer.
func settles(t *testing.T, what string, want error, f func() error) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		err := f()
		if errors.Is(err, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %v, want %v", what, err, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// countLoads counts a's credential loads from PostgreSQL.
func countLoads(a *auth.Authenticator) *atomic.Int64 {
	var n atomic.Int64
	a.SetAfterLoad(func() { n.Add(1) })
	return &n
}

// TestNegativeCache: an unknown key costs one query, then none while it is
// cached; a flood of unknown keys fills its own bounded cache and never
// evicts a live key.
func TestNegativeCache(t *testing.T) {
	db := migrated(t)
	clk := &clock{t: time.Now()}
	a, s := instance(t, db, testdb.Redis(t), clk)
	ctx := context.Background()
	_, _, key := fixture(t, s)
	loads := countLoads(a)
	a.SetMaxMissing(50)

	if _, err := a.Authenticate(ctx, key); err != nil {
		t.Fatal(err)
	}
	unknown := auth.CredentialKeyPrefix + strings.Repeat("e", 48)
	for range 5 {
		if _, err := a.Authenticate(ctx, unknown); !errors.Is(err, auth.ErrInvalidKey) {
			t.Fatalf("unknown: %v", err)
		}
	}
	if got := loads.Load(); got != 2 {
		t.Fatalf("loads = %d, want 2 (the live key once, the unknown key once)", got)
	}
	// Far more unknown keys than either cache holds.
	for i := range 400 {
		k := auth.CredentialKeyPrefix + strings.Repeat("a", 40) + fmt.Sprintf("%08d", i)
		if _, err := a.Authenticate(ctx, k); !errors.Is(err, auth.ErrInvalidKey) {
			t.Fatalf("flood key %d: %v", i, err)
		}
	}
	nEntries, nMissing := a.CacheSizes()
	if nMissing > 50 || nEntries != 1 {
		t.Fatalf("after the flood: %d negative (max 50), %d positive (want the live key)", nMissing, nEntries)
	}
	before := loads.Load()
	if _, err := a.Authenticate(ctx, key); err != nil || loads.Load() != before {
		t.Fatalf("live key after the flood: err %v, reloaded %v", err, loads.Load() != before)
	}
}

// TestReloadRevokeRace: a load that read the credential before a revoke
// committed and finishes after the revoke's invalidation must not
// reinstall the pre-revoke entry (no Redis here, so nothing else would
// correct it for FallbackTTL).
func TestReloadRevokeRace(t *testing.T) {
	db := migrated(t)
	clk := &clock{t: time.Now()}
	a, s := instance(t, db, nil, clk)
	ctx := context.Background()
	actor, c, key := fixture(t, s)

	reached, release := make(chan struct{}), make(chan struct{})
	var first atomic.Bool
	a.SetAfterLoad(func() {
		if first.CompareAndSwap(false, true) {
			close(reached)
			<-release
		}
	})
	done := make(chan error, 1)
	go func() {
		_, err := a.Authenticate(ctx, key) // started before the revoke: may pass
		done <- err
	}()
	<-reached
	if _, err := s.RevokeCredential(ctx, actor, c.ID); err != nil {
		t.Fatal(err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatalf("in-flight authentication: %v", err)
	}
	if _, err := a.Authenticate(ctx, key); !errors.Is(err, auth.ErrKeyRevoked) {
		t.Fatalf("after the revoke: %v, want ErrKeyRevoked", err)
	}
}

// TestAuthPoolIsolated: with the main pool's every connection held by a
// slow admin query, a credential lookup on its own pool still answers.
func TestAuthPoolIsolated(t *testing.T) {
	dsn := testdb.New(t, "sg_test_auth")
	main := testdb.Open(t, dsn)
	if _, err := admin.Migrate(context.Background(), main); err != nil {
		t.Fatal(err)
	}
	authDB := testdb.Open(t, dsn)
	authDB.SetMaxOpenConns(1)
	a := auth.New(auth.Options{DB: authDB, RetryInterval: time.Hour})
	t.Cleanup(a.Close)
	s := admin.NewStore(main, admin.Options{Invalidator: a})
	t.Cleanup(s.Close)
	_, _, key := fixture(t, s)

	main.SetMaxOpenConns(1)
	slow, err := main.Conn(context.Background()) // the slow admin list
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if _, err := a.Authenticate(ctx, key); err != nil {
		t.Fatalf("lookup stalled behind the main pool: %v", err)
	}
}

// TestWellFormed: only the exact shape of a key with the given prefix passes.
func TestWellFormed(t *testing.T) {
	key, hash, display := auth.NewKey(auth.CredentialKeyPrefix)
	if !auth.WellFormed(key, auth.CredentialKeyPrefix) || display != key[:12] || hash != sha256.Sum256([]byte(key)) {
		t.Fatalf("fresh key %q refused or mis-described", display)
	}
	for _, bad := range []string{"", key[:52], key + "0", strings.ToUpper(key[:5]) + key[5:],
		key[:52] + "g", strings.Replace(key, "sgk1_", "sga1_", 1)} {
		if auth.WellFormed(bad, auth.CredentialKeyPrefix) {
			t.Fatalf("%q accepted", bad)
		}
	}
}

// dbHost is the host:port of a PostgreSQL URL.
func dbHost(t *testing.T, dsn string) string {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

// viaProxy is dsn reached through p.
func viaProxy(t *testing.T, dsn string, p *testdb.Proxy) string {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = p.Addr()
	q := u.Query()
	q.Set("connect_timeout", "2")
	u.RawQuery = q.Encode()
	return u.String()
}
