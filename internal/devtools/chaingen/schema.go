package chaingen

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/syncgate/syncgate/sql"
)

// The db-sync DDL (sql/chaingen/schema: files shared by 13.6 and 13.7, and
// files named for one release or one tx_out option) and the generator's own
// statements (sql/chaingen).
var (
	sqlDomains         = sqlfiles.Must("chaingen/schema/0001_domains.sql")
	sqlTables          = sqlfiles.Must("chaingen/schema/0002_tables.sql")
	sqlTables136       = sqlfiles.Must("chaingen/schema/0002_tables_13.6.sql")
	sqlTables137       = sqlfiles.Must("chaingen/schema/0002_tables_13.7.sql")
	sqlViews137        = sqlfiles.Must("chaingen/schema/0003_views_13.7.sql")
	sqlConstraints     = sqlfiles.Must("chaingen/schema/0004_constraints.sql")
	sqlConstraints136  = sqlfiles.Must("chaingen/schema/0004_constraints_13.6.sql")
	sqlConstraints137  = sqlfiles.Must("chaingen/schema/0004_constraints_13.7.sql")
	sqlIndexesStage3   = sqlfiles.Must("chaingen/schema/0005_indexes_stage3.sql")
	sqlIndexesStage4   = sqlfiles.Must("chaingen/schema/0006_indexes_stage4.sql")
	sqlIndexesCore     = sqlfiles.Must("chaingen/schema/0006_indexes_stage4_core.sql")
	sqlIndexesStage136 = sqlfiles.Must("chaingen/schema/0006_indexes_stage4_13.6.sql")
	sqlIndexesStage137 = sqlfiles.Must("chaingen/schema/0006_indexes_stage4_13.7.sql")
	sqlNearTip         = sqlfiles.Must("chaingen/schema/0007_near_tip_constraints.sql")
	sqlConsumedIndex   = sqlfiles.Must("chaingen/schema/0008_consumed_index.sql")
	sqlPruneFK         = sqlfiles.Must("chaingen/schema/0009_prune_fk.sql")
	sqlAddressVariant  = sqlfiles.Must("chaingen/schema/0010_address_variant.sql")
	sqlAddressKeys     = sqlfiles.Must("chaingen/schema/0011_address_keys.sql")
	sqlCommitteeFK     = sqlfiles.Must("chaingen/schema/0012_committee_fk.sql")
	sqlPruneFKDrop     = sqlfiles.Must("chaingen/prune_fk_drop.sql")
	sqlTableExists     = sqlfiles.Must("chaingen/table_exists.sql")
	sqlBlockHasRows    = sqlfiles.Must("chaingen/block_has_rows.sql")
	sqlTxHasRows       = sqlfiles.Must("chaingen/tx_has_rows.sql")
	sqlConstraintHas   = sqlfiles.Must("chaingen/constraint_exists.sql")
	sqlSessionLoad     = sqlfiles.Must("chaingen/session_load.sql")
	sqlSessionIndex    = sqlfiles.Must("chaingen/session_index.sql")
	sqlSchemaVersion   = sqlfiles.Must("chaingen/schema_version_init.sql")
	sqlMetaInit        = sqlfiles.Must("chaingen/meta_init.sql")
	sqlEpochSyncSet    = sqlfiles.Must("chaingen/epoch_sync_set.sql")
	sqlExtraMigration  = sqlfiles.Must("chaingen/extra_migration_add.sql")
	sqlSequenceSet     = sqlfiles.Must("chaingen/sequence_advance.sql")
	sqlVacuumAnalyze   = sqlfiles.Must("chaingen/vacuum_analyze.sql")
	sqlDatabaseSize    = sqlfiles.Must("chaingen/database_size.sql")
	sqlBareTables      = sqlfiles.Must("chaingen/bare_tables.sql")
)

// CreateSchema creates, where absent, what db-sync's own start-up
// migrations (stages 1 to 3) would have created for the tables the
// generator fills, in the core 13.7 layout: domains and enums, tables, the
// epoch views, primary keys and unique constraints, and the stage-3
// indexes. It loads no data. Tests use it to emulate an empty database that
// db-sync itself initialised.
func CreateSchema(ctx context.Context, db *sql.DB) error {
	return CreateVariantSchema(ctx, db, Variant{})
}

// CreateVariantSchema is CreateSchema for a variant: on top of stages 1 to
// 3 of its release, what db-sync does at its first start for the variant's
// tx_out options (the address table and its indexes, the consumed index,
// prune's foreign key).
func CreateVariantSchema(ctx context.Context, db *sql.DB, v Variant) error {
	v = v.normal()
	if err := v.valid(); err != nil {
		return fmt.Errorf("chaingen: %w", err)
	}
	if err := createObjects(ctx, db, v); err != nil {
		return err
	}
	files := []string{sqlConstraints, epochConstraints(v), sqlIndexesStage3}
	if v.AddressTable {
		files = append(files, sqlAddressKeys)
	}
	if v.Mode.fillsConsumed() {
		files = append(files, sqlConsumedIndex)
	}
	var stmts []ddlStatement
	for _, f := range files {
		stmts = append(stmts, parseStatements(f)...)
	}
	if err := runDDL(ctx, db, stmts, nil, 1, nil); err != nil {
		return err
	}
	foreign := parseStatements(sqlCommitteeFK)
	if v.Mode.prunes() {
		foreign = append(foreign, parseStatements(sqlPruneFK)...)
	}
	return runDDL(ctx, db, foreign, nil, 1, nil)
}

