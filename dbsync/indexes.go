package dbsync

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	sqlfiles "github.com/syncgate/syncgate/sql"
)

// CreateRecommendedIndexes creates the extra db-sync indexes syncgate's
// queries rely on (sql/dbsync/indexes/*.sql, all IF NOT EXISTS), in file
// order, and returns how long each took. It is the one place syncgate
// writes DDL into a db-sync database, and only when an operator asks
// (`syncgate indexes`) or the generator seeds.
func CreateRecommendedIndexes(ctx context.Context, db *sqlx.DB, logf func(string, ...any)) error {
	for _, name := range sqlfiles.Dir("dbsync/indexes") {
		start := time.Now()
		if _, err := db.ExecContext(ctx, sqlfiles.Must(name)); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if logf != nil {
			logf("index %s created in %s", name, time.Since(start).Round(time.Millisecond))
		}
	}
	return nil
}
