package admin

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

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
	db := testdb.Open(t, testdb.New(t, "sg_test_admin"))
	if _, err := Migrate(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	return db
}

// newTestStore returns a Store wired to an authenticator of its own, as
// serve wires them (authOf returns it).
func newTestStore(t *testing.T, db *sqlx.DB, rc *cache.Client, clk *clock) *Store {
	t.Helper()
	fast := cache.NewFastClient(rc, cache.FastOptions{Now: clk.now})
	a := auth.New(auth.Options{DB: db, Redis: fast, Now: clk.now, RetryInterval: time.Hour})
	s := NewStore(db, Options{Invalidator: a, Now: clk.now})
	t.Cleanup(func() { s.Close(); a.Close(); fast.Close() })
	return s
}

// authOf is the authenticator newTestStore gave s.
func authOf(s *Store) *auth.Authenticator { return s.opts.Invalidator.(*auth.Authenticator) }

// fixture makes an admin key, a user and a credential; it returns the
// actor and the credential's key.
func fixture(t *testing.T, s *Store) (Admin, Credential, string) {
	t.Helper()
	ctx := context.Background()
	k, _, err := s.CreateAdminKey(ctx, Bootstrap(""), "partner", Permissions)
	if err != nil {
		t.Fatal(err)
	}
	a := Admin{ID: k.ID, PartnerID: k.PartnerID, EntityName: k.EntityName, Permissions: k.Permissions, IP: "192.0.2.1"}
	u, err := s.CreateUser(ctx, a, NewUser{Name: "u"})
	if err != nil {
		t.Fatal(err)
	}
	c, key, err := s.CreateCredential(ctx, a, NewCredential{Name: "c", UserAccountID: u.ID})
	if err != nil {
		t.Fatal(err)
	}
	return a, c, key
}

func TestMigrations(t *testing.T) {
	db := migrated(t)
	var tables []string
	if err := db.Select(&tables, `SELECT table_schema || '.' || table_name FROM information_schema.tables
		WHERE table_schema IN ('syncgate', 'public') ORDER BY 1`); err != nil {
		t.Fatal(err)
	}
	want := "syncgate.admin_keys syncgate.audit_log_counts syncgate.audit_logs syncgate.credentials syncgate.partners syncgate.plans syncgate.pool_stake syncgate.pool_stake_refresh syncgate.pool_stake_summary syncgate.scanner_blocks syncgate.scanner_checkpoints syncgate.schema_migrations syncgate.security_events syncgate.tx_submissions syncgate.usage_batches syncgate.usage_hourly syncgate.usage_route_hourly syncgate.user_accounts syncgate.webhook_deliveries syncgate.webhook_events syncgate.webhook_items syncgate.webhook_scan_versions syncgate.webhooks"
	if got := strings.Join(tables, " "); got != want {
		t.Fatalf("tables %q, want %q (nothing in public)", got, want)
	}
	again, err := Migrate(context.Background(), db)
	if err != nil || len(again) != 0 {
		t.Fatalf("second run applied %v, %v", again, err)
	}
	var name string
	if err := db.Get(&name, `SELECT admin_entity_name FROM syncgate.admin_keys WHERE id = $1 AND is_bootstrap AND key_hash IS NULL`, BootstrapKeyID); err != nil || name != "bootstrap" {
		t.Fatalf("bootstrap row: %q %v", name, err)
	}
}

