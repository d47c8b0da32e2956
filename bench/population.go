package main

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/sql"
)

// The wide workload's population: the addresses, stake addresses, payment
// credentials and transaction hashes its scenarios draw from, sampled from
// the bench's db-sync database at start. Partners poll tens of thousands
// of different addresses, each about once a block, so the scenarios aim
// at a population that size instead of the manifest's few notable ones.

var (
	sqlPopulationSizes         = sqlfiles.BenchMust("bench/population_sizes.sql")
	sqlPopulationOutputs       = sqlfiles.BenchMust("bench/population_outputs.sql")
	sqlPopulationOutputsByID   = sqlfiles.BenchMust("bench/population_outputs_address_table.sql")
	sqlPopulationAddressIDs    = sqlfiles.BenchMust("bench/population_address_ids.sql")
	sqlPopulationStakeIDs      = sqlfiles.BenchMust("bench/population_stake_ids.sql")
	sqlPopulationTxs           = sqlfiles.BenchMust("bench/population_txs.sql")
	populationOutputRowsFactor = 4 // sampled outputs per wanted address: most addresses have several
)

// populationOptions bounds a sample.
type populationOptions struct {
	// Max is the most identifiers of each kind kept.
	Max int
	// MaxOutputs leaves out identifiers whose estimated output count (their
	// sampled rows scaled by the sampled share of tx_out) is above it: the
	// whale, exchanges, DEX scripts. They have scenarios of their own, and
	// one of them at the top of a Zipf ranking would be the whole run.
	MaxOutputs int64
	// Seed picks the sampled pages (REPEATABLE) and the Zipf ranking.
	Seed int64
	// Exclude are identifiers left out whatever the sample says (the
	// manifest's heavy ones).
	Exclude map[string]bool
}

// population is what the wide scenarios draw from. Each list is in a
// seeded random order: index 0 is the Zipf draw's most requested.
type population struct {
	Addresses   []string `json:"-"`
	StakeKeys   []string `json:"-"`
	Credentials []string `json:"-"`
	TxHashes    []string `json:"-"`
	// For the report.
	Counts struct {
		Addresses   int `json:"addresses"`
		StakeKeys   int `json:"stake_keys"`
		Credentials int `json:"payment_credentials"`
		TxHashes    int `json:"tx_hashes"`
	} `json:"counts"`
	SampledOutputs int64    `json:"sampled_outputs"`
	OutputShare    float64  `json:"sampled_output_share"` // sampled rows / tx_out's estimated rows
	Excluded       int      `json:"excluded_heavy"`
	Seconds        float64  `json:"sample_seconds"`
	Notes          []string `json:"notes,omitempty"`
}

// tally counts the sampled rows of each identifier, keeping first-seen order.
type tally struct {
	order []string
	n     map[string]int64
}

func newTally() *tally { return &tally{n: map[string]int64{}} }

func (t *tally) add(k string, n int64) {
	if k == "" {
		return
	}
	if _, ok := t.n[k]; !ok {
		t.order = append(t.order, k)
	}
	t.n[k] += n
}

// keep returns the identifiers whose estimated outputs (sampled rows /
// share) are at most maxOutputs and not excluded, shuffled by r, at most
// max of them, and how many were left out as heavy.
func (t *tally) keep(share float64, o populationOptions, r *rand.Rand) (out []string, heavy int) {
	for _, k := range t.order {
		if o.Exclude[k] {
			heavy++
			continue
		}
		if o.MaxOutputs > 0 && share > 0 && float64(t.n[k])/share > float64(o.MaxOutputs) {
			heavy++
			continue
		}
		out = append(out, k)
	}
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	if len(out) > o.Max {
		out = out[:o.Max]
	}
	return out, heavy
}

// samplePercent is the TABLESAMPLE SYSTEM percentage that reads about
// want of a table's estimated rows (100 when it has fewer, or no estimate).
func samplePercent(want, rows int64) float64 {
	if rows <= 0 || want >= rows {
		return 100
	}
	return max(100*float64(want)/float64(rows), 0.0001)
}

