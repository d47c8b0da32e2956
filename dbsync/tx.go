package dbsync

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/dbsync/history"
	"github.com/syncgate/syncgate/internal/cardano"
	"slices"
	"strings"

	"github.com/lib/pq"
)

var (
	sqlTxByHash  = layoutStatement("dbsync/tx_by_hash.sql", alwaysGeneric, nil)
	sqlTxInputs  = layoutStatement("dbsync/tx_inputs.sql", alwaysGeneric, nil)
	sqlTxOutputs = layoutStatement("dbsync/tx_outputs.sql", alwaysGeneric, nil)
)

// TxInput is an output a transaction spent.
type TxInput struct {
	TxHash      string // the transaction that created the spent output
	OutputIndex int
	Address     string
	Value       Value
}

// TxOutput is an output a transaction created.
type TxOutput struct {
	OutputIndex int
	Address     string
	Value       Value
}

// Tx is a transaction with its inputs and outputs as db-sync records them.
// For a transaction that failed phase-2 validation those are the
// collateral inputs it consumed and its collateral return, if any: its
// regular outputs never existed.
type Tx struct {
	TxRef
	Inputs  []TxInput
	Outputs []TxOutput
}

// TxByHash returns one transaction with its inputs and outputs, or
// ErrNotFound. It is one statement (tx_by_hash.sql) outside a transaction:
// a statement is its own snapshot, so no BEGIN and COMMIT round trips. The
// details it read are not remembered for history pages: custodians ask for
// many different transactions once each, and filling the details memo with
// them held tens of megabytes that detailed pages seldom used.
func (db *DB) TxByHash(ctx context.Context, hash cardano.TxHash) (Tx, error) {
	rows, err := engine.Rows[txFullRow](ctx, db.reader(), txRowsExpected, db.sql(sqlTxByHash), hash[:])
	if err == nil && len(rows) == 0 {
		err = ErrNotFound
	}
	var out Tx
	if err == nil {
		out, err = txOf(rows)
	}
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			return Tx{}, ErrNotFound
		}
		return Tx{}, fmt.Errorf("dbsync.TxByHash(%s): %w", hash, err)
	}
	return out, nil
}

// txRowsExpected: the head and a usual transaction's inputs and outputs
// (most have one to three of each).
const txRowsExpected = 8

// txFullRow is a row of tx_by_hash.sql: the head (the tx's columns, the
// rest NULL) or one input (Kind 0) or output (Kind 1), its tx columns NULL.
type txFullRow struct {
	Head         history.NullTxRefRow
	Kind         sql.NullInt64
	SourceTxHash sql.NullString
	OutputIndex  sql.NullInt64
	Address      sql.NullString
	Lovelace     sql.NullString
	Assets       pq.StringArray
}

func (r *txFullRow) ScanRow(rows *sql.Rows) error {
	h := &r.Head
	return rows.Scan(&h.ID, &h.TxHash, &h.BlockHash, &h.SlotNo, &h.BlockNo, &h.BlockTime, &h.Fee, &h.Size,
		&r.Kind, &r.SourceTxHash, &r.OutputIndex, &r.Address, &r.Lovelace, &r.Assets)
}

// txOf builds a transaction from its tx_by_hash.sql rows, as txDetails
// does from its three statements. The rows come in no order; txOf puts
// the head first, then the inputs by source tx hash and output index
// (ledger order), then the outputs by index.
func txOf(rows []txFullRow) (Tx, error) {
	slices.SortFunc(rows, compareTxRows)
	head, ok := rows[0].Head.Row()
	if !ok || rows[0].Kind.Valid {
		return Tx{}, fmt.Errorf("tx_by_hash: the first row is not the head")
	}
	ref, err := head.Ref()
	if err != nil {
		return Tx{}, err
	}
	out := Tx{TxRef: ref, Inputs: []TxInput{}, Outputs: []TxOutput{}}
	for _, r := range rows[1:] {
		if !r.Kind.Valid {
			return Tx{}, fmt.Errorf("tx_by_hash: an input or output row without its kind")
		}
		lovelace, err := parseQuantity(r.Lovelace.String)
		if err != nil {
			return Tx{}, err
		}
		assets, err := flatAssets(r.Assets)
		if err != nil {
			return Tx{}, err
		}
		v := Value{Lovelace: lovelace, Assets: assets}
		switch r.Kind.Int64 {
		case 0:
			out.Inputs = append(out.Inputs, TxInput{TxHash: r.SourceTxHash.String, OutputIndex: int(r.OutputIndex.Int64),
				Address: r.Address.String, Value: v})
		case 1:
			out.Outputs = append(out.Outputs, TxOutput{OutputIndex: int(r.OutputIndex.Int64), Address: r.Address.String, Value: v})
		default:
			return Tx{}, fmt.Errorf("tx_by_hash row of kind %d", r.Kind.Int64)
		}
	}
	return out, nil
}

