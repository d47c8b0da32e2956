package admin

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"

	"github.com/jmoiron/sqlx"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/rivermigrate"
)

// RiverSchema holds river's tables (the push delivery job queue), apart
// from syncgate's own so that neither set of migrations can collide with
// the other.
const RiverSchema = "syncgate_river"

// migrateRiver applies river's migrations in RiverSchema, in
// transactions on conn (which holds the migration lock). It returns the
// versions it applied as "river_NNN".
func migrateRiver(ctx context.Context, conn *sqlx.Conn) ([]string, error) {
	if _, err := conn.ExecContext(ctx, `CREATE SCHEMA IF NOT EXISTS `+RiverSchema); err != nil {
		return nil, fmt.Errorf("migrate river: %w", err)
	}
	// The driver's pool is not used: MigrateTx runs on the given transaction.
	m, err := rivermigrate.New(riverdatabasesql.New(nil), &rivermigrate.Config{
		Schema: RiverSchema,
		Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		return nil, fmt.Errorf("migrate river: %w", err)
	}
	// One transaction per version: a version may use an enum value the one
	// before added, which PostgreSQL refuses within one transaction.
	var names []string
	for {
		v, err := migrateRiverStep(ctx, conn, m)
		if err != nil || v == 0 {
			return names, err
		}
		names = append(names, fmt.Sprintf("river_%03d", v))
	}
}

// migrateRiverStep applies the next river version, if any, returning it.
func migrateRiverStep(ctx context.Context, conn *sqlx.Conn, m *rivermigrate.Migrator[*sql.Tx]) (int, error) {
	tx, err := conn.BeginTxx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("migrate river: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit a no-op
	res, err := m.MigrateTx(ctx, tx.Tx, rivermigrate.DirectionUp, &rivermigrate.MigrateOpts{MaxSteps: 1})
	if err != nil {
		return 0, fmt.Errorf("migrate river: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("migrate river: %w", err)
	}
	if len(res.Versions) == 0 {
		return 0, nil
	}
	return res.Versions[0].Version, nil
}
