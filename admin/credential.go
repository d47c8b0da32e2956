package admin

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/sql"
)

var (
	sqlCreateCredential = sqlfiles.Must("admin/create_credential.sql")
	sqlCredential       = sqlfiles.Compose("admin/credential.sql")
	sqlCredentials      = sqlfiles.Compose("admin/credentials.sql")
	sqlCountCredentials = sqlfiles.Must("admin/count_credentials.sql")
	sqlUpdateCredential = sqlfiles.Must("admin/update_credential.sql")
	sqlRevokeCredential = sqlfiles.Must("admin/revoke_credential.sql")
	sqlRollCredential   = sqlfiles.Must("admin/roll_credential.sql")
	sqlLockCredRoll     = sqlfiles.Must("admin/lock_credential_roll.sql")
)

// DefaultRateLimitPerMinute applies when a credential is created without one.
const DefaultRateLimitPerMinute = 60

// Credential is an API credential (OpenAPI schema Credential), never with its key.
type Credential struct {
	ID                 uuid.UUID  `db:"id"`
	Name               string     `db:"name"`
	Description        *string    `db:"description"`
	APIKeyPrefix       string     `db:"api_key_prefix"`
	CreatedAt          time.Time  `db:"created_at"`
	UserAccountID      uuid.UUID  `db:"user_account_id"`
	UserAccountName    string     `db:"user_account_name"`
	UserExternalID     string     `db:"user_external_id"`
	AdminKeyID         uuid.UUID  `db:"admin_key_id"` // the key that created it
	PartnerID          uuid.UUID  `db:"partner_id"`   // the owner
	EntityName         string     `db:"admin_entity_name"`
	NetworkID          int        `db:"network_id"`
	LastUsedAt         *time.Time `db:"last_used_at"`
	ExpiresAt          *time.Time `db:"expires_at"`
	Revoked            bool       `db:"revoked"`
	RevokedAt          *time.Time `db:"revoked_at"`
	RateLimitPerMinute int        `db:"rate_limit_per_minute"`
	Metadata           []byte     `db:"metadata"` // a JSON object
	CredentialFilters
}

// CredentialFilters are a credential's access filters (docs/DECISIONS.md
// "Access filters"), validated and canonical; nil or empty: no filter.
type CredentialFilters struct {
	AllowedIPs         pq.StringArray `db:"allowed_ips"`
	AllowedOrigins     pq.StringArray `db:"allowed_origins"`
	AllowedRouteGroups pq.StringArray `db:"allowed_route_groups"`
}

// nullIfEmpty stores an empty list as NULL (no filter).
func nullIfEmpty(l []string) any {
	if len(l) == 0 {
		return nil
	}
	return pq.StringArray(l)
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
	Filters            CredentialFilters
}

// CredentialPatch holds the supplied fields of PATCH
// /v1/admin/credentials/:id. SetDescription with a nil Description clears it.
// The Set* flags say which access filters to replace (an empty list clears).
type CredentialPatch struct {
	Name           *string
	SetDescription bool
	Description    *string
	SetIPs         bool
	SetOrigins     bool
	SetRouteGroups bool
	Filters        CredentialFilters
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
	fromPlan, err := s.credentialPlan(ctx, tx, a, &in)
	if err != nil {
		return Credential{}, "", err
	}
	key, hash, display := auth.NewKey(auth.CredentialKeyPrefix)
	if in.RateLimitPerMinute == 0 {
		in.RateLimitPerMinute = DefaultRateLimitPerMinute
	}
	meta := in.Metadata
	if meta == nil {
		meta = []byte("{}")
	}
	var id uuid.UUID
	if err := getOne(ctx, tx, &id, sqlCreateCredential, newID(), a.ID, in.UserAccountID, in.Name, in.Description,
		hash[:], display, in.NetworkID, in.RateLimitPerMinute, string(meta), in.ExpiresAt, a.PartnerID,
		nullIfEmpty(in.Filters.AllowedIPs), nullIfEmpty(in.Filters.AllowedOrigins), nullIfEmpty(in.Filters.AllowedRouteGroups)); err != nil {
		return Credential{}, "", err
	}
	if fromPlan {
		if _, err := tx.ExecContext(ctx, sqlCredentialRateFromPlan, id); err != nil {
			return Credential{}, "", err
		}
	}
	var c Credential
	if err := tx.GetContext(ctx, &c, sqlCredential, id, a.PartnerID); err != nil {
		return Credential{}, "", err
	}
	details := map[string]any{
		"name": c.Name, "user_account_id": c.UserAccountID, "network_id": c.NetworkID,
		"rate_limit_per_minute": c.RateLimitPerMinute, "expires_at": c.ExpiresAt, "api_key_prefix": c.APIKeyPrefix,
	}
	for k, v := range filterChanges(true, true, true, c.CredentialFilters) {
		details[k] = v
	}
	return c, key, s.audit(ctx, tx, a, ActionCredentialCreated, TargetCredential, &c.ID, details)
}

