package bf

import (
	"context"
	"fmt"
	"math"
	"math/big"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/node"
)

// feeAndDeposit is the transaction's fee and its deposits less refunds
// (db-sync's tx.deposit). While every output the transaction spends is
// known, the deposit is what the ledger's balance leaves: inputs and
// withdrawals less outputs, fee and treasury donation (a Byron
// transaction states no fee: it is the inputs less the outputs). Else it
// is summed from what the transaction states (Conway certificates and
// proposals carry their deposits) and, for the older certificates, the
// current protocol parameters: a key's deposit for each stake key
// registered, back for each deregistered, a pool's for each pool
// registered that db-sync does not know yet (a re-registration is an
// update and costs none). A transaction whose scripts are expected to fail
// pays no deposit.
func (a *Answers) feeAndDeposit(ctx context.Context, db *dbsync.DB, tx node.MempoolTx, spent map[node.Input]spentOutput) (fee, deposit *big.Int, err error) {
	f := tx.Facts
	fee, deposit = new(big.Int).Set(f.Fee), new(big.Int)
	if !f.Valid {
		return fee, deposit, nil
	}
	in := new(big.Int)
	for _, i := range tx.Inputs {
		o, ok := spent[i]
		if !ok {
			in = nil
			break
		}
		in.Add(in, o.Lovelace)
	}
	if in != nil {
		out := new(big.Int)
		for _, o := range tx.Outputs {
			out.Add(out, o.Lovelace)
		}
		if tx.EraID == 0 {
			return fee.Sub(in, out), deposit, nil
		}
		deposit.Add(in, f.Withdrawals)
		deposit.Sub(deposit, out).Sub(deposit, fee).Sub(deposit, f.Donation)
		return fee, deposit, nil
	}
	deposit.Set(f.ProposalDeposits)
	var params *dbsync.EpochParams
	param := func(pick func(dbsync.EpochParams) string) (*big.Int, error) {
		if params == nil {
			p, err := db.EpochParamsAtOrBefore(ctx, math.MaxInt32) // the newest
			if err != nil {
				return nil, fmt.Errorf("bf: deposits of %s: %w", tx.Hash, err)
			}
			params = &p
		}
		n, ok := new(big.Int).SetString(pick(*params), 10)
		if !ok {
			return nil, fmt.Errorf("bf: deposits of %s: unreadable parameter %q", tx.Hash, pick(*params))
		}
		return n, nil
	}
	keyDeposit := func(p dbsync.EpochParams) string { return p.KeyDeposit }
	for _, c := range f.Certificates {
		switch c.Kind {
		case 7, 11, 12, 13, 16:
			deposit.Add(deposit, c.Coin)
		case 8, 17:
			deposit.Sub(deposit, c.Coin)
		case 0, 1:
			n, err := param(keyDeposit)
			if err != nil {
				return nil, nil, err
			}
			if c.Kind == 1 {
				n.Neg(n)
			}
			deposit.Add(deposit, n)
		case 3:
			var id cardano.PoolID
			copy(id[:], c.Pool)
			known, err := db.PoolRegistered(ctx, id)
			if err != nil {
				return nil, nil, err
			}
			if !known {
				n, err := param(func(p dbsync.EpochParams) string { return p.PoolDeposit })
				if err != nil {
					return nil, nil, err
				}
				deposit.Add(deposit, n)
			}
		}
	}
	return fee, deposit, nil
}
