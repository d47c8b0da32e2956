package admin

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/hex"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	sqlfiles "github.com/syncgate/syncgate/sql"
)

var (
	sqlAdminKeyByHash     = sqlfiles.Must("admin/admin_key_by_hash.sql")
	sqlCreateAdminKey     = sqlfiles.Must("admin/create_admin_key.sql")
	sqlAdminKeys          = sqlfiles.Must("admin/admin_keys.sql")
	sqlCountAdminKeys     = sqlfiles.Must("admin/count_admin_keys.sql")
	sqlRevokeAdminKey     = sqlfiles.Must("admin/revoke_admin_key.sql")
	sqlLiveAdminKeysNamed = sqlfiles.Must("admin/live_admin_keys_named.sql")
)

// Key formats (DECISIONS.md): a 5-character prefix, then 48 lowercase hex
// characters from crypto/rand (192 bits); 53 characters in all.
const (
	CredentialKeyPrefix = "sgk1_"
	AdminKeyPrefix      = "sga1_"
	keyLen              = 53
	// displayPrefixLen is api_key_prefix, the part that may be shown and logged.
	displayPrefixLen = 12
)

// newKey returns a fresh key with the given service prefix, its SHA-256
// and its displayable prefix.
func newKey(prefix string) (key string, hash [32]byte, display string) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		panic("admin: crypto/rand failed: " + err.Error()) // never happens on supported platforms
	}
	key = prefix + hex.EncodeToString(b)
	return key, sha256.Sum256([]byte(key)), key[:displayPrefixLen]
}

// wellFormed reports whether key has the shape of a key with prefix, so
// garbage is refused without touching a database or cache.
func wellFormed(key, prefix string) bool {
	if len(key) != keyLen || key[:len(prefix)] != prefix {
		return false
	}
	for _, c := range key[len(prefix):] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// AdminKey is an admin key's record (never its key).
type AdminKey struct {
	ID           uuid.UUID      `db:"id"`
	EntityName   string         `db:"admin_entity_name"`
	Permissions  pq.StringArray `db:"permissions"`
	APIKeyPrefix string         `db:"api_key_prefix"`
	CreatedAt    time.Time      `db:"created_at"`
	Revoked      bool           `db:"revoked"`
	RevokedAt    *time.Time     `db:"revoked_at"`
}

// AuthenticateAdmin resolves an admin key: the bootstrap key (compared in
// constant time through its SHA-256) or a live stored admin key. Anything
// else, including a credential and a revoked admin key, is ErrInvalidKey.
// Admin endpoints read PostgreSQL anyway, so there is no cache here and a
// revocation holds from the next request on every instance.
func (s *Store) AuthenticateAdmin(ctx context.Context, key string) (Admin, error) {
	h := sha256.Sum256([]byte(key))
	if s.hasBootstrap && subtle.ConstantTimeCompare(h[:], s.bootstrapHash[:]) == 1 {
		return Bootstrap(""), nil
	}
	if !wellFormed(key, AdminKeyPrefix) {
		return Admin{}, ErrInvalidKey
	}
	var row struct {
		ID          uuid.UUID      `db:"id"`
		EntityName  string         `db:"admin_entity_name"`
		Permissions pq.StringArray `db:"permissions"`
	}
	err := s.db.GetContext(ctx, &row, sqlAdminKeyByHash, h[:])
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Admin{}, ErrInvalidKey
	case err != nil:
		return Admin{}, wrap("AuthenticateAdmin", err)
	}
	return Admin{ID: row.ID, EntityName: row.EntityName, Permissions: row.Permissions}, nil
}

// CreateAdminKey stores a new admin key and returns its record and the key
// itself, which exists nowhere else afterwards.
func (s *Store) CreateAdminKey(ctx context.Context, a Admin, name string, perms []string) (k AdminKey, key string, err error) {
	err = s.inTx(ctx, "CreateAdminKey", func(tx *sqlx.Tx) error {
		k, key, err = s.createAdminKey(ctx, tx, a, name, perms)
		return err
	})
	return k, key, err
}

func (s *Store) createAdminKey(ctx context.Context, tx *sqlx.Tx, a Admin, name string, perms []string) (AdminKey, string, error) {
	key, hash, display := newKey(AdminKeyPrefix)
	if perms == nil {
		perms = []string{}
	}
	var k AdminKey
	if err := tx.GetContext(ctx, &k, sqlCreateAdminKey, newID(), name, pq.StringArray(perms), hash[:], display); err != nil {
		return AdminKey{}, "", err
	}
	details := map[string]any{"admin_entity_name": name, "permissions": perms, "api_key_prefix": display}
	if err := s.audit(ctx, tx, a, ActionAdminKeyCreated, TargetAdminKey, &k.ID, details); err != nil {
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
// the next request on. What it created stays, readable by the bootstrap
// key's audit view only. ErrNotFound when missing or already revoked.
func (s *Store) RevokeAdminKey(ctx context.Context, a Admin, id uuid.UUID) (k AdminKey, err error) {
	err = s.inTx(ctx, "RevokeAdminKey", func(tx *sqlx.Tx) error {
		k, err = s.revokeAdminKey(ctx, tx, a, id)
		return err
	})
	return k, err
}

func (s *Store) revokeAdminKey(ctx context.Context, tx *sqlx.Tx, a Admin, id uuid.UUID) (AdminKey, error) {
	var k AdminKey
	err := tx.GetContext(ctx, &k, sqlRevokeAdminKey, id)
	if errors.Is(err, sql.ErrNoRows) {
		return AdminKey{}, ErrNotFound
	}
	if err != nil {
		return AdminKey{}, err
	}
	details := map[string]any{"admin_entity_name": k.EntityName, "api_key_prefix": k.APIKeyPrefix}
	return k, s.audit(ctx, tx, a, ActionAdminKeyRevoked, TargetAdminKey, &k.ID, details)
}

// newID returns a time-ordered UUID (v7), so ids sort like created_at.
func newID() uuid.UUID {
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.New()
	}
	return id
}
