package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/cache"
)

// adminKeyUsage is the usage of `syncgate admin-key`.
const adminKeyUsage = `usage: syncgate admin-key create --name N --permissions p1,p2 [--db URL]
       syncgate admin-key roll --id ID [--expires-in SECONDS] [--db URL]
       syncgate admin-key revoke --id ID [--db URL]`

// AdminKey manages admin keys from the command line (no bootstrap key
// needed: shell access to the admin database is the credential). A new
// key is printed once; the audit log records each action as the bootstrap
// key's.
func AdminKey(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return errors.New(adminKeyUsage)
	}
	fs := flag.NewFlagSet("admin-key "+args[0], flag.ContinueOnError)
	dbURL := fs.String("db", os.Getenv("ADMIN_DATABASE_URL"), "admin database URL (ADMIN_DATABASE_URL)")
	redisURL := fs.String("redis", os.Getenv("REDIS_URL"), "the service's Redis (REDIS_URL): a revocation also reaches every instance through it")
	var run func(*admin.Store) error
	switch args[0] {
	case "create":
		name := fs.String("name", "", "admin_entity_name (required)")
		permList := fs.String("permissions", "", "comma-separated: "+strings.Join(admin.Permissions, ","))
		run = func(store *admin.Store) error {
			if strings.TrimSpace(*name) == "" || len(*name) > 255 {
				return errors.New(adminKeyUsage + "\n(--name 1 to 255 characters)")
			}
			perms := []string{}
			for _, p := range strings.Split(*permList, ",") {
				if p = strings.TrimSpace(p); p == "" {
					continue
				}
				if !admin.ValidPermission(p) {
					return fmt.Errorf("admin-key: unknown permission %q (known: %s)", p, strings.Join(admin.Permissions, ", "))
				}
				perms = append(perms, p)
			}
			k, key, err := store.CreateAdminKey(ctx, admin.Bootstrap(""), *name, perms)
			if err != nil {
				return err
			}
			fmt.Printf("admin key %s (%s) created with permissions [%s]\n", k.ID, k.EntityName, strings.Join(perms, ","))
			fmt.Printf("key (shown once, store it now): %s\n", key)
			return nil
		}
	case "roll":
		id := fs.String("id", "", "admin key id (required)")
		expiresIn := fs.Int("expires-in", 0, "seconds the old key keeps working, 0 to 604800")
		run = func(store *admin.Store) error {
			kid, err := uuid.Parse(*id)
			if err != nil {
				return errors.New(adminKeyUsage + "\n(--id must be an admin key id)")
			}
			overlap := time.Duration(*expiresIn) * time.Second
			if *expiresIn < 0 || overlap > admin.MaxRollOverlap {
				return errors.New("admin-key roll: --expires-in must be from 0 to 604800 seconds (7 days)")
			}
			r, err := store.RollAdminKey(ctx, admin.Bootstrap(""), kid, overlap)
			if errors.Is(err, admin.ErrNotFound) {
				return errors.New("admin-key roll: admin key not found or already revoked")
			}
			if err != nil {
				return err
			}
			if r.Previous.Revoked {
				fmt.Printf("admin key %s revoked\n", r.Previous.ID)
			} else {
				fmt.Printf("admin key %s keeps working until %s\n", r.Previous.ID, r.Previous.ExpiresAt.UTC().Format(time.RFC3339))
			}
			fmt.Printf("new admin key %s (%s) of the same partner, permissions [%s]\n", r.New.ID, r.New.EntityName, strings.Join(r.New.Permissions, ","))
			fmt.Printf("key (shown once, store it now): %s\n", r.Key)
			return nil
		}
	case "revoke":
		id := fs.String("id", "", "admin key id (required)")
		run = func(store *admin.Store) error {
			kid, err := uuid.Parse(*id)
			if err != nil {
				return errors.New(adminKeyUsage + "\n(--id must be an admin key id)")
			}
			r, err := store.RevokeAdminKey(ctx, admin.Bootstrap(""), kid)
			if errors.Is(err, admin.ErrNotFound) {
				return errors.New("admin-key revoke: admin key not found or already revoked")
			}
			if err != nil {
				return err
			}
			fmt.Printf("admin key %s (%s) revoked\n", r.ID, r.EntityName)
			if r.LastOfPartner {
				fmt.Printf("it was its partner's last active key: %d credentials revoked\n", r.CredentialsRevoked)
			}
			return nil
		}
	default:
		return errors.New(adminKeyUsage)
	}
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *dbURL == "" {
		return errors.New(adminKeyUsage + "\n(--db or ADMIN_DATABASE_URL required)")
	}
	db, err := sqlx.Open("postgres", *dbURL)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := admin.Migrate(ctx, db); err != nil {
		return err
	}
	// A revocation or roll reaches every serving instance's credential
	// cache through NOTIFY on this database (within milliseconds) and, with
	// the service's Redis, on the next request there too.
	var rc *cache.Client
	if *redisURL != "" {
		if rc, err = cache.New(*redisURL, "sg:"); err != nil {
			return err
		}
		defer rc.Close()
	}
	fast := cache.NewFastClient(rc, cache.FastOptions{})
	defer fast.Close()
	// The command caches nothing itself; its authenticator only announces
	// the invalidations of what it revokes or rolls.
	authn := auth.New(auth.Options{DB: db, Redis: fast})
	defer authn.Close()
	store := admin.NewStore(db, admin.Options{Invalidator: authn})
	defer store.Close()
	return run(store)
}
