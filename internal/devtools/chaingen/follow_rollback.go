package chaingen

import (
	"context"
	"fmt"

	"github.com/lib/pq"
)

// Rollback removes the newest n blocks this follower appended, the way
// db-sync rolls back: in one transaction, the outputs those blocks'
// transactions spent are unspent again (consumed_by_tx_id reset in the
// consumed layouts), every row of their transactions goes (outputs and
// their assets, inputs, and every table's rows naming one of them), then
// the transactions, what their epoch boundaries wrote (epoch rows from the
// new tip's epoch on, parameters, pots and anchors taken at a removed
// block, later stake snapshots, rewards and governance states), and the
// blocks. The next block starts a
// new fork at the kept tip, with new hashes; the removed blocks' pending
// transactions go back to the front of the queue. Seeded blocks are never
// removed: n is capped by what the follower appended and still remembers.
func (f *Follower) Rollback(ctx context.Context, n int) (FollowEvent, error) {
	if n > len(f.journal) {
		n = len(f.journal)
	}
	if n <= 0 {
		return FollowEvent{}, fmt.Errorf("chaingen: follow: no appended block to roll back")
	}
	removed := f.journal[len(f.journal)-n:]
	keep := removed[0].prev
	if err := f.rollbackTo(ctx, keep); err != nil {
		return FollowEvent{}, err
	}
	ev := FollowEvent{Kind: RolledBack, Block: keep}
	var requeue []PendingTx
	for i := len(removed) - 1; i >= 0; i-- {
		ev.Removed = append(ev.Removed, removed[i].ref)
	}
	for _, j := range removed {
		requeue = append(requeue, j.pending...)
	}
	f.queue = append(requeue, f.queue...)
	f.journal = f.journal[:len(f.journal)-n]
	f.tip = keep
	if err := f.loadConstitution(ctx); err != nil {
		return ev, err
	}
	if err := f.reloadUTxOs(ctx); err != nil {
		return ev, err
	}
	f.logf("follow: rolled back %d blocks to block %d", n, keep.BlockNo)
	f.submittedRolledBack(ev)
	f.report(ev)
	return ev, nil
}

func (f *Follower) rollbackTo(ctx context.Context, keep BlockRef) error {
	tx, err := f.db.BeginTx(ctx, nil)
	if err != nil {
		return followErr("rollback", err)
	}
	defer tx.Rollback() //nolint:errcheck // no-op after commit
	var lastTx, lastOut int64
	var epoch int
	if err := tx.QueryRowContext(ctx, sqlRollbackPoint, keep.ID).Scan(&lastTx, &lastOut, &epoch); err != nil {
		return followErr("rollback point", err)
	}
	type step struct {
		what, query string
		args        []any
	}
	var steps []step
	if f.v.Mode.fillsConsumed() {
		steps = append(steps, step{"consumed_by_tx_id", sqlRollbackUnconsume, []any{lastTx}})
	}
	steps = append(steps,
		step{"ma_tx_out", sqlRollbackMaTxOut, []any{lastOut}},
		step{"tx_in", sqlRollbackTxIn, []any{lastTx}},
		step{"collateral_tx_in", sqlRollbackCollTxIn, []any{lastTx}},
		step{"reference_tx_in", sqlRollbackRefTxIn, []any{lastTx}})
	for _, name := range f.txTables {
		steps = append(steps, step{name, fmt.Sprintf(sqlRollbackTxRows, pq.QuoteIdentifier(name)), []any{lastTx}})
	}
	steps = append(steps, step{"param_proposal", sqlRollbackParamProp, []any{lastTx}})
	steps = append(steps,
		step{"tx_out", sqlRollbackTxOut, []any{lastTx}},
		step{"tx", sqlRollbackTx, []any{lastTx}},
		step{"epoch rows", sqlRollbackEpochRows, []any{epoch, keep.ID}})
	if f.v.Schema == Schema137 {
		steps = append(steps, step{"epoch_finalized", sqlRollbackEpochFinal, []any{epoch}})
	} else {
		steps = append(steps, step{"epoch", sqlRollbackEpoch136, []any{epoch}})
	}
	steps = append(steps, step{"block", sqlRollbackBlock, []any{keep.ID}})
	if f.v.Schema == Schema136 {
		steps = append(steps, step{"epoch", sqlFollowEpochUpsert, []any{epoch}})
	}
	for _, s := range steps {
		if _, err := tx.ExecContext(ctx, s.query, s.args...); err != nil {
			return followErr("rollback "+s.what, err)
		}
	}
	return tx.Commit()
}
