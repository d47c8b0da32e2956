package admin

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/sql"
)

var (
	sqlAdminKeyByHash     = sqlfiles.Must("admin/admin_key_by_hash.sql")
	sqlCreateAdminKey     = sqlfiles.Must("admin/create_admin_key.sql")
	sqlAdminKeys          = sqlfiles.Must("admin/admin_keys.sql")
	sqlCountAdminKeys     = sqlfiles.Must("admin/count_admin_keys.sql")
	sqlRevokeAdminKey     = sqlfiles.Must("admin/revoke_admin_key.sql")
	sqlLiveAdminKeysNamed = sqlfiles.Must("admin/live_admin_keys_named.sql")
	sqlCreatePartner      = sqlfiles.Must("admin/create_partner.sql")
	sqlLockKeyPartner     = sqlfiles.Must("admin/lock_admin_key_partner.sql")
	sqlCountLastingKeys   = sqlfiles.Must("admin/count_partner_lasting_keys.sql")
	sqlRevokePartnerKeys  = sqlfiles.Must("admin/revoke_partner_admin_keys.sql")
	sqlRevokePartnerCreds = sqlfiles.Must("admin/revoke_partner_credentials.sql")
	sqlRollAdminKeyOld    = sqlfiles.Must("admin/roll_admin_key_old.sql")
)

// MaxRollOverlap bounds how long a rolled key may keep working (Stripe
// offers up to 7 days too).
const MaxRollOverlap = 7 * 24 * time.Hour

// AdminKey is an admin key's record (never its key).
type AdminKey struct {
	ID           uuid.UUID      `db:"id"`
	PartnerID    uuid.UUID      `db:"partner_id"`
	EntityName   string         `db:"admin_entity_name"`
	Permissions  pq.StringArray `db:"permissions"`
	APIKeyPrefix string         `db:"api_key_prefix"`
	CreatedAt    time.Time      `db:"created_at"`
	// ExpiresAt is set when the key was rolled with an overlap: it stops
	// working then.
	ExpiresAt *time.Time `db:"expires_at"`
	Revoked   bool       `db:"revoked"`
	RevokedAt *time.Time `db:"revoked_at"`
}

// AuthenticateAdmin resolves an admin key: the bootstrap key (compared in
// constant time through its SHA-256) or a live stored admin key. Anything
// else, including a credential, a revoked admin key and a rolled one past
// its overlap, is auth.ErrInvalidKey.
// Admin endpoints read PostgreSQL anyway, so there is no cache here and a
// revocation holds from the next request on every instance.
func (s *Store) AuthenticateAdmin(ctx context.Context, key string) (Admin, error) {
	h := sha256.Sum256([]byte(key))
	if s.hasBootstrap && subtle.ConstantTimeCompare(h[:], s.bootstrapHash[:]) == 1 {
		return Bootstrap(""), nil
	}
	if !auth.WellFormed(key, auth.AdminKeyPrefix) {
		return Admin{}, auth.ErrInvalidKey
	}
	var row struct {
		ID          uuid.UUID      `db:"id"`
		PartnerID   uuid.UUID      `db:"partner_id"`
		EntityName  string         `db:"admin_entity_name"`
		Permissions pq.StringArray `db:"permissions"`
	}
	err := s.db.GetContext(ctx, &row, sqlAdminKeyByHash, h[:], s.now())
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Admin{}, auth.ErrInvalidKey
	case err != nil:
		return Admin{}, wrap("AuthenticateAdmin", err)
	}
	return Admin{ID: row.ID, PartnerID: row.PartnerID, EntityName: row.EntityName, Permissions: row.Permissions}, nil
}

// CreateAdminKey stores a new admin key, the first of a new partner, and
// returns its record and the key itself, which exists nowhere else afterwards.
func (s *Store) CreateAdminKey(ctx context.Context, a Admin, name string, perms []string) (k AdminKey, key string, err error) {
	err = s.inTx(ctx, "CreateAdminKey", func(tx *sqlx.Tx) error {
		k, key, err = s.createAdminKey(ctx, tx, a, name, perms)
		return err
	})
	return k, key, err
}

