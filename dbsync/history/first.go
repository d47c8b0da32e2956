package history

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/syncgate/syncgate/dbsync/engine"
)

var sqlTxHistoryFirst = engine.Template("dbsync/tx_history_first.sql", engine.AlwaysGeneric, nil)

// firstRow is a tx_history_first row: the head (the first row: tip, first
// transaction, outputs counted up to the cap, the address's transaction
// count) or a page item; the other part's columns are NULL.
type firstRow struct {
	Head struct {
		SlotNo    sql.NullInt64
		BlockHash sql.NullString
		BlockNo   *int64
		EpochNo   *int64
		BlockTime sql.NullTime
		FirstID   *int64
		Outputs   sql.NullInt64
		Total     sql.NullInt64
	}
	Item NullTxRefRow
}

func (r *firstRow) ScanRow(rows *sql.Rows) error {
	h, i := &r.Head, &r.Item
	return rows.Scan(&h.SlotNo, &h.BlockHash, &h.BlockNo, &h.EpochNo, &h.BlockTime, &h.FirstID, &h.Outputs, &h.Total,
		&i.ID, &i.TxHash, &i.BlockHash, &i.SlotNo, &i.BlockNo, &i.BlockTime, &i.Fee, &i.Size)
}

// firstRowsExpected bounds the rows FirstPage makes room for: the head
// and the few transactions of an ordinary address, not the default page
// of 100 (room for 64 rows of this width cost more than growing did).
const firstRowsExpected = 16

// FirstPage reads an offset page (no cursor) of an address with fewer
// than SmallOutputs outputs as one statement outside a transaction, on
// r's server: one round trip where Page's snapshot takes four. ok is false
// when it cannot: a cursor page, or an address with more outputs, which
// the caller then reads with Page in a snapshot. The answer is Page's.
func (h *Engine) FirstPage(ctx context.Context, r engine.Reader, addr string, q Query) (page Page[TxRef], ok bool, err error) {
	if q.FromSlot != nil || q.Within != nil || h.opts.SmallOutputs <= 0 || q.Limit < 1 {
		return page, false, nil
	}
	rows, err := engine.Rows[firstRow](ctx, r, min(q.Limit+2, firstRowsExpected), h.eng.For(sqlTxHistoryFirst), addr, int64(h.opts.SmallOutputs), q.Offset, q.Limit+1, q.Ascending)
	switch {
	case err != nil:
		return page, false, err
	case len(rows) == 0:
		return page, false, nil // no blocks yet: Page says so
	}
	if err := putInPageOrder(rows, q.Ascending); err != nil {
		return page, false, err
	}
	if rows[0].Head.Outputs.Int64 >= int64(h.opts.SmallOutputs) {
		return page, false, nil
	}
	head := rows[0].Head
	page.Tip = engine.Tip{SlotNo: head.SlotNo.Int64, BlockHash: head.BlockHash.String, BlockNo: head.BlockNo,
		EpochNo: head.EpochNo, BlockTime: engine.AsUTC(head.BlockTime.Time)}
	page.Items = []TxRef{}
	if head.FirstID == nil {
		return page, true, nil // never seen on chain: no history
	}
	page.Total = head.Total.Int64
	refs := make([]TxRefRow, 0, len(rows))
	for _, row := range rows[1:] {
		ref, ok := row.Item.Row()
		if !ok {
			return page, false, fmt.Errorf("tx_history_first: an item row without an id")
		}
		refs = append(refs, ref)
	}
	if len(refs) > q.Limit {
		slot := refs[q.Limit].SlotNo // the first transaction after the page
		page.NextCursor = &slot
		refs = refs[:q.Limit]
	}
	page.Items, err = refsOf(refs)
	return page, true, err
}

// putInPageOrder puts the statement's rows in the order of the page: the
// head first, then the items by id, newest first unless ascending. The
// statement leaves them in no order (its rows are few; sorting 100 wide
// rows cost PostgreSQL more than sorting them here costs Go, and they
// usually come in order, which the sort checks in one pass).
func putInPageOrder(rows []firstRow, ascending bool) error {
	heads := 0
	for i := range rows {
		if rows[i].Head.SlotNo.Valid {
			rows[0], rows[i] = rows[i], rows[0]
			heads++
		}
	}
	if heads != 1 {
		return fmt.Errorf("tx_history_first: %d head rows, want 1", heads)
	}
	items := rows[1:]
	if ascending {
		slices.SortFunc(items, func(a, b firstRow) int { return cmp.Compare(a.Item.ID.Int64, b.Item.ID.Int64) })
	} else {
		slices.SortFunc(items, func(a, b firstRow) int { return cmp.Compare(b.Item.ID.Int64, a.Item.ID.Int64) })
	}
	return nil
}
