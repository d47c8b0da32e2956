package admin

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/syncgate/syncgate/internal/testdb"
)

// countLoads counts s's credential loads from PostgreSQL.
func countLoads(s *Store) *atomic.Int64 {
	var n atomic.Int64
	s.afterLoad = func() { n.Add(1) }
	return &n
}

// TestNegativeCache: an unknown key costs one query, then none while it is
// cached; a flood of unknown keys fills its own bounded cache and never
// evicts a live key.
func TestNegativeCache(t *testing.T) {
	db := migrated(t)
	clk := &clock{t: time.Now()}
	s := newTestStore(t, db, testdb.Redis(t), clk)
	ctx := context.Background()
	_, _, key := fixture(t, s)
	loads := countLoads(s)
	s.creds.maxMissing = 50

	if _, err := s.AuthenticateCredential(ctx, key); err != nil {
		t.Fatal(err)
	}
	unknown := CredentialKeyPrefix + strings.Repeat("e", 48)
	for range 5 {
		if _, err := s.AuthenticateCredential(ctx, unknown); !errors.Is(err, ErrInvalidKey) {
			t.Fatalf("unknown: %v", err)
		}
	}
	if got := loads.Load(); got != 2 {
		t.Fatalf("loads = %d, want 2 (the live key once, the unknown key once)", got)
	}
	// Far more unknown keys than either cache holds.
	for i := range 400 {
		k := CredentialKeyPrefix + strings.Repeat("a", 40) + fmt.Sprintf("%08d", i)
		if _, err := s.AuthenticateCredential(ctx, k); !errors.Is(err, ErrInvalidKey) {
			t.Fatalf("flood key %d: %v", i, err)
		}
	}
	s.creds.mu.RLock()
	nMissing, nEntries := len(s.creds.missing), len(s.creds.entries)
	s.creds.mu.RUnlock()
	if nMissing > 50 || nEntries != 1 {
		t.Fatalf("after the flood: %d negative (max 50), %d positive (want the live key)", nMissing, nEntries)
	}
	before := loads.Load()
	if _, err := s.AuthenticateCredential(ctx, key); err != nil || loads.Load() != before {
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
	s := newTestStore(t, db, nil, clk)
	ctx := context.Background()
	a, c, key := fixture(t, s)

	reached, release := make(chan struct{}), make(chan struct{})
	var first atomic.Bool
	s.afterLoad = func() {
		if first.CompareAndSwap(false, true) {
			close(reached)
			<-release
		}
	}
	done := make(chan error, 1)
	go func() {
		_, err := s.AuthenticateCredential(ctx, key) // started before the revoke: may pass
		done <- err
	}()
	<-reached
	if _, err := s.RevokeCredential(ctx, a, c.ID); err != nil {
		t.Fatal(err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatalf("in-flight authentication: %v", err)
	}
	if _, err := s.AuthenticateCredential(ctx, key); !errors.Is(err, ErrKeyRevoked) {
		t.Fatalf("after the revoke: %v, want ErrKeyRevoked", err)
	}
}

// TestAuthPoolIsolated: with the main pool's every connection held by a
// slow admin query, a credential lookup on its own pool still answers.
func TestAuthPoolIsolated(t *testing.T) {
	dsn := testdb.New(t, "sg_test_admin")
	main := testdb.Open(t, dsn)
	if _, err := Migrate(context.Background(), main); err != nil {
		t.Fatal(err)
	}
	authDB := testdb.Open(t, dsn)
	authDB.SetMaxOpenConns(1)
	s := NewStore(main, Options{AuthDB: authDB, TouchInterval: time.Hour})
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
	if _, err := s.AuthenticateCredential(ctx, key); err != nil {
		t.Fatalf("lookup stalled behind the main pool: %v", err)
	}
}
