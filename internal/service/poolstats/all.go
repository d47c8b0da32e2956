package poolstats

import (
	"context"
	"fmt"
	"math/big"

	"github.com/syncgate/syncgate/internal/cardano"
	sqlfiles "github.com/syncgate/syncgate/sql"
)

var (
	sqlSummaryAll = sqlfiles.Must("admin/pool_stake_summary_all.sql")
	sqlPoolAll    = sqlfiles.Must("admin/pool_stake_pool_all.sql")
)

// Live is one pool's stored live stake and delegator count.
type Live struct {
	Stake      *big.Int
	Delegators int64
}

// Summaries returns every pool's live stake from the network's last
// refresh, by pool id hex (a pool without delegators is absent); ok is
// false when no refresh of the network has completed yet.
func (s *Stats) Summaries(ctx context.Context, network string) (map[string]Live, bool, error) {
	if _, ok, err := s.State(ctx, network); err != nil || !ok {
		return nil, false, err
	}
	var rows []struct {
		Pool       string `db:"pool_id_hex"`
		Stake      string `db:"live_stake"`
		Delegators int64  `db:"delegator_count"`
	}
	if err := s.admin.SelectContext(ctx, &rows, sqlSummaryAll, network); err != nil {
		return nil, false, fmt.Errorf("poolstats.Summaries(%s): %w", network, err)
	}
	out := make(map[string]Live, len(rows))
	for _, r := range rows {
		v, ok := new(big.Int).SetString(r.Stake, 10)
		if !ok {
			return nil, false, fmt.Errorf("poolstats.Summaries(%s): live stake %q is not an integer", network, r.Stake)
		}
		out[r.Pool] = Live{Stake: v, Delegators: r.Delegators}
	}
	return out, true, nil
}

// AllDelegators returns every stored delegator of the pool, in the order
// their delegations took effect (active epoch, then stake address); ok is
// false when no refresh of the network has completed yet.
func (s *Stats) AllDelegators(ctx context.Context, network string, pool cardano.PoolID) ([]Delegator, bool, error) {
	if _, ok, err := s.State(ctx, network); err != nil || !ok {
		return nil, false, err
	}
	out := []Delegator{}
	if err := s.admin.SelectContext(ctx, &out, sqlPoolAll, network, pool.Hex()); err != nil {
		return nil, false, fmt.Errorf("poolstats.AllDelegators(%s): %w", pool, err)
	}
	return out, true, nil
}
