package dbsync

import (
	"context"
	"database/sql"
	"fmt"
	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/internal/cardano"
	"slices"
	"strings"

	"github.com/lib/pq"
)

var (
	sqlUTxOsByAddress = layoutStatement("dbsync/utxos_by_address.sql", alwaysGeneric, nil)
	sqlUTxOsByStake   = layoutStatement("dbsync/utxos_by_stake.sql", alwaysGeneric, nil)
	sqlUTxOsByCred    = layoutStatement("dbsync/utxos_by_credential.sql", alwaysGeneric, nil)
	// The same listings with each output's inline datum and reference
	// script (utxo_rows' Scripts).
	sqlUTxOsByAddressScripts = layoutStatement("dbsync/utxos_by_address.sql", alwaysGeneric, withScripts)
	sqlUTxOsByCredScripts    = layoutStatement("dbsync/utxos_by_credential.sql", alwaysGeneric, withScripts)
	sqlUTxOsByStakeScripts   = layoutStatement("dbsync/utxos_by_stake.sql", alwaysGeneric, withScripts)
	sqlUTxOsByRefScript      = layoutStatement("dbsync/scripts_utxos.sql", alwaysGeneric, withScripts)
)

var withScripts = map[string]any{"Scripts": true}

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
	// InlineDatum (CBOR hex) and ReferenceScriptHash (hex) are read only by
	// the listings WithScripts; nil otherwise, and when the output has none.
	InlineDatum         *string
	ReferenceScriptHash *string
}

// defaultUTxOChunk is how many outputs one statement of a UTxO listing reads. A
// Byron-era exchange address can hold tens of thousands of unspent outputs;
// reading and answering them chunk by chunk keeps a request's memory at one
// chunk (a few such requests at once took the server's memory far past its
// bound when the whole list was built first).
const defaultUTxOChunk = 500

// chunkSize is Options.UTxOChunk, or the default.
func (db *DB) chunkSize() int {
	if db.opts.UTxOChunk > 0 {
		return db.opts.UTxOChunk
	}
	return defaultUTxOChunk
}

// utxoRowsExpected: most addresses hold a few unspent outputs; a list of
// a chunk (chunkSize) grows its slice as it reads.
const utxoRowsExpected = 8

// utxoRow is a row of the utxos_by_* statements (all four share columns).
type utxoRow struct {
	TxOutID     int64
	TxID        int64
	TxHash      string
	OutputIndex int
	Address     string
	Lovelace    string
	DatumHash   *string
	ScriptHash  *string
	SlotNo      int64
	BlockHash   string
	// Assets: "policy.name.quantity" of each asset held, in no order
	// (flatAssets sorts them).
	Assets      pq.StringArray
	InlineDatum *string
	RefScript   *string
}

func (r *utxoRow) ScanRow(rows *sql.Rows) error {
	return rows.Scan(&r.TxOutID, &r.TxID, &r.TxHash, &r.OutputIndex, &r.Address, &r.Lovelace,
		&r.DatumHash, &r.ScriptHash, &r.SlotNo, &r.BlockHash, &r.Assets, &r.InlineDatum, &r.RefScript)
}

// UTxOsByAddress returns the address's unspent outputs in chain order
// (slot, position in block, output index). An address never seen on chain
// has none.
func (db *DB) UTxOsByAddress(ctx context.Context, addr cardano.Address) ([]UTxO, error) {
	return collect(func(fn func([]UTxO) error) error { return db.EachUTxOByAddress(ctx, addr, fn) })
}

// UTxOsByStake returns the unspent outputs of every address carrying the
// stake credential, in chain order. An unknown stake key has none.
func (db *DB) UTxOsByStake(ctx context.Context, key cardano.StakeKey) ([]UTxO, error) {
	return collect(func(fn func([]UTxO) error) error { return db.EachUTxOByStake(ctx, key, fn) })
}

