package admin

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	sqlfiles "github.com/syncgate/syncgate/sql"
)

var (
	sqlCreateCredential         = sqlfiles.Must("admin/create_credential.sql")
	sqlCredential               = sqlfiles.Must("admin/credential.sql")
	sqlCredentials              = sqlfiles.Must("admin/credentials.sql")
	sqlCountCredentials         = sqlfiles.Must("admin/count_credentials.sql")
	sqlUpdateCredential         = sqlfiles.Must("admin/update_credential.sql")
	sqlRevokeCredential         = sqlfiles.Must("admin/revoke_credential.sql")
	sqlRevokeAdminKeyCredential = sqlfiles.Must("admin/revoke_admin_key_credentials.sql")
)

// DefaultRateLimitPerMinute applies when a credential is created without one.
const DefaultRateLimitPerMinute = 60

// Credential is an API credential (spec §2.11), never with its key.
type Credential struct {
	ID                 uuid.UUID  `db:"id"`
	Name               string     `db:"name"`
	Description        *string    `db:"description"`
	APIKeyPrefix       string     `db:"api_key_prefix"`
	CreatedAt          time.Time  `db:"created_at"`
	UserAccountID      uuid.UUID  `db:"user_account_id"`
	UserAccountName    string     `db:"user_account_name"`
	UserExternalID     string     `db:"user_external_id"`
	AdminKeyID         uuid.UUID  `db:"admin_key_id"`
	EntityName         string     `db:"admin_entity_name"`
	NetworkID          int        `db:"network_id"`
	LastUsedAt         *time.Time `db:"last_used_at"`
	ExpiresAt          *time.Time `db:"expires_at"`
	Revoked            bool       `db:"revoked"`
	RevokedAt          *time.Time `db:"revoked_at"`
	RateLimitPerMinute int        `db:"rate_limit_per_minute"`
	Metadata           []byte     `db:"metadata"` // a JSON object
}

// NewCredential is a validated POST /v1/admin/credentials body.
type NewCredential struct {
	Name               string
	UserAccountID      uuid.UUID
	NetworkID          int
	Description        *string
	ExpiresAt          *time.Time
	RateLimitPerMinute int
	Metadata           []byte // a JSON object; nil means {}
}

// CredentialPatch holds the supplied fields of PATCH
// /v1/admin/credentials/:id. SetDescription with a nil Description clears it.
type CredentialPatch struct {
	Name           *string
	SetDescription bool
	Description    *string
}

// CreateCredential issues a key for one of a's users and returns the
// record and the key, which is shown once and never stored. ErrNotFound
// when the user is missing or not a's.
func (s *Store) CreateCredential(ctx context.Context, a Admin, in NewCredential) (c Credential, key string, err error) {
	err = s.inTx(ctx, "CreateCredential", func(tx *sqlx.Tx) error {
		c, key, err = s.createCredential(ctx, tx, a, in)
		return err
	})
	return c, key, err
}

func (s *Store) createCredential(ctx context.Context, tx *sqlx.Tx, a Admin, in NewCredential) (Credential, string, error) {
	key, hash, display := newKey(CredentialKeyPrefix)
	if in.RateLimitPerMinute == 0 {
		in.RateLimitPerMinute = DefaultRateLimitPerMinute
	}
	meta := in.Metadata
	if meta == nil {
		meta = []byte("{}")
	}
	var id uuid.UUID
	err := tx.GetContext(ctx, &id, sqlCreateCredential, newID(), a.ID, in.UserAccountID, in.Name, in.Description,
		hash[:], display, in.NetworkID, in.RateLimitPerMinute, string(meta), in.ExpiresAt)
	if errors.Is(err, sql.ErrNoRows) {
		return Credential{}, "", ErrNotFound
	}
	if err != nil {
		return Credential{}, "", err
	}
	var c Credential
	if err := tx.GetContext(ctx, &c, sqlCredential, id, a.ID); err != nil {
		return Credential{}, "", err
	}
	details := map[string]any{
		"name": c.Name, "user_account_id": c.UserAccountID, "network_id": c.NetworkID,
		"rate_limit_per_minute": c.RateLimitPerMinute, "expires_at": c.ExpiresAt, "api_key_prefix": c.APIKeyPrefix,
	}
	return c, key, s.audit(ctx, tx, a, ActionCredentialCreated, TargetCredential, &c.ID, details)
}

