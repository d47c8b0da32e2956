package handlers

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

type bfEpoch struct {
	Epoch          int64   `json:"epoch" db:"epoch"`
	StartTime      int64   `json:"start_time" db:"-"`
	EndTime        int64   `json:"end_time" db:"-"`
	FirstBlockTime int64   `json:"first_block_time" db:"first_block_time"`
	LastBlockTime  int64   `json:"last_block_time" db:"last_block_time"`
	BlockCount     int64   `json:"block_count" db:"block_count"`
	TxCount        int64   `json:"tx_count" db:"tx_count"`
	Output         string  `json:"output" db:"output"`
	Fees           string  `json:"fees" db:"fees"`
	ActiveStake    *string `json:"active_stake" db:"active_stake"`
}

// sqlEpochs are every epoch's figures counted from the blocks and
// transactions themselves, with its stake distribution's total (NULL:
// none), and the network's start.
func sqlEpochs(t *testing.T, c *testChain) ([]bfEpoch, time.Time) {
	t.Helper()
	var es []bfEpoch
	if err := c.raw.Select(&es, `SELECT b.epoch_no AS epoch, count(DISTINCT b.id) AS block_count, count(t.id) AS tx_count,
			COALESCE(sum(t.out_sum), 0)::text AS output, COALESCE(sum(t.fee), 0)::text AS fees,
			extract(epoch FROM min(b.time))::bigint AS first_block_time, extract(epoch FROM max(b.time))::bigint AS last_block_time,
			(SELECT sum(es.amount)::text FROM epoch_stake es WHERE es.epoch_no = b.epoch_no) AS active_stake
		FROM block b LEFT JOIN tx t ON t.block_id = b.id WHERE b.epoch_no IS NOT NULL GROUP BY b.epoch_no ORDER BY b.epoch_no`); err != nil {
		t.Fatal(err)
	}
	var start time.Time
	if err := c.raw.Get(&start, `SELECT start_time FROM meta`); err != nil {
		t.Fatal(err)
	}
	for i := range es {
		es[i].StartTime = start.Unix() + es[i].Epoch*432000
		es[i].EndTime = es[i].StartTime + 432000
	}
	return es, start
}

// jsonOf is v as JSON, for comparing values holding pointers.
func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestBlockfrostEpochs: every epoch, the latest, and the lists after and
// before one walked page by page, as SQL of the test's own counts them;
// unknown and malformed epochs refused.
func TestBlockfrostEpochs(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		want, _ := sqlEpochs(t, c)
		tip := want[len(want)-1].Epoch
		if tip != int64(c.manifest.Tip.Epoch) || len(want) != int(tip)+1 {
			t.Fatalf("%s: %d epochs, tip %d", c.mode, len(want), tip)
		}
		for _, w := range want {
			var got bfEpoch
			bfJSON(t, h, fmt.Sprintf("/epochs/%d", w.Epoch), &got)
			if jsonOf(got) != jsonOf(w) {
				t.Fatalf("%s: epoch %d:\n%+v\nwant\n%+v", c.mode, w.Epoch, got, w)
			}
		}
		if want[2].ActiveStake != nil || want[tip].ActiveStake == nil {
			t.Fatalf("%s: the chain's stake distributions are not as expected", c.mode)
		}
		var latest bfEpoch
		bfJSON(t, h, "/epochs/latest", &latest)
		if jsonOf(latest) != jsonOf(want[tip]) {
			t.Fatalf("%s: latest %+v, want %+v", c.mode, latest, want[tip])
		}
		// Next of 0 is every later epoch; previous of the tip every
		// earlier one, page 1 the nearest, each page oldest first.
		next, _ := walk[bfEpoch](t, h, "/epochs/0/next", 3)
		if jsonOf(next) != jsonOf(want[1:]) {
			t.Fatalf("%s: next of 0: %+v", c.mode, next)
		}
		_, pages := walk[bfEpoch](t, h, fmt.Sprintf("/epochs/%d/previous", tip), 4)
		var back []bfEpoch
		for _, p := range pages {
			back = append(p, back...)
		}
		if jsonOf(back) != jsonOf(want[:tip]) {
			t.Fatalf("%s: previous of %d: %+v", c.mode, tip, back)
		}
		var none []bfEpoch
		bfJSON(t, h, fmt.Sprintf("/epochs/%d/next", tip), &none)
		bfJSON(t, h, "/epochs/0/previous", &none)
		if len(none) != 0 {
			t.Fatalf("%s: epochs after the tip or before 0: %v", c.mode, none)
		}
		for _, path := range []string{"/epochs/%d", "/epochs/%d/next", "/epochs/%d/previous", "/epochs/%d/stakes", "/epochs/%d/blocks", "/epochs/%d/parameters"} {
			bfRefused(t, h, fmt.Sprintf(path, tip+1), 404, "not been found")
			for _, bad := range []string{"-1", "x", "2147483648", "1e3"} {
				bfRefused(t, h, strings.Replace(path, "%d", bad, 1), 400, "number")
			}
		}
		bfRefused(t, h, "/epochs/1/next?count=101", 400, "count")
		bfRefused(t, h, "/epochs/1/previous?page=21474837", 400, "page")
	}
}