func TestAuthenticateAdmin(t *testing.T) {
	db := migrated(t)
	ctx := context.Background()
	s := NewStore(db, Options{BootstrapAdminKey: "the-bootstrap-key-0123456789abcdef"})
	t.Cleanup(s.Close)
	if a, err := s.AuthenticateAdmin(ctx, "the-bootstrap-key-0123456789abcdef"); err != nil || !a.Bootstrap || a.ID != BootstrapKeyID {
		t.Fatalf("bootstrap: %+v %v", a, err)
	}
	k, key, err := s.CreateAdminKey(ctx, Bootstrap(""), "p", []string{PermViewUsage})
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.AuthenticateAdmin(ctx, key)
	if err != nil || a.ID != k.ID || a.Bootstrap || !a.Can(PermViewUsage) || a.Can(PermManageUsers) {
		t.Fatalf("admin key: %+v %v", a, err)
	}
	for _, bad := range []string{"", "the-bootstrap-key", key[:52], key + "0", strings.Replace(key, "sga1_", "sgk1_", 1)} {
		if _, err := s.AuthenticateAdmin(ctx, bad); !errors.Is(err, auth.ErrInvalidKey) {
			t.Fatalf("%q: %v", bad, err)
		}
	}
	if _, err := s.RevokeAdminKey(ctx, Bootstrap(""), k.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AuthenticateAdmin(ctx, key); !errors.Is(err, auth.ErrInvalidKey) {
		t.Fatalf("revoked: %v", err)
	}
	// Without BOOTSTRAP_ADMIN_KEY there is no bootstrap key at all.
	none := NewStore(db, Options{})
	t.Cleanup(none.Close)
	if _, err := none.AuthenticateAdmin(ctx, ""); !errors.Is(err, auth.ErrInvalidKey) {
		t.Fatalf("empty bootstrap: %v", err)
	}
}

func TestEnsureDemoAccess(t *testing.T) {
	db := migrated(t)
	clk := &clock{t: time.Now()}
	s := newTestStore(t, db, testdb.Redis(t), clk)
	ctx := context.Background()
	first, err := s.EnsureDemoAccess(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	check := func(d DemoAccess) {
		t.Helper()
		a, err := s.AuthenticateAdmin(ctx, d.AdminKey)
		if err != nil || a.ID != d.AdminKeyID || len(a.Permissions) != len(Permissions) {
			t.Fatalf("demo admin key: %+v %v", a, err)
		}
		caller, err := authOf(s).Authenticate(ctx, d.APIKey)
		if err != nil || caller.CredentialID != d.CredentialID || caller.UserAccountID != d.UserID || caller.NetworkID != 0 {
			t.Fatalf("demo API key: %+v %v", caller, err)
		}
		if u, err := s.User(ctx, a, d.UserID); err != nil || u.Status != StatusActive {
			t.Fatalf("demo user: %+v %v", u, err)
		}
	}
	check(first)
	second, err := s.EnsureDemoAccess(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	check(second)
	if _, err := s.AuthenticateAdmin(ctx, first.AdminKey); !errors.Is(err, auth.ErrInvalidKey) {
		t.Fatalf("previous demo admin key still works: %v", err)
	}
	if _, err := authOf(s).Authenticate(ctx, first.APIKey); !errors.Is(err, auth.ErrKeyRevoked) {
		t.Fatalf("previous demo API key: %v", err)
	}
	var live int
	if err := db.Get(&live, `SELECT count(*) FROM syncgate.admin_keys WHERE admin_entity_name = $1 AND NOT revoked`, DemoEntityName); err != nil || live != 1 {
		t.Fatalf("live demo keys: %d %v", live, err)
	}
}

// TestAuditInSameTransaction: an action that fails leaves neither its
// change nor an audit entry; one that succeeds leaves exactly one entry.
func TestAuditInSameTransaction(t *testing.T) {
	db := migrated(t)
	clk := &clock{t: time.Now()}
	s := newTestStore(t, db, nil, clk)
	ctx := context.Background()
	a, c, _ := fixture(t, s)
	count := func() int {
		var n int
		if err := db.Get(&n, `SELECT count(*) FROM syncgate.audit_logs`); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := count()
	// A name over 255 characters passes no handler, but if it reached the
	// store the CHECK would fail the insert and the audit entry with it.
	if _, err := s.CreateUser(ctx, a, NewUser{Name: strings.Repeat("x", 300)}); err == nil {
		t.Fatal("over-long name stored")
	}
	if _, err := s.RevokeCredential(ctx, Admin{ID: BootstrapKeyID}, c.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("revoke by a non-owner: %v", err)
	}
	if got := count(); got != before {
		t.Fatalf("failed actions wrote %d audit entries", got-before)
	}
	if _, err := s.RevokeCredential(ctx, a, c.ID); err != nil {
		t.Fatal(err)
	}
	var ip string
	if err := db.Get(&ip, `SELECT host(ip_address) FROM syncgate.audit_logs WHERE action = $1 AND target_id = $2`, ActionCredentialRevoked, c.ID); err != nil || ip != "192.0.2.1" {
		t.Fatalf("revoke entry: %q %v", ip, err)
	}
	if got := count(); got != before+1 {
		t.Fatalf("revoke wrote %d entries", got-before)
	}
}