func (s *Store) createAdminKey(ctx context.Context, tx *sqlx.Tx, a Admin, name string, perms []string) (AdminKey, string, error) {
	partner := newID()
	if _, err := tx.ExecContext(ctx, sqlCreatePartner, partner, name); err != nil {
		return AdminKey{}, "", err
	}
	k, key, err := insertAdminKey(ctx, tx, partner, name, perms)
	if err != nil {
		return AdminKey{}, "", err
	}
	details := map[string]any{"admin_entity_name": name, "permissions": k.Permissions, "api_key_prefix": k.APIKeyPrefix, "partner_id": partner}
	if err := s.audit(ctx, tx, a, ActionAdminKeyCreated, TargetAdminKey, &k.ID, details); err != nil {
		return AdminKey{}, "", err
	}
	return k, key, nil
}

// insertAdminKey stores a fresh key of partner.
func insertAdminKey(ctx context.Context, tx *sqlx.Tx, partner uuid.UUID, name string, perms []string) (AdminKey, string, error) {
	key, hash, display := auth.NewKey(auth.AdminKeyPrefix)
	if perms == nil {
		perms = []string{}
	}
	var k AdminKey
	if err := tx.GetContext(ctx, &k, sqlCreateAdminKey, newID(), name, pq.StringArray(perms), hash[:], display, partner); err != nil {
		return AdminKey{}, "", err
	}
	return k, key, nil
}

// AdminKeys lists admin keys, newest first, with the total.
func (s *Store) AdminKeys(ctx context.Context, a Admin, p Page) (keys []AdminKey, total int64, err error) {
	err = s.inSnapshotTx(ctx, "AdminKeys", func(tx *sqlx.Tx) error {
		if err := tx.GetContext(ctx, &total, sqlCountAdminKeys); err != nil {
			return err
		}
		keys = []AdminKey{}
		if err := tx.SelectContext(ctx, &keys, sqlAdminKeys, p.Limit, p.Offset); err != nil {
			return err
		}
		return s.audit(ctx, tx, a, ActionAdminKeyListed, TargetAdminKey, nil, map[string]any{"limit": p.Limit, "offset": p.Offset})
	})
	return keys, total, err
}

// RevokeAdminKey revokes a live admin key: it fails authentication from
// the next request on. When it was its partner's last lasting key (none
// left unrevoked without a roll overlap), the partner can no longer be
// managed, so its remaining keys and every live credential are revoked in
// the same transaction and the credentials fail authentication as soon as
// the invalidation reaches an instance (package auth says when);
// CredentialsRevoked says how many. ErrNotFound when missing, bootstrap or
// already revoked.
func (s *Store) RevokeAdminKey(ctx context.Context, a Admin, id uuid.UUID) (r RevokedAdminKey, err error) {
	var hashes [][]byte
	err = s.inTx(ctx, "RevokeAdminKey", func(tx *sqlx.Tx) error {
		r, hashes, err = s.revokeAdminKey(ctx, tx, a, id)
		return err
	})
	if err == nil {
		s.invalidate(ctx, hashes...)
	}
	return r, err
}

// RevokedAdminKey is a revoked key's record and what its revocation took with it.
type RevokedAdminKey struct {
	AdminKey
	// LastOfPartner: no lasting key of its partner is left.
	LastOfPartner      bool
	CredentialsRevoked int
}

