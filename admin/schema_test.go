package admin

import (
	"context"
	"io"
	"log/slog"
	"net/url"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// TestMigrateAtStart: an unreachable admin database gives a schema that is
// not ready and is migrated in the background once the database is back;
// a reachable database that refuses a migration is an error at once.
func TestMigrateAtStart(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	dsn := testdb.New(t, "sg_test_admin")
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	proxy := testdb.NewProxy(t, u.Host, false)
	u.Host = proxy.Addr()
	db, err := sqlx.Open("postgres", u.String()) // no ping: it refuses connections
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := MigrateAtStart(ctx, db, quiet)
	if err != nil {
		t.Fatalf("unreachable database: %v, want a schema migrated later", err)
	}
	if s.Ready() {
		t.Fatal("ready without a database")
	}
	proxy.Restore()
	select {
	case <-s.Done():
	case <-time.After(20 * time.Second):
		t.Fatal("not migrated 20 s after the database came back")
	}
	if !s.Ready() {
		t.Fatal("done but not ready")
	}
	store := NewStore(db, Options{})
	defer store.Close()
	if _, _, err := store.AdminKeys(ctx, Bootstrap(""), Page{Limit: 1}); err != nil {
		t.Fatalf("store after the background migration: %v", err)
	}

	broken := testdb.Open(t, testdb.New(t, "sg_test_admin"))
	if _, err := broken.Exec(`CREATE SCHEMA syncgate; CREATE TABLE syncgate.schema_migrations (version text)`); err != nil {
		t.Fatal(err)
	}
	if _, err := MigrateAtStart(ctx, broken, quiet); err == nil {
		t.Fatal("a migration the database refuses was not reported")
	}
}
