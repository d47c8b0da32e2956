package dbsync

import (
	"context"
	"database/sql"
	"fmt"
	"math/big"
	"strconv"

	"github.com/lib/pq"

	sqlfiles "github.com/syncgate/syncgate/sql"
)

var sqlTxOutAssets = prepared(sqlfiles.Must("dbsync/tx_out_assets.sql"))

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
func parseQuantity(s string) (*big.Int, error) {
	if len(s) < 19 {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return big.NewInt(n), nil
		}
	}
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return nil, fmt.Errorf("unparseable quantity %q", s)
	}
	return v, nil
}

// assetRow is a row of tx_out_assets.sql.
type assetRow struct {
	TxOutID  int64
	Policy   string
	Name     string
	Quantity string
}

func (r *assetRow) scanRow(rows *sql.Rows) error {
	return rows.Scan(&r.TxOutID, &r.Policy, &r.Name, &r.Quantity)
}

// assetsByTxOut loads the native assets of the given outputs in one query,
// keyed by tx_out id.
func assetsByTxOut(ctx context.Context, tx *Snapshot, txOutIDs []int64) (map[int64][]AssetQuantity, error) {
	out := make(map[int64][]AssetQuantity)
	if len(txOutIDs) == 0 {
		return out, nil
	}
	rows, err := selectRows[assetRow](ctx, tx, sqlTxOutAssets, pq.Array(txOutIDs))
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		q, err := parseQuantity(r.Quantity)
		if err != nil {
			return nil, err
		}
		out[r.TxOutID] = append(out[r.TxOutID], AssetQuantity{Policy: r.Policy, Name: r.Name, Quantity: q})
	}
	return out, nil
}

// byMode picks the statement for this database's UTxO mode: the tx_in
// anti-join (core) or consumed_by_tx_id (consumed).
func (db *DB) byMode(core, consumed string) string {
	if db.Caps.UTxOMode == ModeConsumed {
		return consumed
	}
	return core
}
