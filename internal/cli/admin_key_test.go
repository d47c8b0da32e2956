package cli

import (
	"context"
	"errors"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// adminKeyCLI runs `syncgate admin-key args…` and returns what it printed.
func adminKeyCLI(t *testing.T, args ...string) (string, error) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	runErr := AdminKey(context.Background(), args)
	os.Stdout = stdout
	w.Close()
	out, _ := io.ReadAll(r)
	return string(out), runErr
}

// TestAdminKeyCLI: create, roll with an overlap, then revoke the new key;
// it was the partner's last lasting key, so the rolled one goes too.
func TestAdminKeyCLI(t *testing.T) {
	testdb.RequireServices(t)
	dsn := testdb.New(t, "sg_test_cli")
	db := testdb.Open(t, dsn)
	t.Setenv("REDIS_URL", testdb.RedisURL())
	out, err := adminKeyCLI(t, "create", "--db", dsn, "--name", "P", "--permissions", "manage_users,view_usage")
	if err != nil {
		t.Fatal(err)
	}
	id := regexp.MustCompile(`admin key (\S+) \(P\)`).FindStringSubmatch(out)
	if id == nil || !regexp.MustCompile(`key \(shown once, store it now\): sga1_[0-9a-f]{48}\n`).MatchString(out) {
		t.Fatalf("create printed %q", out)
	}
	out, err = adminKeyCLI(t, "roll", "--db", dsn, "--id", id[1], "--expires-in", "3600")
	if err != nil {
		t.Fatal(err)
	}
	newID := regexp.MustCompile(`new admin key (\S+) \(P\) of the same partner, permissions \[manage_users,view_usage\]`).FindStringSubmatch(out)
	if newID == nil || !strings.Contains(out, "admin key "+id[1]+" keeps working until ") {
		t.Fatalf("roll printed %q", out)
	}
	var state []string
	if err := db.Select(&state, `SELECT concat_ws(' ', revoked, expires_at IS NOT NULL,
			partner_id = (SELECT partner_id FROM syncgate.admin_keys WHERE id = $1))
		FROM syncgate.admin_keys WHERE id IN ($1, $2) ORDER BY id = $1 DESC`, id[1], newID[1]); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(state, ", "); got != "f t t, f f t" {
		t.Fatalf("after roll (old, new): %s", got)
	}
	out, err = adminKeyCLI(t, "revoke", "--db", dsn, "--id", newID[1])
	if err != nil || !strings.Contains(out, "it was its partner's last active key: 0 credentials revoked") {
		t.Fatalf("revoke printed %q, %v", out, err)
	}
	var live int
	if err := db.Get(&live, `SELECT count(*) FROM syncgate.admin_keys WHERE NOT revoked AND NOT is_bootstrap`); err != nil || live != 0 {
		t.Fatalf("live keys after revoking the last: %d, %v", live, err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"roll", "--db", dsn, "--id", id[1], "--expires-in", "604801"}, "--expires-in must be from 0 to 604800 seconds"},
		{[]string{"roll", "--db", dsn, "--id", id[1]}, "admin key not found or already revoked"},
		{[]string{"revoke", "--db", dsn, "--id", "nope"}, "--id must be an admin key id"},
		{[]string{"revoke", "--db", dsn, "--id", id[1]}, "admin key not found or already revoked"},
		{[]string{"rotate"}, "usage: syncgate admin-key"},
	} {
		if _, err := adminKeyCLI(t, tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.args, err, tc.want)
		}
	}
}

// TestAdminKeyCLIRevocationReachesInstances: without Redis, revoking a
// partner's last admin key from the command line reaches a serving
// instance's credential cache through NOTIFY (its clock is frozen, so no
// TTL could).
func TestAdminKeyCLIRevocationReachesInstances(t *testing.T) {
	testdb.RequireServices(t)
	dsn := testdb.New(t, "sg_test_cli")
	db := testdb.Open(t, dsn)
	t.Setenv("REDIS_URL", "")
	if _, err := admin.Migrate(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	frozen := time.Now()
	authn := auth.New(auth.Options{DB: db, ListenURL: dsn, Now: func() time.Time { return frozen }})
	t.Cleanup(authn.Close)
	store := admin.NewStore(db, admin.Options{Invalidator: authn})
	t.Cleanup(store.Close)
	ctx := context.Background()
	k, _, err := store.CreateAdminKey(ctx, admin.Bootstrap(""), "P", admin.Permissions)
	if err != nil {
		t.Fatal(err)
	}
	a := admin.Admin{ID: k.ID, PartnerID: k.PartnerID, Permissions: k.Permissions}
	u, err := store.CreateUser(ctx, a, admin.NewUser{Name: "u"})
	if err != nil {
		t.Fatal(err)
	}
	_, apiKey, err := store.CreateCredential(ctx, a, admin.NewCredential{Name: "c", UserAccountID: u.ID})
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); !authn.Listening(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("listener not trusted after 10 s")
		}
	}
	if _, err := authn.Authenticate(ctx, apiKey); err != nil {
		t.Fatal(err)
	}
	if _, err := adminKeyCLI(t, "revoke", "--db", dsn, "--id", k.ID.String()); err != nil {
		t.Fatal(err)
	}
	revoked := time.Now()
	for {
		_, err := authn.Authenticate(ctx, apiKey)
		if errors.Is(err, auth.ErrKeyRevoked) {
			return
		}
		// The entry is trusted for CacheTTL (60 s): only the notification
		// can end it sooner; 10 s is a lost one, not a latency bound.
		if err != nil || time.Since(revoked) > 10*time.Second {
			t.Fatalf("%v after the CLI revocation: %v", time.Since(revoked), err)
		}
		time.Sleep(time.Millisecond)
	}
}
