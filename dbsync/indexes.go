package dbsync

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	sqlfiles "github.com/syncgate/syncgate/sql"
)

// CreateRecommendedIndexes creates the extra db-sync indexes syncgate's
// queries rely on (sql/dbsync/indexes/*.sql, all IF NOT EXISTS), in file
// order, and returns how long each took. It is the one place syncgate
// writes DDL into a db-sync database, and only when an operator asks
// (`syncgate indexes`) or the generator seeds.
//
// Files ending in _consumed.sql are partial indexes over unspent outputs
// (consumed_by_tx_id IS NULL): small and decisive in consumed mode, a copy
// of the whole address index in core mode, where every row qualifies. They
// are created only when the database is detected in consumed mode.
func CreateRecommendedIndexes(ctx context.Context, db *sqlx.DB, logf func(string, ...any)) error {
	caps, err := DetectCapabilities(ctx, db)
	if err != nil {
		return err
	}
	for _, name := range sqlfiles.Dir("dbsync/indexes") {
		if strings.HasSuffix(name, "_consumed.sql") && caps.UTxOMode != ModeConsumed {
			if logf != nil {
				logf("index %s skipped: the database is in %s mode", name, caps.UTxOMode)
			}
			continue
		}
		if logf != nil {
			logf("index %s: building", name)
		}
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
