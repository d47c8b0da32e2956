package testdb

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// Cut is the newest blocks of a seeded db-sync database, removed as
// db-sync removes them on a rollback and kept aside (schema sg_cut) so
// Restore can bring them back as the chain's new blocks.
type Cut struct {
	db *sqlx.DB
	// Block and Tx: the newest block id and tx id left.
	Block, Tx int64
	// Txs: how many transactions were cut.
	Txs int64
	// consumed: tx_out has consumed_by_tx_id (unmarked by the cut, marked
	// again by Restore).
	consumed bool
}

// CutBlocks rolls the database back by its newest n blocks, the way
// db-sync rolls back: every row of those blocks goes, the transactions'
// inputs, outputs and their assets, and every other row naming one of
// those transactions. The block, tx, tx_out, tx_in and ma_tx_out rows are
// kept aside for Restore.
func CutBlocks(ctx context.Context, db *sqlx.DB, n int) (*Cut, error) {
	c := &Cut{db: db}
	if err := db.GetContext(ctx, &c.Block, `SELECT id FROM block ORDER BY id DESC OFFSET $1 LIMIT 1`, n); err != nil {
		return nil, fmt.Errorf("cut: block: %w", err)
	}
	if err := db.GetContext(ctx, &c.Tx, `SELECT COALESCE(max(id), 0) FROM tx WHERE block_id <= $1`, c.Block); err != nil {
		return nil, fmt.Errorf("cut: tx: %w", err)
	}
	var tables []string
	if err := db.SelectContext(ctx, &tables, `SELECT c.table_name FROM information_schema.columns c
		JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
		WHERE c.table_schema = 'public' AND c.column_name = 'tx_id' AND c.table_name NOT IN ('tx_out')
		ORDER BY 1`); err != nil {
		return nil, err
	}
	if err := db.GetContext(ctx, &c.consumed, `SELECT EXISTS (SELECT 1 FROM information_schema.columns
		WHERE table_schema = 'public' AND table_name = 'tx_out' AND column_name = 'consumed_by_tx_id')`); err != nil {
		return nil, err
	}
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback() //nolint:errcheck // no-op after commit
	b, t := c.Block, c.Tx
	steps := []step{
		{`DROP SCHEMA IF EXISTS sg_cut CASCADE`, nil},
		{`CREATE SCHEMA sg_cut`, nil},
	}
	if c.consumed {
		// db-sync unmarks the kept outputs the rolled-back transactions
		// spent (consumed layouts).
		steps = append(steps,
			step{`CREATE TABLE sg_cut.consumed AS SELECT id, consumed_by_tx_id FROM tx_out WHERE tx_id <= $1 AND consumed_by_tx_id > $1`, []any{t}},
			step{`UPDATE tx_out SET consumed_by_tx_id = NULL WHERE tx_id <= $1 AND consumed_by_tx_id > $1`, []any{t}})
	}
	steps = append(steps, []step{
		{`CREATE TABLE sg_cut.block AS SELECT * FROM block WHERE id > $1`, []any{b}},
		{`CREATE TABLE sg_cut.tx AS SELECT * FROM tx WHERE id > $1`, []any{t}},
		{`CREATE TABLE sg_cut.tx_out AS SELECT * FROM tx_out WHERE tx_id > $1`, []any{t}},
		{`CREATE TABLE sg_cut.tx_in AS SELECT * FROM tx_in WHERE tx_in_id > $1`, []any{t}},
		{`CREATE TABLE sg_cut.ma_tx_out AS SELECT m.* FROM ma_tx_out m JOIN tx_out o ON o.id = m.tx_out_id WHERE o.tx_id > $1`, []any{t}},
		{`DELETE FROM ma_tx_out m USING tx_out o WHERE o.id = m.tx_out_id AND o.tx_id > $1`, []any{t}},
		{`DELETE FROM tx_in WHERE tx_in_id > $1`, []any{t}},
		{`DELETE FROM collateral_tx_in WHERE tx_in_id > $1`, []any{t}},
		{`DELETE FROM reference_tx_in WHERE tx_in_id > $1`, []any{t}},
		{`DELETE FROM tx_out WHERE tx_id > $1`, []any{t}},
	}...)
	for _, name := range tables {
		steps = append(steps, step{`DELETE FROM ` + pq.QuoteIdentifier(name) + ` WHERE tx_id > $1`, []any{t}})
	}
	steps = append(steps, step{`DELETE FROM tx WHERE id > $1`, []any{t}}, step{`DELETE FROM block WHERE id > $1`, []any{b}})
	if err := run(ctx, tx, steps); err != nil {
		return nil, fmt.Errorf("cut: %w", err)
	}
	if err := tx.GetContext(ctx, &c.Txs, `SELECT count(*) FROM sg_cut.tx`); err != nil {
		return nil, err
	}
	return c, tx.Commit()
}

// step is one statement with its arguments.
type step struct {
	sql  string
	args []any
}

func run(ctx context.Context, tx *sqlx.Tx, steps []step) error {
	for _, s := range steps {
		if _, err := tx.ExecContext(ctx, s.sql, s.args...); err != nil {
			return fmt.Errorf("%s: %w", s.sql, err)
		}
	}
	return nil
}

// Restore inserts the cut blocks back as new blocks, their ids (block,
// tx, tx_out, tx_in, ma_tx_out) moved up by shift, as a db-sync whose
// sequences kept counting would store them after a rollback (0: the same
// ids). References into the kept chain stay as they were.
func (c *Cut) Restore(ctx context.Context, shift int64) error {
	tx, err := c.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // no-op after commit
	b, t := c.Block, c.Tx
	steps := []step{
		{`UPDATE sg_cut.block SET id = id + $2, previous_id = CASE WHEN previous_id > $1 THEN previous_id + $2 ELSE previous_id END`, []any{b, shift}},
		{`UPDATE sg_cut.tx SET id = id + $1, block_id = block_id + $1`, []any{shift}},
		{`UPDATE sg_cut.ma_tx_out SET id = id + $1, tx_out_id = tx_out_id + $1`, []any{shift}},
		{`UPDATE sg_cut.tx_out SET id = id + $1, tx_id = tx_id + $1`, []any{shift}},
		{`UPDATE sg_cut.tx_in SET id = id + $2, tx_in_id = tx_in_id + $2, tx_out_id = CASE WHEN tx_out_id > $1 THEN tx_out_id + $2 ELSE tx_out_id END`, []any{t, shift}},
	}
	if c.consumed {
		steps = append(steps,
			step{`UPDATE sg_cut.tx_out SET consumed_by_tx_id = consumed_by_tx_id + $2 WHERE consumed_by_tx_id > $1`, []any{t, shift}},
			step{`UPDATE tx_out o SET consumed_by_tx_id = c.consumed_by_tx_id + $1 FROM sg_cut.consumed c WHERE o.id = c.id`, []any{shift}})
	}
	steps = append(steps, []step{
		{`INSERT INTO block SELECT * FROM sg_cut.block`, nil},
		{`INSERT INTO tx SELECT * FROM sg_cut.tx`, nil},
		{`INSERT INTO tx_out SELECT * FROM sg_cut.tx_out`, nil},
		{`INSERT INTO tx_in SELECT * FROM sg_cut.tx_in`, nil},
		{`INSERT INTO ma_tx_out SELECT * FROM sg_cut.ma_tx_out`, nil},
		{`DROP SCHEMA sg_cut CASCADE`, nil},
	}...)
	if err := run(ctx, tx, steps); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	return tx.Commit()
}
