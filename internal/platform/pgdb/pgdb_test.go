package pgdb_test

import (
	"testing"

	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/internal/platform/pgdb"
)

// TestEnsureDatabase creates a missing database, leaves an existing one alone, and refuses a URL without a name.
func TestEnsureDatabase(t *testing.T) {
	testdb.RequirePostgres(t)
	dsn, drop, err := testdb.Create(`sg_test_ensure`)
	if err != nil {
		t.Fatal(err)
	}
	drop() // now missing
	if err := pgdb.EnsureDatabase(t.Context(), dsn); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	if err := testdb.Open(t, dsn).Ping(); err != nil {
		t.Fatalf("created database does not answer: %v", err)
	}
	if err := pgdb.EnsureDatabase(t.Context(), dsn); err != nil {
		t.Fatalf("existing database: %v", err)
	}
	if err := pgdb.EnsureDatabase(t.Context(), "postgres://postgres@127.0.0.1:5432/?sslmode=disable"); err == nil {
		t.Error("a URL without a database name was accepted")
	}
}