// samplePopulation reads the population from a db-sync database whose
// tx_out layout is variant ("core" or "address", dbsync's Capabilities).
// Every statement reads a bounded share of a table (TABLESAMPLE SYSTEM)
// or looks ids up by primary key.
func samplePopulation(ctx context.Context, db *sqlx.DB, variant string, o populationOptions) (*population, error) {
	start := time.Now()
	if o.Max < 1 {
		return nil, fmt.Errorf("population: %d identifiers of each kind: want at least 1", o.Max)
	}
	var sizes struct {
		TxOut int64 `db:"tx_out"`
		Tx    int64 `db:"tx"`
	}
	if err := db.GetContext(ctx, &sizes, sqlPopulationSizes); err != nil {
		return nil, fmt.Errorf("population: table sizes: %w", err)
	}
	p := &population{}
	if sizes.TxOut == 0 || sizes.Tx == 0 {
		p.Notes = append(p.Notes, "tx_out or tx has no row estimate (never analysed): sampled from the first pages")
	}
	seed := float64(o.Seed)
	wantRows := int64(o.Max) * int64(populationOutputRowsFactor)
	pct := samplePercent(wantRows, sizes.TxOut)
	// The LIMIT only bounds a wrong estimate (it cuts the newest pages).
	limitRows := 2 * wantRows

	addrs, creds, stakeIDs := newTally(), newTally(), map[int64]int64{}
	var rows int64
	switch variant {
	case "core":
		r, err := db.QueryxContext(ctx, sqlPopulationOutputs, pct, seed, limitRows)
		if err != nil {
			return nil, fmt.Errorf("population: outputs: %w", err)
		}
		for r.Next() {
			var addr string
			var cred *string
			var stake *int64
			if err := r.Scan(&addr, &cred, &stake); err != nil {
				r.Close()
				return nil, fmt.Errorf("population: outputs: %w", err)
			}
			rows++
			addrs.add(addr, 1)
			if cred != nil {
				creds.add(*cred, 1)
			}
			if stake != nil {
				stakeIDs[*stake]++
			}
		}
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("population: outputs: %w", err)
		}
		r.Close()
	case "address":
		r, err := db.QueryxContext(ctx, sqlPopulationOutputsByID, pct, seed, limitRows)
		if err != nil {
			return nil, fmt.Errorf("population: outputs: %w", err)
		}
		addrIDs := map[int64]int64{}
		var idOrder []int64
		for r.Next() {
			var addrID, stake *int64
			if err := r.Scan(&addrID, &stake); err != nil {
				r.Close()
				return nil, fmt.Errorf("population: outputs: %w", err)
			}
			rows++
			if addrID != nil {
				if addrIDs[*addrID] == 0 {
					idOrder = append(idOrder, *addrID)
				}
				addrIDs[*addrID]++
			}
			if stake != nil {
				stakeIDs[*stake]++
			}
		}
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("population: outputs: %w", err)
		}
		r.Close()
		var resolved []struct {
			ID          int64   `db:"id"`
			Address     string  `db:"address"`
			PaymentCred *string `db:"payment_cred"`
		}
		if err := db.SelectContext(ctx, &resolved, sqlPopulationAddressIDs, pq.Array(idOrder)); err != nil {
			return nil, fmt.Errorf("population: addresses: %w", err)
		}
		byID := make(map[int64]int, len(resolved))
		for i, a := range resolved {
			byID[a.ID] = i
		}
		for _, id := range idOrder {
			i, ok := byID[id]
			if !ok {
				continue
			}
			a := resolved[i]
			addrs.add(a.Address, addrIDs[id])
			if a.PaymentCred != nil {
				creds.add(*a.PaymentCred, addrIDs[id])
			}
		}
	default:
		return nil, fmt.Errorf("population: unknown tx_out layout %q", variant)
	}
	p.SampledOutputs = rows
	p.OutputShare = 1
	if sizes.TxOut > rows {
		p.OutputShare = float64(rows) / float64(sizes.TxOut)
	}

	stakes := newTally()
	if len(stakeIDs) > 0 {
		ids := make([]int64, 0, len(stakeIDs))
		for id := range stakeIDs {
			ids = append(ids, id)
		}
		slices.Sort(ids) // the map's order is random: keep the sample deterministic
		var resolved []stakeRow
		if err := db.SelectContext(ctx, &resolved, sqlPopulationStakeIDs, pq.Array(ids)); err != nil {
			return nil, fmt.Errorf("population: stake addresses: %w", err)
		}
		slices.SortFunc(resolved, func(a, b stakeRow) int { return cmp.Compare(a.ID, b.ID) })
		for _, s := range resolved {
			stakes.add(s.View, stakeIDs[s.ID])
		}
	}

	var hashes []string
	// A page sample reads about the share asked for: ask for half again
	// as many rows; the LIMIT only bounds a wrong estimate (it would cut
	// the table's newest pages), keep truncates at random.
	if err := db.SelectContext(ctx, &hashes, sqlPopulationTxs, samplePercent(int64(o.Max)*3/2, sizes.Tx), seed, 3*o.Max); err != nil {
		return nil, fmt.Errorf("population: transactions: %w", err)
	}

	r := rand.New(rand.NewPCG(uint64(o.Seed), 0x90b))
	var h1, h2, h3 int
	p.Addresses, h1 = addrs.keep(p.OutputShare, o, r)
	p.StakeKeys, h2 = stakes.keep(p.OutputShare, o, r)
	p.Credentials, h3 = creds.keep(p.OutputShare, o, r)
	p.Excluded = h1 + h2 + h3
	txs := newTally()
	for _, h := range hashes {
		txs.add(h, 1)
	}
	p.TxHashes, _ = txs.keep(1, populationOptions{Max: o.Max}, r)
	p.count()
	p.Seconds = time.Since(start).Seconds()
	return p, nil
}

type stakeRow struct {
	ID   int64  `db:"id"`
	View string `db:"view"`
}

func (p *population) count() {
	p.Counts.Addresses, p.Counts.StakeKeys = len(p.Addresses), len(p.StakeKeys)
	p.Counts.Credentials, p.Counts.TxHashes = len(p.Credentials), len(p.TxHashes)
}

// heavyOf names the manifest's identifiers that have scenarios of their
// own for their size (the whale, the Byron and asset-rich addresses, the
// wide address, the busiest stake keys and the manifest's credentials,
// which are the whale's and a busy script's): the population leaves them
// out even when the sample misses their size.
func heavyOf(m *chaingen.Manifest) map[string]bool {
	out := map[string]bool{}
	for _, s := range []string{m.Whale.Address, m.Whale.StakeAddress, m.ByronAddress.Address, m.AssetAddress.Address,
		m.BusiestStakeKey.StakeAddress, m.Accounts.Busiest, m.Credentials.Payment.Hex, m.Credentials.Script.Hex} {
		if s != "" {
			out[s] = true
		}
	}
	if m.WideAddress != nil {
		out[m.WideAddress.Address] = true
	}
	if m.WideStakeKey != nil {
		out[m.WideStakeKey.StakeAddress] = true
	}
	return out
}
