package dbsync

import (
	"context"
	"fmt"
	"github.com/syncgate/syncgate/internal/cardano"
	"math/big"
	"sort"

	"github.com/lib/pq"
)

var (
	sqlBalanceByAddress = layoutStatement("dbsync/balance_by_address.sql", alwaysGeneric, nil)
	sqlBalanceByStake   = layoutStatement("dbsync/balance_by_stake.sql", alwaysGeneric, nil)
	sqlBalanceByCred    = layoutStatement("dbsync/balance_by_credential.sql", alwaysGeneric, nil)
)

// BalanceByAddress sums the address's unspent outputs: lovelace and each
// native asset. One statement, so it always equals the sum of the UTxO set
// of one snapshot. Unknown addresses have a zero balance.
func (db *DB) BalanceByAddress(ctx context.Context, addr cardano.Address) (Value, error) {
	v, err := db.balance(ctx, db.sql(sqlBalanceByAddress), addr.String())
	if err != nil {
		return Value{}, fmt.Errorf("dbsync.BalanceByAddress: %w", err)
	}
	return v, nil
}

// BalanceByStake sums the unspent outputs of every address carrying the
// stake credential. Unknown stake keys have a zero balance.
func (db *DB) BalanceByStake(ctx context.Context, key cardano.StakeKey) (Value, error) {
	v, err := db.balance(ctx, db.sql(sqlBalanceByStake), pq.ByteaArray(key.Candidates()))
	if err != nil {
		return Value{}, fmt.Errorf("dbsync.BalanceByStake: %w", err)
	}
	return v, nil
}

// BalanceByCredential sums the unspent outputs of every address whose
// payment credential is cred. An unseen credential has a zero balance.
func (db *DB) BalanceByCredential(ctx context.Context, cred cardano.PaymentCredential) (Value, error) {
	v, err := db.balance(ctx, db.sql(sqlBalanceByCred), cred[:])
	if err != nil {
		return Value{}, fmt.Errorf("dbsync.BalanceByCredential: %w", err)
	}
	return v, nil
}

type balanceRow struct {
	Policy   *string `db:"policy"`
	Name     *string `db:"name"`
	Quantity string  `db:"quantity"`
}

func (db *DB) balance(ctx context.Context, query Query, arg any) (Value, error) {
	var rows []balanceRow
	if err := db.selectAll(ctx, &rows, query, arg); err != nil {
		return Value{}, classify(err)
	}
	v := Value{Lovelace: new(big.Int)}
	for _, r := range rows {
		q, err := parseQuantity(r.Quantity)
		if err != nil {
			return Value{}, err
		}
		if r.Policy == nil {
			v.Lovelace = q
			continue
		}
		v.Assets = append(v.Assets, AssetQuantity{Policy: *r.Policy, Name: *r.Name, Quantity: q})
	}
	sort.Slice(v.Assets, func(i, j int) bool {
		a, b := v.Assets[i], v.Assets[j]
		return a.Policy < b.Policy || a.Policy == b.Policy && a.Name < b.Name
	})
	return v, nil
}