// EachUTxOByAddress calls fn with the address's unspent outputs in chain
// order, a chunk at a time, all from one snapshot. fn is not called for an
// address with none; an error from fn stops the listing and is returned.
func (db *DB) EachUTxOByAddress(ctx context.Context, addr cardano.Address, fn func([]UTxO) error) error {
	if err := db.eachUTxO(ctx, db.sql(sqlUTxOsByAddress), addr.String(), fn); err != nil {
		return fmt.Errorf("dbsync.UTxOsByAddress: %w", err)
	}
	return nil
}

// EachUTxOByStake is EachUTxOByAddress for every address of a stake key.
func (db *DB) EachUTxOByStake(ctx context.Context, key cardano.StakeKey, fn func([]UTxO) error) error {
	if err := db.eachUTxO(ctx, db.sql(sqlUTxOsByStake), pq.ByteaArray(key.Candidates()), fn); err != nil {
		return fmt.Errorf("dbsync.UTxOsByStake: %w", err)
	}
	return nil
}

// EachUTxOByCredential is EachUTxOByAddress for every address whose payment
// credential is cred, whatever its kind (base, enterprise, pointer).
func (db *DB) EachUTxOByCredential(ctx context.Context, cred cardano.PaymentCredential, fn func([]UTxO) error) error {
	if err := db.eachUTxO(ctx, db.sql(sqlUTxOsByCred), cred[:], fn); err != nil {
		return fmt.Errorf("dbsync.UTxOsByCredential: %w", err)
	}
	return nil
}

// EachUTxOWithScriptsByAddress is EachUTxOByAddress with each output's
// inline datum and reference script hash (the Blockfrost dialect's UTxOs).
func (db *DB) EachUTxOWithScriptsByAddress(ctx context.Context, addr cardano.Address, fn func([]UTxO) error) error {
	if err := db.eachUTxO(ctx, db.sql(sqlUTxOsByAddressScripts), addr.String(), fn); err != nil {
		return fmt.Errorf("dbsync.UTxOsByAddress: %w", err)
	}
	return nil
}

// EachUTxOWithScriptsByCredential is EachUTxOByCredential with each
// output's inline datum and reference script hash.
func (db *DB) EachUTxOWithScriptsByCredential(ctx context.Context, cred cardano.PaymentCredential, fn func([]UTxO) error) error {
	if err := db.eachUTxO(ctx, db.sql(sqlUTxOsByCredScripts), cred[:], fn); err != nil {
		return fmt.Errorf("dbsync.UTxOsByCredential: %w", err)
	}
	return nil
}

// EachUTxOWithScriptsByStake is EachUTxOByStake with each output's inline
// datum and reference script hash.
func (db *DB) EachUTxOWithScriptsByStake(ctx context.Context, key cardano.StakeKey, fn func([]UTxO) error) error {
	if err := db.eachUTxO(ctx, db.sql(sqlUTxOsByStakeScripts), pq.ByteaArray(key.Candidates()), fn); err != nil {
		return fmt.Errorf("dbsync.UTxOsByStake: %w", err)
	}
	return nil
}

// EachUTxOByReferenceScript calls fn with the unspent outputs holding the
// script (its 28-byte hash) as their reference script, as
// EachUTxOWithScriptsByAddress does an address's.
func (db *DB) EachUTxOByReferenceScript(ctx context.Context, hash []byte, fn func([]UTxO) error) error {
	if err := db.eachUTxO(ctx, db.sql(sqlUTxOsByRefScript), hash, fn); err != nil {
		return fmt.Errorf("dbsync.UTxOsByReferenceScript: %w", err)
	}
	return nil
}

// UTxOsByCredential returns every unspent output carrying the payment
// credential, in chain order.
func (db *DB) UTxOsByCredential(ctx context.Context, cred cardano.PaymentCredential) ([]UTxO, error) {
	return collect(func(fn func([]UTxO) error) error { return db.EachUTxOByCredential(ctx, cred, fn) })
}

