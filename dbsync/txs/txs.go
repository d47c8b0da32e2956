// Package txs reads what a transaction holds beyond its inputs and
// outputs' values (dbsync.TxByHash): its head with the counts of its
// contents, its inputs and outputs with datums, scripts and spenders, its
// certificates, withdrawals, metadata, redeemers, required signers and
// CBOR. Each answer is one statement that finds the transaction by its
// hash first (unique_tx) and everything else from its id, so an unknown
// hash costs one index probe; no row at all means no such transaction.
package txs

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/internal/cardano"
)

// Statements: the head and the inputs and outputs depend on how the
// layout records spends and addresses; the others do not.
var (
	sqlContent         = engine.Template("dbsync/txs_content.sql", engine.AlwaysGeneric, nil)
	sqlUTxOs           = engine.Template("dbsync/txs_utxos.sql", engine.AlwaysGeneric, nil)
	sqlStakes          = engine.Fixed("dbsync/txs_stakes.sql")
	sqlDelegations     = engine.Fixed("dbsync/txs_delegations.sql")
	sqlWithdrawals     = engine.Fixed("dbsync/txs_withdrawals.sql")
	sqlMIRs            = engine.Fixed("dbsync/txs_mirs.sql")
	sqlPoolUpdates     = engine.Fixed("dbsync/txs_pool_updates.sql")
	sqlPoolRetires     = engine.Fixed("dbsync/txs_pool_retires.sql")
	sqlMetadata        = engine.Fixed("dbsync/txs_metadata.sql")
	sqlRedeemers       = engine.Fixed("dbsync/txs_redeemers.sql")
	sqlRequiredSigners = engine.Fixed("dbsync/txs_required_signers.sql")
	sqlCBOR            = engine.Fixed("dbsync/txs_cbor.sql")
)

// list runs a statement of the "one row of NULLs when the transaction has
// none" kind (every list but the inputs and outputs) and returns the rows
// that hold an item (present), or dbsync.ErrNotFound when no transaction
// has the hash.
func list[R any](ctx context.Context, db *dbsync.DB, what string, q dbsync.Query, hash cardano.TxHash, present func(R) bool) ([]R, error) {
	var rows []R
	if err := db.Reader().Select(ctx, &rows, q, hash[:]); err != nil {
		return nil, fmt.Errorf("txs.%s(%s): %w", what, hash, engine.Classify(err))
	}
	if len(rows) == 0 {
		return nil, dbsync.ErrNotFound
	}
	out := rows[:0]
	for _, r := range rows {
		if present(r) {
			out = append(out, r)
		}
	}
	return slices.Clip(out), nil
}

// value builds a value from its lovelace and its assets as
// "policy.name.quantity" strings (fragments.sql "output_assets"), ordered
// by policy, then name, as the other stores order them.
func value(lovelace string, assets []string) (dbsync.Value, error) {
	l, err := engine.ParseQuantity(lovelace)
	if err != nil {
		return dbsync.Value{}, err
	}
	v := dbsync.Value{Lovelace: l}
	if len(assets) == 0 {
		return v, nil
	}
	slices.Sort(assets)
	v.Assets = make([]dbsync.AssetQuantity, len(assets))
	for i, a := range assets {
		policy, rest, ok1 := strings.Cut(a, ".")
		name, quantity, ok2 := strings.Cut(rest, ".")
		if !ok1 || !ok2 {
			return dbsync.Value{}, fmt.Errorf("asset %q: not policy.name.quantity", a)
		}
		q, err := engine.ParseQuantity(quantity)
		if err != nil {
			return dbsync.Value{}, err
		}
		v.Assets[i] = dbsync.AssetQuantity{Policy: policy, Name: name, Quantity: q}
	}
	return v, nil
}
