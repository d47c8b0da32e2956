package bf

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/supply"
)

// Network is Blockfrost's network.
type Network struct {
	Supply NetworkSupply `json:"supply"`
	Stake  NetworkStake  `json:"stake"`
}

// NetworkSupply is the lovelace of the network's supply.
type NetworkSupply struct {
	Max         string `json:"max"`
	Total       string `json:"total"`
	Circulating string `json:"circulating"`
	Locked      string `json:"locked"`
	Treasury    string `json:"treasury"`
	Reserves    string `json:"reserves"`
}

// NetworkStake is the network's live and active stake.
type NetworkStake struct {
	Live   string `json:"live"`
	Active string `json:"active"`
}

// NetworkAnswer answers /network, under the tip:
//   - max, the genesis maximum supply; treasury, reserves and total (max −
//     reserves) from the ledger's pots at the newest epoch's first block
//     (ada_pots); circulating, Blockfrost's "UTxOs + withdrawables", as the
//     same pots count them then (utxo + rewards, the reward accounts'
//     balances): exact for the epoch's start, read with no pass over the
//     outputs;
//   - locked, the lovelace of unspent outputs at script addresses, and
//     live, every delegator's balance where the pool-stake refresher does
//     not keep it: computed once an epoch in the background (figures.go);
//   - active, the epoch's active stake distribution's total (the
//     per-epoch memo shared with the pool answers).
//
// A database without ada_pots (ledger state disabled) has no figures:
// not found.
func (a *Answers) NetworkAnswer(ctx context.Context, db *dbsync.DB) ([]byte, error) {
	return cached(ctx, a, db, "network", nil, func(ctx context.Context, db *dbsync.DB) (Network, error) {
		pots, err := supply.LatestPots(ctx, db)
		if err != nil {
			return Network{}, notFound(err)
		}
		maxSupply, _ := new(big.Int).SetString(db.Network.Genesis().MaxLovelaceSupply, 10)
		utxo, rewards, reserves, err := amountsOf(pots.UTxO, pots.Rewards, pots.Reserves)
		if err != nil {
			return Network{}, err
		}
		slow, err := a.figures.get(ctx, db, pots.Epoch, a.slowFigures(db, pots.Epoch))
		if err != nil {
			return Network{}, err
		}
		active, err := a.svc.ActiveStake(ctx, db, pots.Epoch)
		if err != nil {
			return Network{}, err
		}
		live, ok, err := a.svc.NetworkLiveStake(ctx, db)
		if err != nil {
			return Network{}, err
		}
		n := Network{
			Supply: NetworkSupply{
				Max:         maxSupply.String(),
				Total:       new(big.Int).Sub(maxSupply, reserves).String(),
				Circulating: new(big.Int).Add(utxo, rewards).String(),
				Locked:      slow.Locked,
				Treasury:    pots.Treasury,
				Reserves:    pots.Reserves,
			},
			Stake: NetworkStake{Active: active.String()},
		}
		switch {
		case ok:
			n.Stake.Live = live.String()
		case slow.Live != nil:
			n.Stake.Live = *slow.Live
		default:
			return Network{}, errors.New("bf: no live stake: the pool-stake refresher has none and the epoch's pass did not count it")
		}
		return n, nil
	})
}

// slowFigures computes an epoch's figures that read the whole UTxO set,
// shared with the other instances through the per-epoch facts: the
// locked supply, and the live stake unless the pool-stake refresher
// keeps it.
func (a *Answers) slowFigures(db *dbsync.DB, epoch int64) func(context.Context) (figures, error) {
	return func(ctx context.Context) (figures, error) {
		_, refreshed, err := a.svc.NetworkLiveStake(ctx, db)
		if err != nil {
			return figures{}, err
		}
		name := "networkfigures"
		if !refreshed {
			name = "networkfigureslive"
		}
		b, err := a.svc.EpochFact(ctx, db, name, epoch, figuresTTL, func(ctx context.Context) ([]byte, error) {
			var f figures
			if f.Locked, _, err = supply.ScriptLocked(ctx, db, figuresTimeout); err != nil {
				return nil, err
			}
			if !refreshed {
				total := new(big.Int)
				_, err := db.PoolStakeAll(ctx, figuresTimeout, func(s dbsync.PoolStake) error {
					v, ok := new(big.Int).SetString(s.Amount, 10)
					if !ok {
						return fmt.Errorf("live stake %q is not an integer", s.Amount)
					}
					total.Add(total, v)
					return nil
				})
				if err != nil {
					return nil, err
				}
				live := total.String()
				f.Live = &live
			}
			return json.Marshal(f)
		})
		if err != nil {
			return figures{}, err
		}
		var f figures
		return f, json.Unmarshal(b, &f)
	}
}

// figuresTTL keeps an epoch's figures for the other instances for as
// long as an epoch lasts on mainnet; figuresTimeout bounds one pass.
const (
	figuresTTL     = 5 * 24 * time.Hour
	figuresTimeout = 30 * time.Minute
)

// amountsOf reads three decimal lovelace amounts.
func amountsOf(a, b, c string) (x, y, z *big.Int, err error) {
	var out [3]*big.Int
	for i, s := range [3]string{a, b, c} {
		var ok bool
		if out[i], ok = new(big.Int).SetString(s, 10); !ok {
			return nil, nil, nil, fmt.Errorf("bf: %q is not an amount", s)
		}
	}
	return out[0], out[1], out[2], nil
}