// TestBlockfrostEpochStakes: an epoch's whole stake distribution and one
// pool's part of it, every page, in db-sync's row order, as SQL lists
// them; a pool never registered is not found.
func TestBlockfrostEpochStakes(t *testing.T) {
	type stake struct {
		StakeAddress string `json:"stake_address" db:"stake_address"`
		PoolID       string `json:"pool_id" db:"pool_id"`
		Amount       string `json:"amount" db:"amount"`
	}
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		epoch := int64(c.manifest.Tip.Epoch)
		var want []stake
		if err := c.raw.Select(&want, `SELECT sa.view AS stake_address, ph.view AS pool_id, es.amount::text AS amount
			FROM epoch_stake es JOIN stake_address sa ON sa.id = es.addr_id JOIN pool_hash ph ON ph.id = es.pool_id
			WHERE es.epoch_no = $1 ORDER BY es.id`, epoch); err != nil || len(want) < 50 {
			t.Fatalf("%s: %d stakes %v", c.mode, len(want), err)
		}
		got, _ := walk[stake](t, h, fmt.Sprintf("/epochs/%d/stakes?order=desc", epoch), 17)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: epoch %d stakes: %d, want %d", c.mode, epoch, len(got), len(want))
		}
		pool := c.manifest.Pools.Biggest
		var mine []stake
		for _, s := range want {
			if s.PoolID == pool.ID {
				mine = append(mine, stake{StakeAddress: s.StakeAddress, Amount: s.Amount})
			}
		}
		for _, id := range []string{pool.ID, pool.Hash} {
			got, _ := walk[stake](t, h, fmt.Sprintf("/epochs/%d/stakes/%s", epoch, id), 9)
			if len(mine) < 10 || !slices.Equal(got, mine) {
				t.Fatalf("%s: pool %s stakes: %d, want %d", c.mode, id, len(got), len(mine))
			}
		}
		var empty []stake
		bfJSON(t, h, "/epochs/0/stakes", &empty)
		bfJSON(t, h, "/epochs/0/stakes/"+pool.ID, &empty)
		if len(empty) != 0 {
			t.Fatalf("%s: stakes of a Byron epoch: %v", c.mode, empty)
		}
		bfRefused(t, h, fmt.Sprintf("/epochs/%d/stakes/%s", epoch, strings.Repeat("ab", 28)), 404, "not been found")
		bfRefused(t, h, fmt.Sprintf("/epochs/%d/stakes/%d", epoch, 5), 400, "pool")
		bfRefused(t, h, fmt.Sprintf("/epochs/%d/stakes/%s", epoch+1, pool.ID), 404, "not been found")
		bfRefused(t, h, fmt.Sprintf("/epochs/%d/stakes?count=0", epoch), 400, "count")
	}
}

// TestBlockfrostEpochBlocks: an epoch's blocks (a Byron one, its boundary
// block first, and the busy one) and one pool's in the tip's epoch, every
// page in both orders, as block ids order them.
func TestBlockfrostEpochBlocks(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		for _, epoch := range []int64{0, 1, int64(c.manifest.Layout.BusyEpoch), int64(c.manifest.Tip.Epoch)} {
			want := sqlStrings(t, c.raw, `SELECT encode(hash,'hex') FROM block WHERE epoch_no = $1 ORDER BY id`, epoch)
			asc, _ := walk[string](t, h, fmt.Sprintf("/epochs/%d/blocks", epoch), 7)
			desc, _ := walk[string](t, h, fmt.Sprintf("/epochs/%d/blocks?order=desc", epoch), 10)
			slices.Reverse(desc)
			if len(want) < 10 || !slices.Equal(asc, want) || !slices.Equal(desc, want) {
				t.Fatalf("%s: epoch %d blocks: %d asc, %d desc, want %d", c.mode, epoch, len(asc), len(desc), len(want))
			}
		}
		var pool struct {
			Hash  string `db:"hash"`
			View  string `db:"view"`
			Epoch int64  `db:"epoch_no"`
		}
		if err := c.raw.Get(&pool, `SELECT encode(ph.hash_raw,'hex') AS hash, ph.view, b.epoch_no FROM block b
			JOIN slot_leader sl ON sl.id = b.slot_leader_id JOIN pool_hash ph ON ph.id = sl.pool_hash_id
			GROUP BY 1, 2, 3 ORDER BY count(*) DESC, 3 DESC LIMIT 1`); err != nil {
			t.Fatal(err)
		}
		want := sqlStrings(t, c.raw, `SELECT encode(b.hash,'hex') FROM block b JOIN slot_leader sl ON sl.id = b.slot_leader_id
			JOIN pool_hash ph ON ph.id = sl.pool_hash_id WHERE ph.view = $1 AND b.epoch_no = $2 ORDER BY b.id`, pool.View, pool.Epoch)
		asc, _ := walk[string](t, h, fmt.Sprintf("/epochs/%d/blocks/%s", pool.Epoch, pool.View), 3)
		desc, _ := walk[string](t, h, fmt.Sprintf("/epochs/%d/blocks/%s?order=desc", pool.Epoch, pool.Hash), 4)
		slices.Reverse(desc)
		if len(want) < 4 || !slices.Equal(asc, want) || !slices.Equal(desc, want) {
			t.Fatalf("%s: pool %s's blocks in epoch %d: %d asc, %d desc, want %d", c.mode, pool.View, pool.Epoch, len(asc), len(desc), len(want))
		}
		bfRefused(t, h, fmt.Sprintf("/epochs/%d/blocks/%s", pool.Epoch, strings.Repeat("cd", 28)), 404, "not been found")
		bfRefused(t, h, fmt.Sprintf("/epochs/%d/blocks/pool1xyz", pool.Epoch), 400, "pool")
		bfRefused(t, h, fmt.Sprintf("/epochs/%d/blocks?order=up", pool.Epoch), 400, "order")
		bfRefused(t, h, fmt.Sprintf("/epochs/%d/blocks/%s?count=101", pool.Epoch, pool.View), 400, "count")
	}
}

