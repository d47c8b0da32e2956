package dbsync

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/sql"
)

// CreateRecommendedIndexes creates the extra db-sync indexes syncgate's
// queries rely on (sql/dbsync/indexes/*.sql, all IF NOT EXISTS), in file
// order, and returns how long each took. It is the one place syncgate
// writes DDL into a db-sync database, and only when an operator asks
// (`syncgate indexes`) or the generator seeds.
//
// Each file is a template over the database's Layout, like the statements:
// the address-table variant indexes tx_out.address_id where core indexes
// tx_out.address, and a file that renders empty is skipped (the partial
// indexes over unspent outputs, consumed_by_tx_id IS NULL, are small and
// decisive in consumed mode but a copy of the whole address index in core
// mode, where every row qualifies; the address table's own indexes exist
// only in that variant).
func CreateRecommendedIndexes(ctx context.Context, db *sqlx.DB, logf func(string, ...any)) error {
	caps, err := DetectCapabilities(ctx, db)
	if err != nil {
		return err
	}
	layout := caps.Layout()
	for _, name := range sqlfiles.Dir("dbsync/indexes") {
		ddl, err := Render(name, layout, nil)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if !hasStatement(ddl) {
			if logf != nil {
				logf("index %s skipped: not used in the %s layout", name, layout)
			}
			continue
		}
		if logf != nil {
			logf("index %s: building", name)
		}
		start := time.Now()
		if _, err := db.ExecContext(ctx, ddl); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if logf != nil {
			logf("index %s created in %s", name, time.Since(start).Round(time.Millisecond))
		}
	}
	return nil
}

// hasStatement reports whether sql holds anything but comments and blanks.
func hasStatement(sql string) bool {
	for _, line := range strings.Split(sql, "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "--") {
			return true
		}
	}
	return false
}
