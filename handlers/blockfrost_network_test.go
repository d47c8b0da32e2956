package handlers

import (
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"testing"
	"time"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/internal/service/poolstats"
)

type bfNetwork struct {
	Supply struct {
		Max, Total, Circulating, Locked, Treasury, Reserves string
	} `json:"supply"`
	Stake struct {
		Live, Active string
	} `json:"stake"`
}

// TestBlockfrostNetwork: /network's figures as SQL of the test's own
// counts them: the pots of the newest epoch; circulating as Blockfrost
// defines it (the unspent outputs and the withdrawable rewards) at that
// epoch's first block, where the pots were taken; locked, every unspent
// output at a script address now; active, the epoch's stake distribution;
// live, the pools' live stakes summed, with and without the pool-stake
// refresher.
func TestBlockfrostNetwork(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		var got bfNetwork
		bfJSON(t, h, "/network", &got)

		spentBefore := `EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index AND i.tx_in_id < $1)`
		spent := `EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)`
		if c.mode == chaingen.ModeConsumed {
			spentBefore, spent = `COALESCE(o.consumed_by_tx_id < $1, false)`, `o.consumed_by_tx_id IS NOT NULL`
		}
		var pots struct {
			Epoch     int64  `db:"epoch_no"`
			Treasury  string `db:"treasury"`
			Reserves  string `db:"reserves"`
			FirstTx   int64  `db:"first_tx"`
			Locked    string `db:"locked"`
			Active    string `db:"active"`
			UTxO      string `db:"utxo"`
			Rewards   string `db:"rewards"`
			Withdrawn string `db:"withdrawn"`
		}
		if err := c.raw.Get(&pots, `SELECT p.epoch_no, p.treasury::text AS treasury, p.reserves::text AS reserves,
				(SELECT min(t.id) FROM tx t WHERE t.block_id >= p.block_id) AS first_tx,
				(SELECT sum(es.amount)::text FROM epoch_stake es WHERE es.epoch_no = p.epoch_no) AS active,
				(SELECT (SELECT COALESCE(sum(r.amount), 0) FROM reward r WHERE r.spendable_epoch <= p.epoch_no)
				      + (SELECT COALESCE(sum(r.amount), 0) FROM reward_rest r WHERE r.spendable_epoch <= p.epoch_no))::text AS rewards,
				'' AS utxo, '' AS withdrawn, '' AS locked
			FROM ada_pots p ORDER BY p.epoch_no DESC LIMIT 1`); err != nil {
			t.Fatal(err)
		}
		if err := c.raw.Get(&pots.UTxO, `SELECT sum(o.value)::text FROM tx_out o WHERE o.tx_id < $1 AND NOT `+spentBefore, pots.FirstTx); err != nil {
			t.Fatal(err)
		}
		if err := c.raw.Get(&pots.Withdrawn, `SELECT COALESCE(sum(w.amount), 0)::text FROM withdrawal w WHERE w.tx_id < $1`, pots.FirstTx); err != nil {
			t.Fatal(err)
		}
		if err := c.raw.Get(&pots.Locked, `SELECT sum(o.value)::text FROM tx_out o WHERE o.address_has_script AND NOT `+spent); err != nil {
			t.Fatal(err)
		}
		n := func(s string) *big.Int {
			v, ok := new(big.Int).SetString(s, 10)
			if !ok {
				t.Fatalf("%q is not a number", s)
			}
			return v
		}
		circulating := new(big.Int).Add(n(pots.UTxO), new(big.Int).Sub(n(pots.Rewards), n(pots.Withdrawn)))
		total := new(big.Int).Sub(n("45000000000000000"), n(pots.Reserves))
		want := fmt.Sprintln(total, circulating, pots.Locked, pots.Treasury, pots.Reserves, pots.Active)
		if pots.Epoch != int64(c.manifest.Tip.Epoch) || got.Supply.Max != "45000000000000000" || n(pots.Locked).Sign() <= 0 ||
			fmt.Sprintln(got.Supply.Total, got.Supply.Circulating, got.Supply.Locked, got.Supply.Treasury, got.Supply.Reserves, got.Stake.Active) != want {
			t.Fatalf("%s: network %+v\nwant total, circulating, locked, treasury, reserves, active: %s", c.mode, got, want)
		}
		// Live: every pool's live stake (/v1's on-demand pool answers).
		pools := sqlStrings(t, c.raw, `SELECT DISTINCT ph.view FROM pool_hash ph JOIN pool_update pu ON pu.hash_id = ph.id`)
		live := new(big.Int)
		for _, id := range pools {
			w, b := do(t, h, http.MethodGet, "/v1/pools/"+id, map[string]string{"Authorization": "Bearer " + mainnetKey}, "")
			var p struct {
				LiveStake string `json:"live_stake"`
			}
			raw, _ := json.Marshal(b.Data)
			if err := json.Unmarshal(raw, &p); err != nil || w.Code != 200 {
				t.Fatalf("%s: pool %s: %d %v", c.mode, id, w.Code, err)
			}
			live.Add(live, n(p.LiveStake))
		}
		if got.Stake.Live != live.String() || live.Sign() <= 0 {
			t.Fatalf("%s: live stake %s, the pools' sum %s", c.mode, got.Stake.Live, live)
		}
	}
}