// TestBlockfrostEpochParameters: an epoch's parameters as db-sync's row
// holds them, cost models by name in the ledger's order (their raw arrays
// as stored); the latest epoch's; none for Byron or past the tip.
func TestBlockfrostEpochParameters(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		tip := int64(c.manifest.Tip.Epoch)
		for _, epoch := range []int64{2, tip - 2, tip} {
			var row struct {
				MinFeeA int64   `db:"min_fee_a"`
				Major   int64   `db:"protocol_major"`
				Costs   *string `db:"costs"`
			}
			if err := c.raw.Get(&row, `SELECT ep.min_fee_a, ep.protocol_major, cm.costs FROM epoch_param ep
				LEFT JOIN cost_model cm ON cm.id = ep.cost_model_id WHERE ep.epoch_no = $1`, epoch); err != nil {
				t.Fatal(err)
			}
			r := bfGet(t, h, mainnetKey, fmt.Sprintf("/epochs/%d/parameters", epoch))
			var got struct {
				Epoch         int64                                 `json:"epoch"`
				MinFeeA       int64                                 `json:"min_fee_a"`
				Major         int64                                 `json:"protocol_major_ver"`
				CostModels    map[string]map[string]json.RawMessage `json:"cost_models"`
				CostModelsRaw map[string][]json.RawMessage          `json:"cost_models_raw"`
			}
			if err := json.Unmarshal(r.Body, &got); err != nil || r.Code != 200 {
				t.Fatalf("%s: epoch %d parameters: %d %s", c.mode, epoch, r.Code, r.Body)
			}
			if got.Epoch != epoch || got.MinFeeA != row.MinFeeA || got.Major != row.Major {
				t.Fatalf("%s: epoch %d parameters %+v, want %+v", c.mode, epoch, got, row)
			}
			if row.Costs == nil {
				if got.CostModels != nil || got.CostModelsRaw != nil {
					t.Fatalf("%s: epoch %d: cost models without any", c.mode, epoch)
				}
				continue
			}
			var stored map[string][]json.RawMessage
			_ = json.Unmarshal([]byte(*row.Costs), &stored)
			if len(stored) == 0 || jsonOf(stored) != jsonOf(got.CostModelsRaw) {
				t.Fatalf("%s: epoch %d raw cost models differ", c.mode, epoch)
			}
			for lang, costs := range stored {
				named := got.CostModels[lang]
				if len(named) != len(costs) || string(named["addInteger-cpu-arguments-intercept"]) != string(costs[0]) {
					t.Fatalf("%s: epoch %d %s: %d named costs, want %d", c.mode, epoch, lang, len(named), len(costs))
				}
			}
			if v3, ok := got.CostModels["PlutusV3"]; ok && string(v3["ripemd_160-memory-arguments"]) != string(stored["PlutusV3"][296]) {
				t.Fatalf("%s: PlutusV3's last cost is not ripemd_160's", c.mode)
			}
			// The named costs keep the ledger's order in the body.
			if i, j := strings.Index(string(r.Body), `"verifyEd25519Signature-memory-arguments"`), strings.Index(string(r.Body), `"addInteger-cpu-arguments-intercept"`); i < j {
				t.Fatalf("%s: cost models not in the ledger's order", c.mode)
			}
		}
		latest := bfGet(t, h, mainnetKey, "/epochs/latest/parameters")
		byNumber := bfGet(t, h, mainnetKey, "/epochs/"+strconv.FormatInt(tip, 10)+"/parameters")
		if latest.Code != 200 || string(latest.Body) != string(byNumber.Body) {
			t.Fatalf("%s: latest parameters differ from epoch %d's", c.mode, tip)
		}
		bfRefused(t, h, "/epochs/0/parameters", 404, "not been found")
		bfRefused(t, h, fmt.Sprintf("/epochs/%d/parameters", tip+5), 404, "not been found")
	}
}