func collect(each func(fn func([]UTxO) error) error) ([]UTxO, error) {
	all := []UTxO{}
	err := each(func(chunk []UTxO) error {
		all = append(all, chunk...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return all, nil
}

// eachUTxO reads the listing in keyset chunks of (tx_id, index) inside one
// snapshot: each chunk resumes the index walk where the last one stopped.
// Most lists are one chunk: the first is read as one statement, outside a
// transaction (a statement is its own snapshot), and only when it is full
// is the list read again in a snapshot, chunk by chunk: a short list costs
// one round trip, not four (BEGIN, rows, COMMIT and formerly its assets).
func (db *DB) eachUTxO(ctx context.Context, query Query, arg any, fn func([]UTxO) error) error {
	rows, err := engine.Rows[utxoRow](ctx, db.reader(), utxoRowsExpected, query, arg, int64(-1), -1, db.chunkSize())
	if err != nil {
		return err
	}
	if len(rows) < db.chunkSize() {
		utxos, err := utxosOf(rows)
		if err != nil || len(utxos) == 0 {
			return err
		}
		return fn(utxos)
	}
	return db.reader().Stream(ctx, func(tx *Snapshot) error {
		afterTx, afterIndex := int64(-1), -1
		for {
			utxos, rows, err := selectUTxOs(ctx, tx, query, arg, afterTx, afterIndex, db.chunkSize())
			if err != nil {
				return err
			}
			if len(utxos) > 0 {
				// fn writes to the client, who may read slowly: from the
				// first chunk on, the listing no longer holds a place at
				// the gate, so slow readers cannot keep others waiting.
				tx.LeaveGate()
				if err := fn(utxos); err != nil {
					return err
				}
			}
			if len(rows) < db.chunkSize() {
				return nil
			}
			last := rows[len(rows)-1]
			afterTx, afterIndex = last.TxID, last.OutputIndex
		}
	})
}

// selectUTxOs runs one chunk of a UTxO listing.
func selectUTxOs(ctx context.Context, tx *Snapshot, query Query, arg any, afterTx int64, afterIndex, limit int) ([]UTxO, []utxoRow, error) {
	rows, err := engine.SelectRows[utxoRow](ctx, tx, query, arg, afterTx, afterIndex, limit)
	if err != nil {
		return nil, nil, err
	}
	utxos, err := utxosOf(rows)
	return utxos, rows, err
}

// utxosOf turns a chunk's rows into outputs.
func utxosOf(rows []utxoRow) ([]UTxO, error) {
	utxos := make([]UTxO, len(rows))
	for i, r := range rows {
		lovelace, err := parseQuantity(r.Lovelace)
		if err != nil {
			return nil, err
		}
		assets, err := flatAssets(r.Assets)
		if err != nil {
			return nil, err
		}
		utxos[i] = UTxO{
			TxHash:              r.TxHash,
			OutputIndex:         r.OutputIndex,
			Address:             r.Address,
			Value:               Value{Lovelace: lovelace, Assets: assets},
			DatumHash:           r.DatumHash,
			ScriptHash:          r.ScriptHash,
			SlotNo:              r.SlotNo,
			BlockHash:           r.BlockHash,
			InlineDatum:         r.InlineDatum,
			ReferenceScriptHash: r.RefScript,
		}
	}
	return utxos, nil
}

// flatAssets reads an output's assets column: "policy.name.quantity"
// each, policy and name in hex (nil when it holds none), by policy then
// name. The column comes in no order (fragments.sql "output_assets"):
// sorting the strings sorts by policy then name, as every policy has 56
// hex digits and "." sorts before every hex digit.
func flatAssets(held []string) ([]AssetQuantity, error) {
	if len(held) == 0 {
		return nil, nil
	}
	slices.Sort(held)
	out := make([]AssetQuantity, len(held))
	for i, h := range held {
		policy, rest, ok1 := strings.Cut(h, ".")
		name, quantity, ok2 := strings.Cut(rest, ".")
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("asset %q: not policy.name.quantity", h)
		}
		q, err := parseQuantity(quantity)
		if err != nil {
			return nil, err
		}
		out[i] = AssetQuantity{Policy: policy, Name: name, Quantity: q}
	}
	return out, nil
}
