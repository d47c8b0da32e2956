package admin

import (
	"context"
	"crypto/sha256"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/sql"
)

// TestMigrationPartners: on a database holding data from before 0006, each
// admin key becomes its own partner and owns what it created; after that
// the same key still sees its users and credentials through the store.
func TestMigrationPartners(t *testing.T) {
	db := testdb.Open(t, testdb.New(t, "sg_test_admin"))
	ctx := context.Background()
	ms, err := Migrations()
	if err != nil {
		t.Fatal(err)
	}
	// Apply 0001–0005 by hand, as an older binary would have.
	if _, err := db.Exec(`CREATE SCHEMA IF NOT EXISTS syncgate; CREATE TABLE syncgate.schema_migrations (
		version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		t.Fatal(err)
	}
	for _, m := range ms[:5] {
		if _, err := db.Exec(m.SQL); err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		if _, err := db.Exec(`INSERT INTO syncgate.schema_migrations (version, name) VALUES ($1, $2)`, m.Version, m.Name); err != nil {
			t.Fatal(err)
		}
	}
	keyA, keyB := "sga1_"+strings.Repeat("a", 48), "sga1_"+strings.Repeat("b", 48)
	credKey := "sgk1_" + strings.Repeat("c", 48)
	ha, hb, hc := sha256.Sum256([]byte(keyA)), sha256.Sum256([]byte(keyB)), sha256.Sum256([]byte(credKey))
	idA, idB, user, cred := uuid.New(), uuid.New(), uuid.New(), uuid.New()
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO syncgate.admin_keys (id, admin_entity_name, permissions, key_hash, api_key_prefix) VALUES ($1, 'A', $2, $3, 'sga1_aaaaaaa')`, []any{idA, "{manage_users,manage_credentials}", ha[:]}},
		{`INSERT INTO syncgate.admin_keys (id, admin_entity_name, permissions, key_hash, api_key_prefix) VALUES ($1, 'B', $2, $3, 'sga1_bbbbbbb')`, []any{idB, "{manage_users,manage_credentials}", hb[:]}},
		{`INSERT INTO syncgate.user_accounts (id, admin_key_id, name) VALUES ($1, $2, 'u')`, []any{user, idA}},
		{`INSERT INTO syncgate.credentials (id, user_account_id, admin_key_id, name, key_hash, api_key_prefix, network_id) VALUES ($1, $2, $3, 'c', $4, 'sgk1_ccccccc', 0)`, []any{cred, user, idA, hc[:]}},
	} {
		if _, err := db.Exec(q.sql, q.args...); err != nil {
			t.Fatal(err)
		}
	}
	applied, err := Migrate(ctx, db)
	if err == nil && len(applied) > 0 && strings.HasPrefix(applied[len(applied)-1], "river_") {
		for len(applied) > 0 && strings.HasPrefix(applied[len(applied)-1], "river_") {
			applied = applied[:len(applied)-1] // river's own, after syncgate's
		}
	} else if err == nil {
		t.Fatalf("river's migrations not applied: %v", applied)
	}
	if err != nil || len(applied) != len(ms)-5 {
		t.Fatalf("applied %v, %v", applied, err)
	}
	var rows []string
	if err := db.Select(&rows, `SELECT concat_ws(' ', k.admin_entity_name, p.name, k.partner_id = k.id,
			(SELECT count(*) FROM syncgate.user_accounts u WHERE u.partner_id = p.id),
			(SELECT count(*) FROM syncgate.credentials c WHERE c.partner_id = p.id))
		FROM syncgate.admin_keys k LEFT JOIN syncgate.partners p ON p.id = k.partner_id ORDER BY k.admin_entity_name`); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rows, "; "); got != "A A t 1 1; B B t 0 0; bootstrap 0 0" {
		t.Fatalf("after 0006: %s", got)
	}
	clk := &clock{t: time.Now()}
	s := newTestStore(t, db, nil, clk)
	a, err := s.AuthenticateAdmin(ctx, keyA)
	if err != nil || a.PartnerID != idA {
		t.Fatalf("A: %+v %v", a, err)
	}
	if _, err := s.Credential(ctx, a, cred); err != nil {
		t.Fatalf("A's credential after the migration: %v", err)
	}
	b, _ := s.AuthenticateAdmin(ctx, keyB)
	if _, err := s.Credential(ctx, b, cred); err == nil {
		t.Fatal("B sees A's credential")
	}
	if c, err := authOf(s).Authenticate(ctx, credKey); err != nil || c.CredentialID != cred {
		t.Fatalf("credential key after the migration: %+v %v", c, err)
	}
	// Revoking A, its partner's only key, revokes the credential.
	r, err := s.RevokeAdminKey(ctx, Bootstrap(""), idA)
	if err != nil || !r.LastOfPartner || r.CredentialsRevoked != 1 {
		t.Fatalf("revoke A: %+v %v", r, err)
	}
	if _, err := authOf(s).Authenticate(ctx, credKey); !errors.Is(err, auth.ErrKeyRevoked) {
		t.Fatalf("credential after its partner's last key went: %v", err)
	}
}

