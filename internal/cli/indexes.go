package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/dbsync"
)

// Indexes creates the extra db-sync indexes syncgate recommends.
func Indexes(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("indexes", flag.ContinueOnError)
	dbURL := fs.String("db", "", "db-sync database URL (required)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dbURL == "" {
		return errors.New("indexes: --db is required")
	}
	db, err := sqlx.Open("postgres", *dbURL)
	if err != nil {
		return err
	}
	defer db.Close()
	return dbsync.CreateRecommendedIndexes(ctx, db, func(f string, a ...any) { fmt.Printf(f+"\n", a...) })
}
