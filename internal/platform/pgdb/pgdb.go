// Package pgdb holds the one PostgreSQL server chore several commands need:
// creating a database named in a URL if it is missing (`syncgate seed`,
// `syncgate demo`, the bench's admin database).
package pgdb

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// EnsureDatabase creates the database named in dsn if it does not exist,
// connecting to the same server's postgres database to do so.
func EnsureDatabase(ctx context.Context, dsn string) error {
	u, err := url.Parse(dsn)
	if err != nil {
		return errors.New("unparseable database URL")
	}
	name := strings.TrimPrefix(u.Path, "/")
	if name == "" {
		return errors.New("database URL names no database")
	}
	maint := *u
	maint.Path = "/postgres"
	db, err := sqlx.Open("postgres", maint.String())
	if err != nil {
		return err
	}
	defer db.Close()
	var exists bool
	if err := db.GetContext(ctx, &exists, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name); err != nil {
		return err
	}
	if exists {
		return nil
	}
	// Identifiers cannot be parameters; quote it as an identifier.
	_, err = db.ExecContext(ctx, `CREATE DATABASE `+pq.QuoteIdentifier(name))
	return err
}
