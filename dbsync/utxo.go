package dbsync

import (
	"context"
	"fmt"

	"github.com/lib/pq"

	sqlfiles "github.com/syncgate/syncgate/sql"
)

var (
	sqlUTxOsByAddress         = prepared(sqlfiles.Must("dbsync/utxos_by_address.sql"))
	sqlUTxOsByAddressConsumed = prepared(sqlfiles.Must("dbsync/utxos_by_address_consumed.sql"))
	sqlUTxOsByStake           = prepared(sqlfiles.Must("dbsync/utxos_by_stake.sql"))
	sqlUTxOsByStakeConsumed   = prepared(sqlfiles.Must("dbsync/utxos_by_stake_consumed.sql"))
)

// UTxO is an unspent output. ScriptHash is the payment script hash when the
// address's payment part is a script (tx_out.payment_cred), else nil.
type UTxO struct {
	TxHash      string
	OutputIndex int
	Address     string
	Value       Value
	DatumHash   *string
	ScriptHash  *string
	SlotNo      int64
	BlockHash   string
}

type utxoRow struct {
	TxOutID     int64   `db:"tx_out_id"`
	TxHash      string  `db:"tx_hash"`
	OutputIndex int     `db:"output_index"`
	Address     string  `db:"address"`
	Lovelace    string  `db:"lovelace"`
	DatumHash   *string `db:"datum_hash"`
	ScriptHash  *string `db:"script_hash"`
	SlotNo      int64   `db:"slot_no"`
	BlockHash   string  `db:"block_hash"`
}

// UTxOsByAddress returns the address's unspent outputs in chain order
// (slot, position in block, output index). An address never seen on chain
// has none.
func (db *DB) UTxOsByAddress(ctx context.Context, addr Address) (utxos []UTxO, err error) {
	err = db.ReadTx(ctx, func(tx *Snapshot) error {
		utxos, err = selectUTxOs(ctx, tx, db.byMode(sqlUTxOsByAddress, sqlUTxOsByAddressConsumed), addr.String())
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("dbsync.UTxOsByAddress: %w", err)
	}
	return utxos, nil
}

// UTxOsByStake returns the unspent outputs of every address carrying the
// stake credential, in chain order. An unknown stake key has none.
func (db *DB) UTxOsByStake(ctx context.Context, key StakeKey) (utxos []UTxO, err error) {
	err = db.ReadTx(ctx, func(tx *Snapshot) error {
		utxos, err = selectUTxOs(ctx, tx, db.byMode(sqlUTxOsByStake, sqlUTxOsByStakeConsumed), pq.ByteaArray(key.Candidates()))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("dbsync.UTxOsByStake: %w", err)
	}
	return utxos, nil
}

// selectUTxOs runs one UTxO listing, then one query for all their assets.
func selectUTxOs(ctx context.Context, tx *Snapshot, query string, arg any) ([]UTxO, error) {
	var rows []utxoRow
	if err := tx.SelectContext(ctx, &rows, query, arg); err != nil {
		return nil, err
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.TxOutID
	}
	assets, err := assetsByTxOut(ctx, tx, ids)
	if err != nil {
		return nil, err
	}
	utxos := make([]UTxO, len(rows))
	for i, r := range rows {
		lovelace, err := parseQuantity(r.Lovelace)
		if err != nil {
			return nil, err
		}
		utxos[i] = UTxO{
			TxHash:      r.TxHash,
			OutputIndex: r.OutputIndex,
			Address:     r.Address,
			Value:       Value{Lovelace: lovelace, Assets: assets[r.TxOutID]},
			DatumHash:   r.DatumHash,
			ScriptHash:  r.ScriptHash,
			SlotNo:      r.SlotNo,
			BlockHash:   r.BlockHash,
		}
	}
	return utxos, nil
}