// revokeAdminKey revokes id inside tx and returns the key hashes whose
// caches must be invalidated once tx commits.
func (s *Store) revokeAdminKey(ctx context.Context, tx *sqlx.Tx, a Admin, id uuid.UUID) (RevokedAdminKey, [][]byte, error) {
	var r RevokedAdminKey
	var partner uuid.UUID
	// Lock the partner first: its keys are revoked and rolled one at a time,
	// so "the last key" is decided on a settled set.
	err := tx.GetContext(ctx, &partner, sqlLockKeyPartner, id, s.now())
	if errors.Is(err, sql.ErrNoRows) {
		// A rolled key past its overlap is not live any more, but it is
		// not revoked either: revoking it still records that.
		partner, err = uuid.Nil, nil
	}
	if err != nil {
		return r, nil, err
	}
	if err := getOne(ctx, tx, &r.AdminKey, sqlRevokeAdminKey, id); err != nil {
		return r, nil, err
	}
	var hashes [][]byte
	if partner != uuid.Nil {
		var lasting int
		if err := tx.GetContext(ctx, &lasting, sqlCountLastingKeys, partner); err != nil {
			return r, nil, err
		}
		if lasting == 0 {
			r.LastOfPartner = true
			if hashes, r.CredentialsRevoked, err = revokePartner(ctx, tx, partner); err != nil {
				return r, nil, err
			}
		}
	}
	details := map[string]any{
		"admin_entity_name": r.EntityName, "api_key_prefix": r.APIKeyPrefix, "partner_id": r.PartnerID,
		"last_key_of_partner": r.LastOfPartner, "credentials_revoked": r.CredentialsRevoked,
	}
	return r, hashes, s.audit(ctx, tx, a, ActionAdminKeyRevoked, TargetAdminKey, &r.ID, details)
}

// revokePartner revokes what is left of a partner whose last lasting admin
// key went: keys still inside a roll overlap, and every live credential.
// It returns the credentials' key hashes and how many credentials there were.
func revokePartner(ctx context.Context, tx *sqlx.Tx, partner uuid.UUID) ([][]byte, int, error) {
	var keys []uuid.UUID
	if err := tx.SelectContext(ctx, &keys, sqlRevokePartnerKeys, partner); err != nil {
		return nil, 0, err
	}
	var rows []struct {
		ID       uuid.UUID `db:"id"`
		Hash     []byte    `db:"key_hash"`
		Previous []byte    `db:"previous_key_hash"`
	}
	if err := tx.SelectContext(ctx, &rows, sqlRevokePartnerCreds, partner); err != nil {
		return nil, 0, err
	}
	hashes := make([][]byte, 0, len(rows))
	for _, r := range rows {
		hashes = append(hashes, r.Hash)
		if r.Previous != nil {
			hashes = append(hashes, r.Previous)
		}
	}
	return hashes, len(rows), nil
}

// RolledAdminKey is the outcome of a roll: the new key (shown once) and
// the old key's record, revoked or expiring.
type RolledAdminKey struct {
	New      AdminKey
	Key      string
	Previous AdminKey
}

// RollAdminKey gives a live admin key a successor of the same partner,
// name and permissions. The old key stops working after overlap (0: at
// once, revoked). ErrNotFound when the key is missing, bootstrap, revoked
// or past an earlier overlap.
func (s *Store) RollAdminKey(ctx context.Context, a Admin, id uuid.UUID, overlap time.Duration) (r RolledAdminKey, err error) {
	if overlap < 0 || overlap > MaxRollOverlap {
		return r, errors.New("admin: roll overlap out of range")
	}
	err = s.inTx(ctx, "RollAdminKey", func(tx *sqlx.Tx) error {
		now := s.now()
		var partner uuid.UUID
		if err := getOne(ctx, tx, &partner, sqlLockKeyPartner, id, now); err != nil {
			return err
		}
		until := now.Add(overlap).Truncate(time.Microsecond) // PostgreSQL's precision, never rounded up
		// Another roll may have revoked the key while this one waited for
		// the partner's lock: then it is no longer live.
		if err := getOne(ctx, tx, &r.Previous, sqlRollAdminKeyOld, id, until, overlap == 0); err != nil {
			return err
		}
		if r.New, r.Key, err = insertAdminKey(ctx, tx, partner, r.Previous.EntityName, r.Previous.Permissions); err != nil {
			return err
		}
		details := map[string]any{
			"new_admin_key_id": r.New.ID, "api_key_prefix": r.New.APIKeyPrefix, "previous_api_key_prefix": r.Previous.APIKeyPrefix,
			"partner_id": partner, "expires_in_seconds": int64(overlap / time.Second), "previous_key_expires_at": until.UTC(),
		}
		return s.audit(ctx, tx, a, ActionAdminKeyRolled, TargetAdminKey, &r.Previous.ID, details)
	})
	return r, err
}

// newID returns a time-ordered UUID (v7), so ids sort like created_at.
func newID() uuid.UUID {
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.New()
	}
	return id
}
