package dbsync

import (
	"context"
	"database/sql"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync/engine"
)

var sqlTxOutAssets = load("dbsync/tx_out_assets.sql")

// AssetQuantity is an amount of one native asset. Policy and Name are hex
// (Name may be empty).
type AssetQuantity struct {
	Policy   string
	Name     string
	Quantity *big.Int
}

// Value is lovelace plus native assets, exact at any size (db-sync stores
// both as numeric(20,0), beyond int64 and far beyond float64's 2^53).
// Assets are ordered by policy, then name.
type Value struct {
	Lovelace *big.Int
	Assets   []AssetQuantity
}

// parseQuantity reads a numeric column that the SQL cast to text. Nearly
// every amount fits in an int64 (all lovelace does: the supply is 4.5e16),
// and strconv reads those several times faster than big.Int.SetString.
func parseQuantity(s string) (*big.Int, error) { return engine.ParseQuantity(s) }

// assetRow is a row of tx_out_assets.sql: a holding (TxOutID and Quantity
// set) or an asset's name (Policy and Name set).
type assetRow struct {
	TxOutID  sql.NullInt64
	Ident    int64
	Quantity sql.NullString
	Policy   sql.NullString
	Name     sql.NullString
}

func (r *assetRow) ScanRow(rows *sql.Rows) error {
	return rows.Scan(&r.TxOutID, &r.Ident, &r.Quantity, &r.Policy, &r.Name)
}

// assetsByTxOut loads the native assets of the given outputs in one query,
// keyed by tx_out id, each output's ordered by policy, then name.
func assetsByTxOut(ctx context.Context, tx *Snapshot, txOutIDs []int64) (map[int64][]AssetQuantity, error) {
	out := make(map[int64][]AssetQuantity)
	if len(txOutIDs) == 0 {
		return out, nil
	}
	rows, err := engine.SelectRows[assetRow](ctx, tx, sqlTxOutAssets, pq.Array(txOutIDs))
	if err != nil {
		return nil, err
	}
	type assetName struct{ policy, name string }
	names := make(map[int64]assetName)
	for _, r := range rows {
		if !r.TxOutID.Valid {
			names[r.Ident] = assetName{r.Policy.String, r.Name.String}
		}
	}
	for _, r := range rows {
		if !r.TxOutID.Valid {
			continue
		}
		n, ok := names[r.Ident]
		if !ok {
			return nil, fmt.Errorf("asset %d held by output %d has no multi_asset row", r.Ident, r.TxOutID.Int64)
		}
		q, err := parseQuantity(r.Quantity.String)
		if err != nil {
			return nil, err
		}
		out[r.TxOutID.Int64] = append(out[r.TxOutID.Int64], AssetQuantity{Policy: n.policy, Name: n.name, Quantity: q})
	}
	// Hex keeps byte order, so this is db-sync's bytea order of the two.
	for _, assets := range out {
		slices.SortFunc(assets, func(a, b AssetQuantity) int {
			if c := strings.Compare(a.Policy, b.Policy); c != 0 {
				return c
			}
			return strings.Compare(a.Name, b.Name)
		})
	}
	return out, nil
}
