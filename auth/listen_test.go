package auth_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// listeningInstance is instance without Redis, listening on dsn; it
// returns once its listener is trusted.
func listeningInstance(t *testing.T, dsn string, db *sqlx.DB, clk *clock) (*auth.Authenticator, *admin.Store) {
	t.Helper()
	a := auth.New(auth.Options{DB: db, ListenURL: dsn, Now: clk.now, RetryInterval: time.Hour})
	s := admin.NewStore(db, admin.Options{Invalidator: a, Now: clk.now})
	t.Cleanup(func() { s.Close(); a.Close() })
	waitFor(t, "listener trusted", a.Listening)
	return a, s
}

// waitFor polls cond for up to 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for: %s", what)
		}
	}
}

func migratedDSN(t *testing.T) (string, *sqlx.DB) {
	t.Helper()
	dsn := testdb.New(t, "sg_test_auth")
	db := testdb.Open(t, dsn)
	if _, err := admin.Migrate(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	return dsn, db
}

// TestListenerInvalidates: without Redis, a revocation on one instance is
// refused on another (the clock is frozen, so no TTL
// helps: only the notification can tell it), and a trusted listener keeps
// entries for CacheTTL instead of FallbackTTL.
func TestListenerInvalidates(t *testing.T) {
	dsn, db := migratedDSN(t)
	clk := &clock{t: time.Now()}
	ctx := context.Background()
	_, storeA := listeningInstance(t, dsn, db, clk)
	b, _ := listeningInstance(t, dsn, db, clk)
	actor, c, key := fixture(t, storeA)
	loads := countLoads(b)
	if _, err := b.Authenticate(ctx, key); err != nil {
		t.Fatal(err)
	}
	clk.add(30 * time.Second) // past FallbackTTL: a trusted listener vouches for the entry
	if _, err := b.Confirm(ctx, key, "", false); err != nil || loads.Load() != 1 {
		t.Fatalf("trusted listener: %v, %d loads (want 1)", err, loads.Load())
	}
	if _, err := storeA.RevokeCredential(ctx, actor, c.ID); err != nil {
		t.Fatal(err)
	}
	revoked := time.Now()
	for {
		_, err := b.Confirm(ctx, key, "", false)
		if errors.Is(err, auth.ErrKeyRevoked) {
			break
		}
		if err != nil || time.Since(revoked) > 10*time.Second { // a lost notification, not a latency bound
			t.Fatalf("other instance %v after the revocation: %v", time.Since(revoked), err)
		}
		time.Sleep(time.Millisecond)
	}
	t.Logf("revocation seen after %v", time.Since(revoked))
}

// TestListenerReconnectDropsAll: notifications sent while the listener was
// disconnected are lost, so a reconnection empties the cache.
func TestListenerReconnectDropsAll(t *testing.T) {
	dsn, db := migratedDSN(t)
	clk := &clock{t: time.Now()}
	ctx := context.Background()
	a, s := listeningInstance(t, dsn, db, clk)
	_, c, key := fixture(t, s)
	if _, err := a.Authenticate(ctx, key); err != nil {
		t.Fatal(err)
	}
	// Behind the cache's back: nothing is notified.
	if _, err := db.Exec(`UPDATE syncgate.credentials SET revoked = true, revoked_at = now() WHERE id = $1`, c.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Authenticate(ctx, key); err != nil {
		t.Fatalf("cached entry not used: %v", err)
	}
	var n int
	if err := db.Get(&n, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = current_database() AND query LIKE 'LISTEN %'`); err != nil || n != 1 {
		t.Fatalf("terminate the listener: %d, %v", n, err)
	}
	waitFor(t, "listener distrusted", func() bool { return !a.Listening() })
	waitFor(t, "listener back", a.Listening)
	if a.Cached(key) {
		t.Fatal("entry survived the reconnection")
	}
	if _, err := a.Authenticate(ctx, key); !errors.Is(err, auth.ErrKeyRevoked) {
		t.Fatalf("after the reconnection: %v", err)
	}
}

// TestStaleWhileAdminDatabaseDown: an entry that is only old keeps
// answering while PostgreSQL cannot be reached; an unknown key, or one an
// invalidation dropped, cannot be checked.
func TestStaleWhileAdminDatabaseDown(t *testing.T) {
	dsn, db := migratedDSN(t)
	clk := &clock{t: time.Now()}
	ctx := context.Background()
	proxy := testdb.NewProxy(t, dbHost(t, dsn), true)
	authDB := testdb.Open(t, viaProxy(t, dsn, proxy))
	a := auth.New(auth.Options{DB: authDB, Now: clk.now, RetryInterval: time.Hour})
	t.Cleanup(a.Close)
	s := admin.NewStore(db, admin.Options{Invalidator: a, Now: clk.now})
	t.Cleanup(s.Close)
	_, c, key := fixture(t, s)
	_, _, other := fixture(t, s)
	if _, err := a.Authenticate(ctx, key); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Authenticate(ctx, other); err != nil {
		t.Fatal(err)
	}
	proxy.Cut()
	clk.add(2 * time.Minute) // past every TTL
	start := time.Now()
	if caller, err := a.Authenticate(ctx, key); err != nil || caller.CredentialID != c.ID {
		t.Fatalf("old entry with the database down: %+v %v", caller, err)
	}
	if _, err := a.Confirm(ctx, key, "", false); err != nil {
		t.Fatalf("held entry: %v", err)
	}
	if d := time.Since(start); d >= 5*time.Second { // a credential load's timeout
		t.Fatalf("answering from the held entry took %v: it waited for a load", d)
	}
	if _, err := a.Authenticate(ctx, auth.CredentialKeyPrefix+"0123456789abcdef0123456789abcdef0123456789abcdef"); err == nil || errors.Is(err, auth.ErrInvalidKey) {
		t.Fatalf("unknown key with the database down: %v, want a database error", err)
	}
	a.Invalidate(ctx, hashOf(other))
	if _, err := a.Authenticate(ctx, other); err == nil {
		t.Fatal("an invalidated key answered with the database down")
	}
	// Back: the next attempt after the hold (FallbackTTL) reloads.
	proxy.Restore()
	if _, err := db.Exec(`UPDATE syncgate.credentials SET revoked = true, revoked_at = now() WHERE id = $1`, c.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Authenticate(ctx, key); err != nil {
		t.Fatalf("inside the hold: %v", err)
	}
	clk.add(time.Second)
	waitFor(t, "the reload after the hold", func() bool {
		_, err := a.Authenticate(ctx, key)
		return errors.Is(err, auth.ErrKeyRevoked)
	})
}

// TestNotReady: until the admin schema is migrated, a key that is not
// cached is ErrUnavailable (the handlers' 503), never a query error.
func TestNotReady(t *testing.T) {
	db := testdb.Open(t, testdb.New(t, "sg_test_auth")) // not migrated
	var ready atomic.Bool
	a := auth.New(auth.Options{DB: db, Ready: ready.Load})
	t.Cleanup(a.Close)
	key := auth.CredentialKeyPrefix + "0123456789abcdef0123456789abcdef0123456789abcdef"
	if _, err := a.Authenticate(context.Background(), key); !errors.Is(err, auth.ErrUnavailable) {
		t.Fatalf("before the migration: %v", err)
	}
	if _, err := admin.Migrate(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	ready.Store(true)
	if _, err := a.Authenticate(context.Background(), key); !errors.Is(err, auth.ErrInvalidKey) {
		t.Fatalf("after the migration: %v", err)
	}
}
