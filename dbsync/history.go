package dbsync

import (
	"context"
	"fmt"

	"github.com/syncgate/syncgate/dbsync/history"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/platform/bounded"
)

// An address's transaction history is read by the history engine
// (dbsync/history); these are its types under the names dbsync's callers
// know, and the DB methods that run it in a snapshot.
type (
	// HistoryQuery selects one page of an address's transaction history.
	HistoryQuery = history.Query
	// HistoryPage is one page of an address's history (history.Page).
	HistoryPage[T any] = history.Page[T]
	// TotalCounter supplies an address's transaction count for a tip.
	TotalCounter = history.TotalCounter
	// TxRef is a transaction and the block that holds it.
	TxRef = history.TxRef
)

// DefaultHistoryMemoBytes bounds the history memo when Options leave it 0.
const DefaultHistoryMemoBytes = history.DefaultMemoBytes

// TxHistory returns one page of the address's transactions (references
// only), in one snapshot: one statement for an offset page of an address
// with few outputs, else a transaction.
func (db *DB) TxHistory(ctx context.Context, addr cardano.Address, q HistoryQuery, counter TotalCounter) (HistoryPage[TxRef], error) {
	page, ok, err := db.hist.FirstPage(ctx, db.reader(), addr.String(), q)
	if err != nil {
		return HistoryPage[TxRef]{}, fmt.Errorf("dbsync.TxHistory: %w", err)
	}
	if ok {
		return page, nil
	}
	return db.txHistoryInSnapshot(ctx, addr, q, counter)
}

// txHistoryInSnapshot reads a page of the address's history in a snapshot:
// every page FirstPage cannot read.
func (db *DB) txHistoryInSnapshot(ctx context.Context, addr cardano.Address, q HistoryQuery, counter TotalCounter) (HistoryPage[TxRef], error) {
	var page HistoryPage[TxRef]
	err := db.ReadTx(ctx, func(tx *Snapshot) error {
		var err error
		page, err = db.hist.Page(ctx, tx, addr.String(), q, counter)
		return err
	})
	if err != nil {
		return HistoryPage[TxRef]{}, fmt.Errorf("dbsync.TxHistory: %w", err)
	}
	return page, nil
}

// TxsByAddress returns one page of the address's transactions with their
// inputs and outputs, in one snapshot and a fixed number of queries.
func (db *DB) TxsByAddress(ctx context.Context, addr cardano.Address, q HistoryQuery, counter TotalCounter) (HistoryPage[Tx], error) {
	var page HistoryPage[Tx]
	err := db.ReadTx(ctx, func(tx *Snapshot) error {
		refs, err := db.hist.Page(ctx, tx, addr.String(), q, counter)
		if err != nil {
			return err
		}
		txs, err := db.txDetails(ctx, tx, refs.Items)
		if err != nil {
			return err
		}
		page = HistoryPage[Tx]{Items: txs, NextCursor: refs.NextCursor, Total: refs.Total, Tip: refs.Tip}
		return nil
	})
	if err != nil {
		return HistoryPage[Tx]{}, fmt.Errorf("dbsync.TxsByAddress: %w", err)
	}
	return page, nil
}

// historyOptions are the history engine's options from the DB's.
func historyOptions(o Options) history.Options {
	return history.Options{MemoBytes: o.HistoryMemoBytes, SmallOutputs: o.SmallHistoryOutputs,
		DenseOutputs: o.DenseHistoryOutputs, FinalDepth: o.FinalDepth, AnchorStride: o.HistoryAnchorStride}
}

// The details memo: transactions' inputs and outputs never change, so
// they are remembered per tx id and checked against the reference the page
// read (a rollback that reuses the id changes the hash). It shares
// HistoryMemoBytes with the history engine's memo of final pages (which
// takes a quarter); entries are read-only once stored, since requests
// share them.
type detailMemo struct {
	details *bounded.Map[int64, memoDetail]
}

// memoDetail is a transaction's inputs and outputs, and the hash and
// block hash they belong to.
type memoDetail struct {
	hash, blockHash string
	inputs          []TxInput
	outputs         []TxOutput
}

func newDetailMemo(bytes int) detailMemo {
	if bytes < 0 {
		return detailMemo{} // off: a nil map stores and finds nothing
	}
	if bytes == 0 {
		bytes = DefaultHistoryMemoBytes
	}
	return detailMemo{details: bounded.New[int64, memoDetail](bytes-history.PageMemoBytes(bytes), nil)}
}

// detail returns ref's inputs and outputs when remembered for the same
// transaction in the same block.
func (m detailMemo) detail(ref TxRef) (memoDetail, bool) {
	if m.details == nil {
		return memoDetail{}, false
	}
	d, ok := m.details.Get(ref.ID)
	if !ok || d.hash != ref.Hash || d.blockHash != ref.BlockHash {
		return memoDetail{}, false
	}
	return d, true
}

func (m detailMemo) rememberDetail(t Tx) {
	if m.details == nil {
		return
	}
	cost := 160
	for _, in := range t.Inputs {
		cost += 64 + len(in.TxHash) + len(in.Address) + valueCost(in.Value)
	}
	for _, out := range t.Outputs {
		cost += 48 + len(out.Address) + valueCost(out.Value)
	}
	m.details.Set(t.ID, memoDetail{hash: t.Hash, blockHash: t.BlockHash, inputs: t.Inputs, outputs: t.Outputs}, cost)
}

// valueCost approximates the bytes a value holds (strings, big.Int words,
// slice and struct headers).
func valueCost(v Value) int {
	c := 48
	for _, a := range v.Assets {
		c += 80 + len(a.Policy) + len(a.Name)
	}
	return c
}
