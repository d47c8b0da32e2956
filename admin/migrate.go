package admin

import (
	"context"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/sql"
)

// migrationLockID is the advisory lock every instance takes while
// migrating, so that twenty instances starting at once apply each
// migration exactly once. (The number is arbitrary but fixed: "sgmigrat".)
const migrationLockID = 0x73676d6967726174

// Migration is one numbered file of sql/admin/migrations.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// Migrations lists the embedded migrations in order and checks that the
// numbers run 1, 2, 3… without gaps or duplicates.
func Migrations() ([]Migration, error) {
	var ms []Migration
	for i, file := range sqlfiles.Dir("admin/migrations") {
		base := path.Base(file)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration %s: name must be NNNN_<what>.sql", base)
		}
		if v != i+1 {
			return nil, fmt.Errorf("migration %s: expected number %04d (no gaps, no duplicates)", base, i+1)
		}
		ms = append(ms, Migration{Version: v, Name: strings.TrimSuffix(base, ".sql"), SQL: sqlfiles.Must(file)})
	}
	return ms, nil
}

// Migrate applies every migration not yet recorded in
// syncgate.schema_migrations, each in its own transaction, under a
// session advisory lock, then river's (the delivery queue, RiverSchema).
// It returns the names it applied.
func Migrate(ctx context.Context, db *sqlx.DB) ([]string, error) {
	ms, err := Migrations()
	if err != nil {
		return nil, err
	}
	conn, err := db.Connx(ctx)
	if err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, int64(migrationLockID)); err != nil {
		return nil, fmt.Errorf("migrate: lock: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, int64(migrationLockID)) //nolint:errcheck

	if _, err := conn.ExecContext(ctx, `CREATE SCHEMA IF NOT EXISTS syncgate;
CREATE TABLE IF NOT EXISTS syncgate.schema_migrations (
  version    integer PRIMARY KEY,
  name       text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`); err != nil {
		return nil, fmt.Errorf("migrate: bookkeeping table: %w", err)
	}
	var done []int
	if err := conn.SelectContext(ctx, &done, `SELECT version FROM syncgate.schema_migrations`); err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	applied := map[int]bool{}
	for _, v := range done {
		applied[v] = true
	}
	var names []string
	for _, m := range ms {
		if applied[m.Version] {
			continue
		}
		tx, err := conn.BeginTxx(ctx, nil)
		if err != nil {
			return names, fmt.Errorf("migrate %s: %w", m.Name, err)
		}
		if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
			tx.Rollback() //nolint:errcheck
			return names, fmt.Errorf("migrate %s: %w", m.Name, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO syncgate.schema_migrations (version, name) VALUES ($1, $2)`, m.Version, m.Name); err != nil {
			tx.Rollback() //nolint:errcheck
			return names, fmt.Errorf("migrate %s: %w", m.Name, err)
		}
		if err := tx.Commit(); err != nil {
			return names, fmt.Errorf("migrate %s: %w", m.Name, err)
		}
		names = append(names, m.Name)
	}
	river, err := migrateRiver(ctx, conn)
	names = append(names, river...)
	return names, err
}