// TestBlockfrostNetworkLiveFromRefresher: with the pool-stake refresher,
// /network's live stake is its total, the other figures the same.
func TestBlockfrostNetworkLiveFromRefresher(t *testing.T) {
	c := seededChains(t)[0]
	adminDB := testdb.Open(t, testdb.New(t, "sg_bf_network_admin"))
	if _, err := admin.Migrate(t.Context(), adminDB); err != nil {
		t.Fatal(err)
	}
	stats := poolstats.New(adminDB, map[string]*dbsync.DB{"mainnet": c.db}, poolstats.Options{})
	st, err := stats.Refresh(t.Context(), "mainnet")
	if err != nil {
		t.Fatal(err)
	}
	var want bfNetwork
	bfJSON(t, chainServer(t, c).Handler(), "/network", &want)
	refreshed := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": c.db}, Credentials: testCredentials,
		Redis: testRedis(t), Log: quietLog, PoolStats: stats}).Handler()
	var got bfNetwork
	bfJSON(t, refreshed, "/network", &got)
	if st.Pools == 0 || jsonOf(got) != jsonOf(want) {
		t.Fatalf("with the refresher (%d pools): %+v\nwithout: %+v", st.Pools, got, want)
	}
}

// TestBlockfrostErasAndGenesis: the eras begin where db-sync's epoch
// parameters change era (Byron's 21600 slots of 20 s before the first),
// each where the one before ends, the last past the tip's epoch; the
// genesis is mainnet's with db-sync's start.
func TestBlockfrostErasAndGenesis(t *testing.T) {
	type bound struct{ Time, Slot, Epoch int64 }
	type era struct {
		Start, End bound
		Parameters struct {
			EpochLength int64 `json:"epoch_length"`
			SlotLength  int64 `json:"slot_length"`
			SafeZone    int64 `json:"safe_zone"`
		}
	}
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		var eras []era
		bfJSON(t, h, "/network/eras", &eras)
		// The first epoch of each era: Shelley 2, Allegra 3, Mary 4,
		// Alonzo 5-6, Babbage 7-8, Conway 9 on (protocol major versions).
		var starts []int64
		if err := c.raw.Select(&starts, `SELECT min(epoch_no) FROM epoch_param GROUP BY CASE WHEN protocol_major <= 4 THEN protocol_major
			WHEN protocol_major <= 6 THEN 5 WHEN protocol_major <= 8 THEN 7 ELSE 9 END ORDER BY 1`); err != nil {
			t.Fatal(err)
		}
		var tipSlot int64
		if err := c.raw.Get(&tipSlot, `SELECT epoch_slot_no FROM block ORDER BY slot_no DESC NULLS LAST LIMIT 1`); err != nil {
			t.Fatal(err)
		}
		if len(eras) != len(starts)+1 || len(starts) != 6 {
			t.Fatalf("%s: %d eras, %d starts: %+v", c.mode, len(eras), len(starts), eras)
		}
		at := func(e int64) bound {
			if e <= starts[0] {
				return bound{e * 21600 * 20, e * 21600, e}
			}
			return bound{e * 432000, starts[0]*21600 + (e-starts[0])*432000, e}
		}
		end := int64(c.manifest.Tip.Epoch) + 1
		if tipSlot >= 432000-129600 {
			end++
		}
		for i, e := range eras {
			from, to := int64(0), end
			if i > 0 {
				from = starts[i-1]
			}
			if i < len(starts) {
				to = starts[i]
			}
			params := fmt.Sprint(e.Parameters.EpochLength, e.Parameters.SlotLength, e.Parameters.SafeZone)
			if e.Start != at(from) || e.End != at(to) || i == 0 && params != "21600 20 4320" || i > 0 && params != "432000 1 129600" {
				t.Fatalf("%s: era %d: %+v, want %v to %v", c.mode, i, e, at(from), at(to))
			}
		}

		var g map[string]any
		bfJSON(t, h, "/genesis", &g)
		var start time.Time
		if err := c.raw.Get(&start, `SELECT start_time FROM meta`); err != nil {
			t.Fatal(err)
		}
		want := map[string]any{"active_slots_coefficient": 0.05, "update_quorum": 5.0, "max_lovelace_supply": "45000000000000000",
			"network_magic": 764824073.0, "epoch_length": 432000.0, "system_start": float64(start.Unix()), "slots_per_kes_period": 129600.0,
			"slot_length": 1.0, "max_kes_evolutions": 62.0, "security_param": 2160.0}
		if jsonOf(g) != jsonOf(want) {
			t.Fatalf("%s: genesis %v, want %v", c.mode, g, want)
		}
	}
}