// Credentials lists a's credentials newest first, revoked ones only when asked.
func (s *Store) Credentials(ctx context.Context, a Admin, includeRevoked bool, p Page) (creds []Credential, total int64, err error) {
	err = s.inSnapshotTx(ctx, "Credentials", func(tx *sqlx.Tx) error {
		if err := tx.GetContext(ctx, &total, sqlCountCredentials, a.ID, includeRevoked); err != nil {
			return err
		}
		creds = []Credential{}
		if err := tx.SelectContext(ctx, &creds, sqlCredentials, a.ID, includeRevoked, p.Limit, p.Offset); err != nil {
			return err
		}
		details := map[string]any{"limit": p.Limit, "offset": p.Offset, "include_revoked": includeRevoked}
		return s.audit(ctx, tx, a, ActionCredentialListed, TargetCredential, nil, details)
	})
	return creds, total, err
}

// Credential returns one of a's credentials, revoked or not; ErrNotFound otherwise.
func (s *Store) Credential(ctx context.Context, a Admin, id uuid.UUID) (c Credential, err error) {
	err = s.inTx(ctx, "Credential", func(tx *sqlx.Tx) error {
		err := tx.GetContext(ctx, &c, sqlCredential, id, a.ID)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		return s.audit(ctx, tx, a, ActionCredentialViewed, TargetCredential, &c.ID, nil)
	})
	return c, err
}

// UpdateCredential changes name and/or description of one of a's live
// credentials. ErrNotFound when missing, not a's, or revoked.
func (s *Store) UpdateCredential(ctx context.Context, a Admin, id uuid.UUID, p CredentialPatch) (c Credential, err error) {
	err = s.inTx(ctx, "UpdateCredential", func(tx *sqlx.Tx) error {
		var got uuid.UUID
		err := tx.GetContext(ctx, &got, sqlUpdateCredential, id, a.ID, p.Name, p.SetDescription, p.Description)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		if err := tx.GetContext(ctx, &c, sqlCredential, id, a.ID); err != nil {
			return err
		}
		changes := map[string]any{}
		if p.Name != nil {
			changes["name"] = *p.Name
		}
		if p.SetDescription {
			changes["description"] = p.Description
		}
		return s.audit(ctx, tx, a, ActionCredentialUpdated, TargetCredential, &c.ID, map[string]any{"changes": changes})
	})
	return c, err
}

// RevokeCredential revokes (soft-deletes) one of a's live credentials; the
// key fails authentication from the next request on every instance.
// ErrNotFound when missing, not a's, or already revoked.
func (s *Store) RevokeCredential(ctx context.Context, a Admin, id uuid.UUID) (c Credential, err error) {
	var hash []byte
	err = s.inTx(ctx, "RevokeCredential", func(tx *sqlx.Tx) error {
		err := tx.GetContext(ctx, &hash, sqlRevokeCredential, id, a.ID)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		if err := tx.GetContext(ctx, &c, sqlCredential, id, a.ID); err != nil {
			return err
		}
		details := map[string]any{"name": c.Name, "user_account_id": c.UserAccountID, "api_key_prefix": c.APIKeyPrefix}
		return s.audit(ctx, tx, a, ActionCredentialRevoked, TargetCredential, &c.ID, details)
	})
	if err == nil {
		s.invalidate(ctx, hash)
	}
	return c, err
}

// revokeAdminKeyCredentials revokes every live credential an admin key
// owns, auditing each in a's name, and returns their key hashes for
// invalidation after commit.
func (s *Store) revokeAdminKeyCredentials(ctx context.Context, tx *sqlx.Tx, a Admin, keyID uuid.UUID) ([][]byte, error) {
	var rows []struct {
		ID   uuid.UUID `db:"id"`
		Hash []byte    `db:"key_hash"`
	}
	if err := tx.SelectContext(ctx, &rows, sqlRevokeAdminKeyCredential, keyID); err != nil {
		return nil, err
	}
	hashes := make([][]byte, 0, len(rows))
	for _, r := range rows {
		if err := s.audit(ctx, tx, a, ActionCredentialRevoked, TargetCredential, &r.ID, map[string]any{"reason": "demo key rotation"}); err != nil {
			return nil, err
		}
		hashes = append(hashes, r.Hash)
	}
	return hashes, nil
}