// Credentials lists a's credentials newest first, revoked ones only when asked.
func (s *Store) Credentials(ctx context.Context, a Admin, includeRevoked bool, p Page) (creds []Credential, total int64, err error) {
	err = s.inSnapshotTx(ctx, "Credentials", func(tx *sqlx.Tx) error {
		if err := tx.GetContext(ctx, &total, sqlCountCredentials, a.PartnerID, includeRevoked); err != nil {
			return err
		}
		creds = []Credential{}
		if err := tx.SelectContext(ctx, &creds, sqlCredentials, a.PartnerID, includeRevoked, p.Limit, p.Offset); err != nil {
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
		if err := getOne(ctx, tx, &c, sqlCredential, id, a.PartnerID); err != nil {
			return err
		}
		return s.audit(ctx, tx, a, ActionCredentialViewed, TargetCredential, &c.ID, nil)
	})
	return c, err
}

// UpdateCredential changes name, description and/or access filters of
// one of a's live credentials; a filter change invalidates its keys' cache
// entries on every instance once committed. ErrNotFound when missing, not
// a's, or revoked.
func (s *Store) UpdateCredential(ctx context.Context, a Admin, id uuid.UUID, p CredentialPatch) (c Credential, err error) {
	var hashes struct {
		Key      []byte `db:"key_hash"`
		Previous []byte `db:"previous_key_hash"`
	}
	err = s.inTx(ctx, "UpdateCredential", func(tx *sqlx.Tx) error {
		f := p.Filters
		if err := getOne(ctx, tx, &hashes, sqlUpdateCredential, id, a.PartnerID, p.Name, p.SetDescription, p.Description,
			p.SetIPs, nullIfEmpty(f.AllowedIPs), p.SetOrigins, nullIfEmpty(f.AllowedOrigins),
			p.SetRouteGroups, nullIfEmpty(f.AllowedRouteGroups)); err != nil {
			return err
		}
		if err := tx.GetContext(ctx, &c, sqlCredential, id, a.PartnerID); err != nil {
			return err
		}
		changes := map[string]any{}
		if p.Name != nil {
			changes["name"] = *p.Name
		}
		if p.SetDescription {
			changes["description"] = p.Description
		}
		for k, v := range filterChanges(p.SetIPs, p.SetOrigins, p.SetRouteGroups, c.CredentialFilters) {
			changes[k] = v
		}
		return s.audit(ctx, tx, a, ActionCredentialUpdated, TargetCredential, &c.ID, map[string]any{"changes": changes})
	})
	if err == nil && (p.SetIPs || p.SetOrigins || p.SetRouteGroups) {
		s.invalidate(ctx, hashes.Key, hashes.Previous)
	}
	return c, err
}

// filterChanges is the audit record of the filters set (as stored; [] none).
func filterChanges(ips, origins, groups bool, f CredentialFilters) map[string]any {
	m := map[string]any{}
	list := func(l []string) []string {
		if l == nil {
			return []string{}
		}
		return l
	}
	if ips {
		m["allowed_ips"] = list(f.AllowedIPs)
	}
	if origins {
		m["allowed_origins"] = list(f.AllowedOrigins)
	}
	if groups {
		m["allowed_route_groups"] = list(f.AllowedRouteGroups)
	}
	return m
}

// RevokeCredential revokes (soft-deletes) one of a's live credentials; its
// key (and a rolled previous one) fails authentication as soon as the
// invalidation reaches an instance (package auth says when). ErrNotFound
// when missing, not a's, or already revoked.
func (s *Store) RevokeCredential(ctx context.Context, a Admin, id uuid.UUID) (c Credential, err error) {
	var hashes struct {
		Key      []byte `db:"key_hash"`
		Previous []byte `db:"previous_key_hash"`
	}
	err = s.inTx(ctx, "RevokeCredential", func(tx *sqlx.Tx) error {
		if err := getOne(ctx, tx, &hashes, sqlRevokeCredential, id, a.PartnerID); err != nil {
			return err
		}
		if err := tx.GetContext(ctx, &c, sqlCredential, id, a.PartnerID); err != nil {
			return err
		}
		details := map[string]any{"name": c.Name, "user_account_id": c.UserAccountID, "api_key_prefix": c.APIKeyPrefix}
		return s.audit(ctx, tx, a, ActionCredentialRevoked, TargetCredential, &c.ID, details)
	})
	if err == nil {
		s.invalidate(ctx, hashes.Key, hashes.Previous)
	}
	return c, err
}

// RollPendingError refuses a credential roll while the previous key of an
// earlier roll still works: rolling again would end that key before the
// overlap it was promised.
type RollPendingError struct {
	Until time.Time // when the previous key's overlap ends
}

func (e *RollPendingError) Error() string {
	return "admin: credential rolled recently, its previous key works until " + e.Until.UTC().Format(time.RFC3339Nano)
}

// RolledCredential is a credential with its new key (shown once) and the
// end of its previous key's overlap.
type RolledCredential struct {
	Credential
	Key                  string
	PreviousKeyExpiresAt time.Time
}

// RollCredential gives one of a's live credentials a new key. The id, user,
// network, rate limit, name and usage history stay (usage rows reference
// the id). The previous key keeps working until overlap has passed (0: not
// at all); an instance that cached it learns its end when the invalidation
// reaches it (package auth says when), the end itself needs no
// announcement. Rolls of one credential run one at a time (the row is
// locked); one that finds the previous key of an earlier roll still
// working is refused with *RollPendingError, since only one previous key
// is kept and dropping it would end it before its promised overlap.
// ErrNotFound when missing, not a's, or revoked.
func (s *Store) RollCredential(ctx context.Context, a Admin, id uuid.UUID, overlap time.Duration) (r RolledCredential, err error) {
	if overlap < 0 || overlap > MaxRollOverlap {
		return r, errors.New("admin: roll overlap out of range")
	}
	key, hash, display := auth.NewKey(auth.CredentialKeyPrefix)
	var old struct {
		Key    []byte `db:"old_key_hash"`
		Older  []byte `db:"older_key_hash"`
		Prefix string `db:"old_api_key_prefix"`
	}
	err = s.inTx(ctx, "RollCredential", func(tx *sqlx.Tx) error {
		// PostgreSQL keeps microseconds and may round up: truncate, so an
		// overlap of 0 has ended by the time the next request looks.
		now := s.now()
		r.PreviousKeyExpiresAt = now.Add(overlap).UTC().Truncate(time.Microsecond)
		var pending *time.Time
		if err := getOne(ctx, tx, &pending, sqlLockCredRoll, id, a.PartnerID); err != nil {
			return err
		}
		if pending != nil && pending.After(now) {
			return &RollPendingError{Until: *pending}
		}
		if err := getOne(ctx, tx, &old, sqlRollCredential, id, a.PartnerID, hash[:], display, r.PreviousKeyExpiresAt); err != nil {
			return err
		}
		if err := tx.GetContext(ctx, &r.Credential, sqlCredential, id, a.PartnerID); err != nil {
			return err
		}
		details := map[string]any{
			"api_key_prefix": display, "previous_api_key_prefix": old.Prefix,
			"expires_in_seconds": int64(overlap / time.Second), "previous_key_expires_at": r.PreviousKeyExpiresAt,
		}
		return s.audit(ctx, tx, a, ActionCredentialRolled, TargetCredential, &id, details)
	})
	if err != nil {
		return RolledCredential{}, err
	}
	r.Key = key
	// The previous key's cached entries must learn their new end, the one
	// before it that it is gone, and the new key must leave any negative
	// cache that saw it presented before it existed.
	s.invalidate(ctx, old.Key, old.Older, hash[:])
	return r, nil
}