// compareTxRows orders tx_by_hash.sql rows: the head (no kind) first,
// then by kind, source tx hash (lower-case hex, so byte order) and output
// index.
func compareTxRows(a, b txFullRow) int {
	kind := func(r txFullRow) int64 {
		if !r.Kind.Valid {
			return -1
		}
		return r.Kind.Int64
	}
	return cmp.Or(cmp.Compare(kind(a), kind(b)), strings.Compare(a.SourceTxHash.String, b.SourceTxHash.String),
		cmp.Compare(a.OutputIndex.Int64, b.OutputIndex.Int64))
}

// txInputRow is a row of tx_inputs.sql (or its consumed twin).
type txInputRow struct {
	TxID         int64
	TxOutID      int64
	SourceTxHash string
	OutputIndex  int
	Address      string
	Lovelace     string
}

func (r *txInputRow) ScanRow(rows *sql.Rows) error {
	return rows.Scan(&r.TxID, &r.TxOutID, &r.SourceTxHash, &r.OutputIndex, &r.Address, &r.Lovelace)
}

// txOutputRow is a row of tx_outputs.sql.
type txOutputRow struct {
	TxID        int64
	TxOutID     int64
	OutputIndex int
	Address     string
	Lovelace    string
}

func (r *txOutputRow) ScanRow(rows *sql.Rows) error {
	return rows.Scan(&r.TxID, &r.TxOutID, &r.OutputIndex, &r.Address, &r.Lovelace)
}

// txDetails adds inputs and outputs to refs with three queries whatever
// their number (inputs, outputs, the assets of both), never one per tx.
func (db *DB) txDetails(ctx context.Context, tx *Snapshot, refs []TxRef) ([]Tx, error) {
	return db.readTxDetails(ctx, tx, refs, db.memo)
}

// readTxDetails is txDetails with memo as the details memo (off: the
// zero detailMemo).
func (db *DB) readTxDetails(ctx context.Context, tx *Snapshot, refs []TxRef, memo detailMemo) ([]Tx, error) {
	txs := make([]Tx, len(refs))
	if len(refs) == 0 {
		return txs, nil
	}
	// Details already read (history.go, the details memo) are not read again.
	ids := make([]int64, 0, len(refs))
	pos := make(map[int64]int, len(refs))
	for i, r := range refs {
		if d, ok := memo.detail(r); ok {
			txs[i] = Tx{TxRef: r, Inputs: d.inputs, Outputs: d.outputs}
			continue
		}
		ids = append(ids, r.ID)
		pos[r.ID] = i
		txs[i] = Tx{TxRef: r, Inputs: []TxInput{}, Outputs: []TxOutput{}}
	}
	if len(ids) == 0 {
		return txs, nil
	}
	ins, err := engine.SelectRows[txInputRow](ctx, tx, db.sql(sqlTxInputs), pq.Array(ids))
	if err != nil {
		return nil, err
	}
	outs, err := engine.SelectRows[txOutputRow](ctx, tx, db.sql(sqlTxOutputs), pq.Array(ids))
	if err != nil {
		return nil, err
	}
	outIDs := make([]int64, 0, len(ins)+len(outs))
	for _, r := range ins {
		outIDs = append(outIDs, r.TxOutID)
	}
	for _, r := range outs {
		outIDs = append(outIDs, r.TxOutID)
	}
	assets, err := assetsByTxOut(ctx, tx, outIDs)
	if err != nil {
		return nil, err
	}
	for _, r := range ins {
		lovelace, err := parseQuantity(r.Lovelace)
		if err != nil {
			return nil, err
		}
		t := &txs[pos[r.TxID]]
		t.Inputs = append(t.Inputs, TxInput{TxHash: r.SourceTxHash, OutputIndex: r.OutputIndex, Address: r.Address,
			Value: Value{Lovelace: lovelace, Assets: assets[r.TxOutID]}})
	}
	for _, r := range outs {
		lovelace, err := parseQuantity(r.Lovelace)
		if err != nil {
			return nil, err
		}
		t := &txs[pos[r.TxID]]
		t.Outputs = append(t.Outputs, TxOutput{OutputIndex: r.OutputIndex, Address: r.Address,
			Value: Value{Lovelace: lovelace, Assets: assets[r.TxOutID]}})
	}
	for _, i := range pos {
		memo.rememberDetail(txs[i])
	}
	return txs, nil
}
