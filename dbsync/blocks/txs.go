package blocks

import (
	"context"
	"errors"
	"fmt"

	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
)

var (
	sqlBlockTxs = engine.Fixed("dbsync/block_txs.sql")
	// tx_cbor is an optional table: a statement naming it is run only
	// where it exists, never prepared (a database without it would refuse).
	sqlBlockTxsCBOR   = engine.Template("dbsync/block_txs_cbor.sql", engine.NeverPrepared, nil)
	sqlBlockAddresses = engine.Template("dbsync/block_addresses.sql", engine.AlwaysGeneric, nil)
)

// Page is a window of a list in its order: Offset items skipped, Count
// taken, newest first when Desc.
type Page struct {
	Offset, Count int
	Desc          bool
}

// positions is the page's block_index range among n transactions.
func (p Page) positions(n int) (from, to int) {
	if p.Desc {
		return n - p.Offset - p.Count, n - p.Offset - 1
	}
	return p.Offset, p.Offset + p.Count - 1
}

// TxHashes returns the hashes of the page of the block's transactions, in
// block order (Blockfrost's /blocks/{hash_or_number}/txs, /blocks/latest/txs).
// An unknown block is dbsync.ErrNotFound.
func TxHashes(ctx context.Context, db *dbsync.DB, ref Ref, p Page) ([]string, error) {
	out := []string{}
	err := db.ReadTx(ctx, func(tx *dbsync.Snapshot) error {
		r, err := resolve(ctx, tx, ref)
		if err != nil {
			return err
		}
		from, to := p.positions(r.TxCount)
		return tx.SelectContext(ctx, &out, sqlBlockTxs, r.ID, from, to, p.Desc)
	})
	return out, blocksErr("TxHashes", err)
}

// TxCBOR is a transaction's hash and its CBOR in hex.
type TxCBOR struct {
	TxHash string `db:"tx_hash" json:"tx_hash"`
	CBOR   string `db:"cbor" json:"cbor"`
}

// TxCBORs is TxHashes with each transaction's CBOR, from db-sync's
// tx_cbor table: a transaction db-sync kept no CBOR of is left out of its
// page (so is every one where the table does not exist), as Blockfrost's
// backend leaves it out.
func TxCBORs(ctx context.Context, db *dbsync.DB, ref Ref, p Page) ([]TxCBOR, error) {
	out := []TxCBOR{}
	err := db.ReadTx(ctx, func(tx *dbsync.Snapshot) error {
		r, err := resolve(ctx, tx, ref)
		if err != nil || !r.HasTxCBOR {
			return err
		}
		from, to := p.positions(r.TxCount)
		return tx.SelectContext(ctx, &out, db.SQL(sqlBlockTxsCBOR), r.ID, from, to, p.Desc)
	})
	return out, blocksErr("TxCBORs", err)
}

// AddressTxs is an address a block's transactions paid or spent from,
// with those transactions' hashes in block order.
type AddressTxs struct {
	Address  string         `db:"address"`
	TxHashes pq.StringArray `db:"tx_hashes"`
}

// Addresses returns the page (Desc ignored) of the addresses the block's
// transactions touched, in byte order (Blockfrost's
// /blocks/{hash_or_number}/addresses). It needs spent outputs
// (dbsync.FactsSpent). An unknown block is dbsync.ErrNotFound.
func Addresses(ctx context.Context, db *dbsync.DB, ref Ref, p Page) ([]AddressTxs, error) {
	out := []AddressTxs{}
	err := db.ReadTx(ctx, func(tx *dbsync.Snapshot) error {
		r, err := resolve(ctx, tx, ref)
		if err != nil {
			return err
		}
		return tx.SelectContext(ctx, &out, db.SQL(sqlBlockAddresses), r.ID, p.Count, p.Offset)
	})
	return out, blocksErr("Addresses", err)
}

// blocksErr names the call in an error other than not found.
func blocksErr(call string, err error) error {
	if err == nil || errors.Is(err, dbsync.ErrNotFound) {
		return err
	}
	return fmt.Errorf("blocks.%s: %w", call, err)
}
