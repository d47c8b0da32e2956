package history

import (
	"database/sql"
	"math/big"
	"time"

	"github.com/syncgate/syncgate/dbsync/engine"
)

// TxRef is a transaction and the block that holds it.
type TxRef struct {
	ID        int64 // db-sync tx.id: chain order, never shown to clients
	Hash      string
	BlockHash string
	SlotNo    int64
	BlockNo   int64
	BlockTime time.Time
	Fee       *big.Int
	Size      int64
}

// TxRefRow is a row of the statements that read transactions (history
// pages, tx_by_hash.sql).
type TxRefRow struct {
	ID        int64     `db:"id"`
	TxHash    string    `db:"tx_hash"`
	BlockHash string    `db:"block_hash"`
	SlotNo    int64     `db:"slot_no"`
	BlockNo   int64     `db:"block_no"`
	BlockTime time.Time `db:"block_time"`
	Fee       string    `db:"fee"`
	Size      int64     `db:"size"`
}

// ScanRow reads a history page row (tx_history_page.sql).
func (r *TxRefRow) ScanRow(rows *sql.Rows) error {
	return rows.Scan(&r.ID, &r.TxHash, &r.BlockHash, &r.SlotNo, &r.BlockNo, &r.BlockTime, &r.Fee, &r.Size)
}

// NullTxRefRow is TxRefRow's columns on a statement that carries them on
// some rows only (tx_history_first's items, tx_by_hash's head): NULL on
// the others.
type NullTxRefRow struct {
	ID        sql.NullInt64
	TxHash    sql.NullString
	BlockHash sql.NullString
	SlotNo    sql.NullInt64
	BlockNo   sql.NullInt64
	BlockTime sql.NullTime
	Fee       sql.NullString
	Size      sql.NullInt64
}

// Row is the reference the row carries; ok is false when its id is NULL.
func (r NullTxRefRow) Row() (row TxRefRow, ok bool) {
	if !r.ID.Valid {
		return TxRefRow{}, false
	}
	return TxRefRow{ID: r.ID.Int64, TxHash: r.TxHash.String, BlockHash: r.BlockHash.String, SlotNo: r.SlotNo.Int64,
		BlockNo: r.BlockNo.Int64, BlockTime: r.BlockTime.Time, Fee: r.Fee.String, Size: r.Size.Int64}, true
}

// Ref is the row as a TxRef.
func (r TxRefRow) Ref() (TxRef, error) {
	fee, err := engine.ParseQuantity(r.Fee)
	if err != nil {
		return TxRef{}, err
	}
	return TxRef{ID: r.ID, Hash: r.TxHash, BlockHash: r.BlockHash, SlotNo: r.SlotNo, BlockNo: r.BlockNo,
		BlockTime: engine.AsUTC(r.BlockTime), Fee: fee, Size: r.Size}, nil
}
