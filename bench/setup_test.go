package main

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// A bench run's keys authenticate after setup and are revoked by teardown,
// with the admin key that issued them: runs leave no live keys behind.
func TestSetupThenTeardown(t *testing.T) {
	dsn := testdb.New(t, "bench_setup")
	keyFile := filepath.Join(t.TempDir(), "keys.txt")
	if err := setup(t.Context(), dsn, "mainnet", 3, 600, keyFile); err != nil {
		t.Fatal(err)
	}
	keys, err := readKeys(keyFile)
	if err != nil || len(keys) != 3 {
		t.Fatalf("%d keys, %v", len(keys), err)
	}
	authn := auth.New(auth.Options{DB: testdb.Open(t, dsn)})
	defer authn.Close()
	for _, k := range keys {
		id, err := authn.Authenticate(t.Context(), k)
		if err != nil {
			t.Fatalf("fresh bench key: %v", err)
		}
		if id.RateLimitPerMinute != 600 {
			t.Errorf("bench key at %d/min, want the 600 asked for", id.RateLimitPerMinute)
		}
	}
	if err := setup(t.Context(), dsn, "mainnet", 1, 10001, keyFile+"2"); err == nil {
		t.Error("setup took a limit above the schema's 10000/min")
	}
	if err := teardown(t.Context(), dsn, keyFile); err != nil {
		t.Fatal(err)
	}
	// A fresh authenticator: the first one remembers the keys it authenticated.
	after := auth.New(auth.Options{DB: testdb.Open(t, dsn)})
	defer after.Close()
	for _, k := range keys {
		if _, err := after.Authenticate(t.Context(), k); !errors.Is(err, auth.ErrKeyRevoked) {
			t.Fatalf("a bench key after teardown: %v, want ErrKeyRevoked", err)
		}
	}
	var live int
	if err := testdb.Open(t, dsn).Get(&live, `SELECT count(*) FROM syncgate.admin_keys WHERE NOT revoked AND admin_entity_name = 'syncgate-bench'`); err != nil {
		t.Fatal(err)
	}
	if live != 0 {
		t.Fatalf("%d bench admin keys still live", live)
	}
}
