package testdb

import (
	"testing"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
)

// AdminUser adds a partner, an admin key and one user account to a
// migrated admin database and returns the user's id: what a test of
// webhooks, events or quotas needs to own its rows.
func AdminUser(t testing.TB, db *sqlx.DB) uuid.UUID {
	t.Helper()
	var partner, key, user uuid.UUID
	if err := db.Get(&partner, `INSERT INTO syncgate.partners (name) VALUES ('p') RETURNING id`); err != nil {
		t.Fatal(err)
	}
	if err := db.Get(&key, `INSERT INTO syncgate.admin_keys (admin_entity_name, key_hash, api_key_prefix, partner_id)
		VALUES ('p', sha256(gen_random_uuid()::text::bytea), 'x', $1) RETURNING id`, partner); err != nil {
		t.Fatal(err)
	}
	if err := db.Get(&user, `INSERT INTO syncgate.user_accounts (admin_key_id, partner_id, name) VALUES ($1, $2, 'u') RETURNING id`, key, partner); err != nil {
		t.Fatal(err)
	}
	return user
}