// TestConcurrentRevokeOfTwoKeys: two keys of one partner revoked at the
// same time cannot both count the other as "still there".
func TestConcurrentRevokeOfTwoKeys(t *testing.T) {
	db := migrated(t)
	clk := &clock{t: time.Now()}
	s := newTestStore(t, db, nil, clk)
	ctx := context.Background()
	for range 5 {
		a, c, key := fixture(t, s)
		r, err := s.RollAdminKey(ctx, Bootstrap(""), a.ID, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		// Make the old key lasting again, so the partner has two lasting keys.
		if _, err := db.Exec(`UPDATE syncgate.admin_keys SET expires_at = NULL WHERE id = $1`, a.ID); err != nil {
			t.Fatal(err)
		}
		errs := make(chan error, 2)
		for _, id := range []uuid.UUID{a.ID, r.New.ID} {
			go func() { _, err := s.RevokeAdminKey(ctx, Bootstrap(""), id); errs <- err }()
		}
		for range 2 {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		if _, err := authOf(s).Authenticate(ctx, key); !errors.Is(err, auth.ErrKeyRevoked) {
			t.Fatalf("credential %s after both keys went: %v", c.ID, err)
		}
	}
}

// TestPartnerQueriesUseIndexes: the statements that go by partner or by a
// key hash use their indexes, not a scan, with sequential scans priced out.
func TestPartnerQueriesUseIndexes(t *testing.T) {
	db := migrated(t)
	clk := &clock{t: time.Now()}
	s := newTestStore(t, db, nil, clk)
	a, c, _ := fixture(t, s)
	// Enough other partners' keys that a scan of any index would cost more
	// than the right one, as on a real deployment.
	if _, err := db.Exec(`WITH p AS (INSERT INTO syncgate.partners (name) SELECT 'p' || i FROM generate_series(1, 3000) i RETURNING id)
		INSERT INTO syncgate.admin_keys (admin_entity_name, key_hash, api_key_prefix, partner_id)
		SELECT 'k', sha256(id::text::bytea), 'sga1_x', id FROM p`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`ANALYZE syncgate.admin_keys; ANALYZE syncgate.partners`); err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256([]byte("x"))
	now := time.Now()
	for _, q := range []struct {
		name, sql, index string
		args             []any
	}{
		{"credential_by_hash (package auth)", sqlfiles.Must("admin/credential_by_hash.sql"), "credentials_previous_key_hash_key", []any{h[:]}},
		{"admin_key_by_hash", sqlAdminKeyByHash, "admin_keys_key_hash_key", []any{h[:], now}},
		{"lock_admin_key_partner", sqlLockKeyPartner, "admin_keys_pkey", []any{a.ID, now}},
		{"count_partner_lasting_keys", sqlCountLastingKeys, "admin_keys_partner_idx", []any{a.PartnerID}},
		{"revoke_partner_admin_keys", sqlRevokePartnerKeys, "admin_keys_partner_idx", []any{a.PartnerID}},
		{"revoke_partner_credentials", sqlRevokePartnerCreds, "credentials_partner_idx", []any{a.PartnerID}},
		// Either index finds the one row (partner_idx's condition names the id too).
		{"lock_credential_roll", sqlLockCredRoll, "credentials_pkey|credentials_partner_idx", []any{c.ID, a.PartnerID}},
		{"roll_credential", sqlRollCredential, "credentials_pkey", []any{c.ID, a.PartnerID, h[:], "p", now}},
		{"credentials", sqlCredentials, "credentials_partner_idx", []any{a.PartnerID, true, 20, 0}},
		{"count_credentials", sqlCountCredentials, "credentials_partner_idx", []any{a.PartnerID, false}},
		{"users", sqlUsers, "user_accounts_partner", []any{a.PartnerID, nil, 20, 0}},
		{"count_users", sqlCountUsers, "user_accounts_partner", []any{a.PartnerID, "active"}},
		{"user_credential_hashes", sqlUserCredentialHashes, "credentials_user_idx", []any{c.UserAccountID}},
		{"user_plan_lock", sqlUserPlanLock, "user_accounts_pkey|user_accounts_partner_status_idx", []any{c.UserAccountID, a.PartnerID}},
		{"plan_user_counts", sqlPlanUserCounts, "user_accounts_plan_idx", []any{pq.StringArray{c.UserAccountID.String()}, a.PartnerID}},
		{"user_plan_limits", sqlUserPlanLimits, "credentials_user_idx", []any{c.UserAccountID, a.PartnerID, now}},
		{"webhook_user_limit (package events)", sqlfiles.Must("admin/webhook_user_limit.sql"), "webhooks_user_idx", []any{c.UserAccountID}},
		{"security_events", sqlSecurityEvents, "security_events_pkey", []any{20, 0}},
		{"prune_security_events", sqlPruneSecurityEvents, "security_events_pkey", []any{100}},
	} {
		t.Run(q.name, func(t *testing.T) {
			tx, err := db.BeginTxx(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback() //nolint:errcheck
			if _, err := tx.Exec(`SET LOCAL enable_seqscan = off`); err != nil {
				t.Fatal(err)
			}
			var plan []string
			if err := tx.Select(&plan, "EXPLAIN "+q.sql, q.args...); err != nil {
				t.Fatal(err)
			}
			text := strings.Join(plan, "\n")
			uses := false
			for _, index := range strings.Split(q.index, "|") {
				uses = uses || strings.Contains(text, index)
			}
			if strings.Contains(text, "Seq Scan") || !uses {
				t.Errorf("want %s, no sequential scan:\n%s", q.index, text)
			}
		})
	}
}
