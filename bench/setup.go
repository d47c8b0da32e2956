package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/syncgate/syncgate/internal/cardano"
	"os"
	"strings"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq" // PostgreSQL driver

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/internal/platform/pgdb"
)

// benchRateLimit is the highest per-credential limit the admin schema
// allows (rate_limit_per_minute BETWEEN 1 AND 10000): 167 requests/s per
// key, which is why the bench spreads its requests over many keys.
const benchRateLimit = 10_000

// setup prepares the admin database for a bench run: creates it if
// missing, applies the migrations, and issues an admin key, a user and n
// API keys for network at limit a minute (benchRateLimit, the highest, for
// the scenarios; --limit-check runs take a low one), written one per line to
// keyFile (mode 0600). It writes through admin.Store, as the admin API
// would, so the keys are ordinary credentials with their audit entries.
// What teardown needs to revoke them again goes beside, in keyFile.ids.
func setup(ctx context.Context, adminURL, network string, n, limit int, keyFile string) error {
	if adminURL == "" || keyFile == "" {
		return errors.New("--setup needs --admin-db and --key-file")
	}
	if n < 1 {
		return errors.New("--keys must be at least 1")
	}
	if limit < 1 || limit > benchRateLimit {
		return fmt.Errorf("--rate-limit must be from 1 to %d", benchRateLimit)
	}
	nw, ok := cardano.NetworkByName(network)
	if !ok {
		return fmt.Errorf("unknown network %q", network)
	}
	if err := pgdb.EnsureDatabase(ctx, adminURL); err != nil {
		return fmt.Errorf("admin database: %w", err)
	}
	db, err := sqlx.Open("postgres", adminURL)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := admin.Migrate(ctx, db); err != nil {
		return err
	}
	store := admin.NewStore(db, admin.Options{})
	defer store.Close()
	perms := []string{admin.PermManageUsers, admin.PermManageCredentials}
	k, _, err := store.CreateAdminKey(ctx, admin.Bootstrap(""), "syncgate-bench", perms)
	if err != nil {
		return err
	}
	a := admin.Admin{ID: k.ID, PartnerID: k.PartnerID, EntityName: k.EntityName, Permissions: perms}
	u, err := store.CreateUser(ctx, a, admin.NewUser{Name: "bench", ExternalID: "bench", BillingPlan: "bench"})
	if err != nil {
		return err
	}
	keys := make([]string, n)
	ids := benchIDs{AdminKeyID: k.ID, PartnerID: k.PartnerID, EntityName: k.EntityName}
	for i := range keys {
		c, key, err := store.CreateCredential(ctx, a, admin.NewCredential{
			Name: fmt.Sprintf("bench-%d", i), UserAccountID: u.ID, NetworkID: nw.ID, RateLimitPerMinute: limit,
		})
		if err != nil {
			return err
		}
		keys[i] = key
		ids.CredentialIDs = append(ids.CredentialIDs, c.ID)
	}
	idsJSON, err := json.Marshal(ids)
	if err != nil {
		return err
	}
	if err := os.WriteFile(keyFile+".ids", idsJSON, 0o600); err != nil {
		return err
	}
	if err := os.WriteFile(keyFile, []byte(strings.Join(keys, "\n")+"\n"), 0o600); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "bench setup: %d API keys for %s (%d/min each) written to %s\n", n, network, limit, keyFile)
	return nil
}

// benchIDs are a bench run's admin key and credentials, for teardown.
type benchIDs struct {
	AdminKeyID    uuid.UUID   `json:"admin_key_id"`
	PartnerID     uuid.UUID   `json:"partner_id"`
	EntityName    string      `json:"entity_name"`
	CredentialIDs []uuid.UUID `json:"credential_ids"`
}

// teardown revokes what setup issued for keyFile (its API keys, then its
// admin key), so bench runs do not leave live keys behind; the rows and
// their audit entries stay, as for any revoked key.
func teardown(ctx context.Context, adminURL, keyFile string) error {
	if adminURL == "" || keyFile == "" {
		return errors.New("--teardown needs --admin-db and --key-file")
	}
	b, err := os.ReadFile(keyFile + ".ids")
	if err != nil {
		return err
	}
	var ids benchIDs
	if err := json.Unmarshal(b, &ids); err != nil {
		return fmt.Errorf("%s.ids: %w", keyFile, err)
	}
	db, err := sqlx.Open("postgres", adminURL)
	if err != nil {
		return err
	}
	defer db.Close()
	store := admin.NewStore(db, admin.Options{})
	defer store.Close()
	// Revoking the admin key (its partner's only one) would revoke them too;
	// revoking each first keeps one audit entry per key.
	a := admin.Admin{ID: ids.AdminKeyID, PartnerID: ids.PartnerID, EntityName: ids.EntityName,
		Permissions: []string{admin.PermManageUsers, admin.PermManageCredentials}}
	for _, id := range ids.CredentialIDs {
		if _, err := store.RevokeCredential(ctx, a, id); err != nil && !errors.Is(err, admin.ErrNotFound) {
			return fmt.Errorf("revoke credential %s: %w", id, err)
		}
	}
	if _, err := store.RevokeAdminKey(ctx, admin.Bootstrap(""), ids.AdminKeyID); err != nil && !errors.Is(err, admin.ErrNotFound) {
		return fmt.Errorf("revoke admin key: %w", err)
	}
	fmt.Fprintf(os.Stderr, "bench teardown: revoked %d API keys and their admin key\n", len(ids.CredentialIDs))
	return nil
}

// readKeys reads API keys, one per line.
func readKeys(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			keys = append(keys, l)
		}
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("%s holds no keys", path)
	}
	return keys, nil
}
