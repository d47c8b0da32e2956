package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/admin"
)

// Migrate applies the admin schema migrations and exits.
func Migrate(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	dbURL := fs.String("db", os.Getenv("ADMIN_DATABASE_URL"), "admin database URL (ADMIN_DATABASE_URL)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dbURL == "" {
		return errors.New("migrate: --db or ADMIN_DATABASE_URL is required")
	}
	db, err := sqlx.Open("postgres", *dbURL)
	if err != nil {
		return err
	}
	defer db.Close()
	applied, err := admin.Migrate(ctx, db)
	if err != nil {
		return err
	}
	fmt.Printf("applied %d migration(s) %v\n", len(applied), applied)
	return nil
}