// createObjects runs the IF-NOT-EXISTS part of the DDL for a variant:
// domains, enums, tables (bare: no keys, no indexes), the release's epoch
// tables and views, and the address-table conversion.
func createObjects(ctx context.Context, db *sql.DB, v Variant) error {
	steps := []struct{ name, sql string }{{"domains", sqlDomains}, {"tables", sqlTables}}
	if v.Schema == Schema136 {
		steps = append(steps, struct{ name, sql string }{"epoch table", sqlTables136})
	} else {
		steps = append(steps, struct{ name, sql string }{"epoch tables", sqlTables137},
			struct{ name, sql string }{"views", sqlViews137})
	}
	if v.AddressTable {
		steps = append(steps, struct{ name, sql string }{"address variant", sqlAddressVariant})
	}
	for _, s := range steps {
		if _, err := db.ExecContext(ctx, s.sql); err != nil {
			return fmt.Errorf("chaingen: create %s: %w", s.name, err)
		}
	}
	return nil
}

func epochConstraints(v Variant) string {
	if v.Schema == Schema136 {
		return sqlConstraints136
	}
	return sqlConstraints137
}

// keyAndIndexFiles lists, in order, the constraint and index files whose
// statements a freshly loaded variant gets: keys, stage 3, stage 4 (without
// migration-4-0001 for the address variant, with 13.6's epoch index or
// 13.7's drep_distr index), the near-tip constraints and the address
// table's keys. The foreign keys come after them (finishSchema).
func keyAndIndexFiles(v Variant) []string {
	files := []string{sqlConstraints, epochConstraints(v), sqlIndexesStage3, sqlIndexesStage4}
	if !v.AddressTable {
		files = append(files, sqlIndexesCore)
	}
	if v.Schema == Schema136 {
		files = append(files, sqlIndexesStage136)
	} else {
		files = append(files, sqlIndexesStage137)
	}
	files = append(files, sqlNearTip)
	if v.AddressTable {
		files = append(files, sqlAddressKeys)
	}
	return files
}

// ddlStatement is one line-statement of a constraint or index file.
type ddlStatement struct {
	sql        string
	table      string
	constraint string // set for ALTER TABLE … ADD CONSTRAINT
}

var (
	reAddConstraint = regexp.MustCompile(`(?i)^ALTER TABLE (\S+) ADD CONSTRAINT (\S+) `)
	reIndexOn       = regexp.MustCompile(`(?i) ON (\S+) `)
)

// parseStatements splits a constraint/index file: one statement per line,
// "--" comments ignored.
func parseStatements(file string) []ddlStatement {
	var out []ddlStatement
	for _, line := range strings.Split(file, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "--") {
			continue
		}
		s := ddlStatement{sql: strings.TrimSuffix(line, ";")}
		if m := reAddConstraint.FindStringSubmatch(line); m != nil {
			s.table, s.constraint = m[1], m[2]
		} else if m := reIndexOn.FindStringSubmatch(line); m != nil {
			s.table = m[1]
		} else {
			panic("chaingen: cannot parse DDL statement: " + line)
		}
		out = append(out, s)
	}
	return out
}

// runDDL runs statements grouped by table, biggest tables first, on up to
// workers connections in parallel (statements on one table run in order on
// one connection, so they never wait on each other's locks). A constraint
// that already exists under its name is skipped.
func runDDL(ctx context.Context, db *sql.DB, stmts []ddlStatement, weight map[string]int64, workers int, logf func(string, ...any)) error {
	groups := map[string][]ddlStatement{}
	var order []string
	for _, s := range stmts {
		if _, ok := groups[s.table]; !ok {
			order = append(order, s.table)
		}
		groups[s.table] = append(groups[s.table], s)
	}
	sort.SliceStable(order, func(i, j int) bool { return weight[order[i]] > weight[order[j]] })

	work := make(chan string, len(order))
	for _, t := range order {
		work <- t
	}
	close(work)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	if workers < 1 {
		workers = 1
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := db.Conn(ctx)
			if err == nil {
				defer conn.Close()
				_, err = conn.ExecContext(ctx, sqlSessionIndex)
			}
			for t := range work {
				if err != nil {
					break
				}
				start := time.Now()
				for _, s := range groups[t] {
					if err = runOne(ctx, conn, s); err != nil {
						err = fmt.Errorf("chaingen: %s: %w", s.sql, err)
						break
					}
				}
				if err == nil && logf != nil {
					logf("indexes and keys on %s built in %s", t, time.Since(start).Round(time.Millisecond))
				}
			}
			if err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return firstErr
}

func runOne(ctx context.Context, conn *sql.Conn, s ddlStatement) error {
	if s.constraint != "" {
		var exists bool
		if err := conn.QueryRowContext(ctx, sqlConstraintHas, s.constraint, s.table).Scan(&exists); err != nil {
			return err
		}
		if exists {
			return nil
		}
	}
	_, err := conn.ExecContext(ctx, s.sql)
	return err
}

// bareTables lists the tables without any index: the ones this generator
// created (now or in an interrupted earlier run) and has not finished.
func bareTables(ctx context.Context, db *sql.DB) (map[string]bool, error) {
	rows, err := db.QueryContext(ctx, sqlBareTables)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	bare := map[string]bool{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		bare[n] = true
	}
	return bare, rows.Err()
}

func tableExists(ctx context.Context, db *sql.DB, name string) (bool, error) {
	var ok bool
	err := db.QueryRowContext(ctx, sqlTableExists, name).Scan(&ok)
	return ok, err
}
