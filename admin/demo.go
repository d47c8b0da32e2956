package admin

import (
	"context"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
)

// DemoEntityName names the admin key `syncgate demo` issues.
const DemoEntityName = "syncgate-demo"

// demoRateLimit is generous so that trying the demo by hand never hits it.
const demoRateLimit = 600

// DemoAccess is what `syncgate demo` prints. The keys exist nowhere else.
type DemoAccess struct {
	AdminKey     string
	AdminKeyID   uuid.UUID
	UserID       uuid.UUID
	APIKey       string
	CredentialID uuid.UUID
}

// EnsureDemoAccess leaves exactly one working demo admin key (every
// permission), a user it owns and one API key of that user on networkID.
// Keys are stored only as hashes, so a later run cannot print the earlier
// keys: each run revokes the previous demo admin keys and their
// credentials and issues fresh ones, all in one transaction, audited as
// the bootstrap key's actions (the new user and credential as the new
// demo key's). Earlier demo users stay, owned by their revoked key.
func (s *Store) EnsureDemoAccess(ctx context.Context, networkID int) (d DemoAccess, err error) {
	boot := Bootstrap("")
	var stale [][]byte
	err = s.inTx(ctx, "EnsureDemoAccess", func(tx *sqlx.Tx) error {
		var old []uuid.UUID
		if err := tx.SelectContext(ctx, &old, sqlLiveAdminKeysNamed, DemoEntityName); err != nil {
			return err
		}
		for _, id := range old {
			// Each demo key is its partner's only one, so this revokes its
			// credentials too.
			_, hs, err := s.revokeAdminKey(ctx, tx, boot, id)
			if err != nil {
				return err
			}
			stale = append(stale, hs...)
		}
		k, adminKey, err := s.createAdminKey(ctx, tx, boot, DemoEntityName, Permissions)
		if err != nil {
			return err
		}
		demo := Admin{ID: k.ID, PartnerID: k.PartnerID, EntityName: k.EntityName, Permissions: k.Permissions}
		u, err := s.createUser(ctx, tx, demo, NewUser{Name: "Demo user", ExternalID: "demo", Email: "demo@example.com", BillingPlan: "demo"})
		if err != nil {
			return err
		}
		c, apiKey, err := s.createCredential(ctx, tx, demo, NewCredential{
			Name: "demo", UserAccountID: u.ID, NetworkID: networkID, RateLimitPerMinute: demoRateLimit,
		})
		if err != nil {
			return err
		}
		d = DemoAccess{AdminKey: adminKey, AdminKeyID: k.ID, UserID: u.ID, APIKey: apiKey, CredentialID: c.ID}
		return nil
	})
	if err == nil {
		s.invalidate(ctx, stale...)
	}
	return d, err
}
