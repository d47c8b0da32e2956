package clientcheck_test

import (
	"fmt"
	"sort"
	"testing"
	"time"
)

// checkChain compares blockfrost-js's network, genesis, epoch and block
// answers with the test's SQL.
func checkChain(t *testing.T, s *stack, r *results, in bfInput) {
	checkNetwork(t, s, r)
	checkEpochs(t, s, r, in)
	checkBlocks(t, s, r, in)
}

func checkNetwork(t *testing.T, s *stack, r *results) {
	var net struct {
		Supply struct{ Max, Total, Circulating, Locked, Treasury, Reserves string }
		Stake  struct{ Live, Active string }
	}
	if r.get("network", "GET /network", &net) {
		// Circulating as the dialect defines it (DECISIONS): the ledger's
		// UTxO and reward-account pots at the newest epoch's start.
		var want struct {
			Total, Treasury, Reserves, Locked, Active, Circulating string
		}
		s.sql(t, &want, `WITH e AS (SELECT max(epoch_no) AS no FROM block)
			SELECT (45000000000000000 - p.reserves)::text AS total, p.treasury::text AS treasury, p.reserves::text AS reserves,
			  (SELECT COALESCE(sum(o.value), 0) FROM tx_out o WHERE o.address_has_script AND NOT EXISTS
			    (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index))::text AS locked,
			  (SELECT COALESCE(sum(amount), 0) FROM epoch_stake WHERE epoch_no = e.no)::text AS active,
			  (p.utxo + p.rewards)::text AS circulating
			FROM e, ada_pots p WHERE p.epoch_no = (SELECT max(epoch_no) FROM ada_pots)`)
		eq(t, "network supply.max", net.Supply.Max, "45000000000000000")
		eq(t, "network supply.total", net.Supply.Total, want.Total)
		eq(t, "network supply.treasury", net.Supply.Treasury, want.Treasury)
		eq(t, "network supply.reserves", net.Supply.Reserves, want.Reserves)
		eq(t, "network supply.locked", net.Supply.Locked, want.Locked)
		eq(t, "network supply.circulating", net.Supply.Circulating, want.Circulating)
		eq(t, "network stake.active", net.Stake.Active, want.Active)
	}
	var eras []struct {
		Start struct {
			Time  int64
			Slot  uint64
			Epoch int
		}
		End *struct {
			Time  int64
			Slot  uint64
			Epoch int
		}
	}
	if r.get("networkEras", "GET /network/eras", &eras) {
		// Contiguous from the chain's first slot; the current one ends at
		// the horizon the ledger can foresee (after the current epoch).
		var current int
		s.sql(t, &current, `SELECT max(epoch_no) FROM block`)
		if len(eras) == 0 || eras[0].Start.Slot != 0 || eras[len(eras)-1].End == nil || eras[len(eras)-1].End.Epoch <= current {
			t.Errorf("networkEras: %s", mustJSON(eras))
		}
		for i := 1; i < len(eras); i++ {
			if prev := eras[i-1].End; prev == nil || prev.Slot != eras[i].Start.Slot || prev.Epoch != eras[i].Start.Epoch {
				t.Errorf("networkEras: era %d does not start where era %d ends: %s", i, i-1, mustJSON(eras))
			}
		}
		var firstOfLast int
		s.sql(t, &firstOfLast, `SELECT min(epoch_no) FROM block WHERE proto_major = (SELECT max(proto_major) FROM block)`)
		if len(eras) > 0 && eras[len(eras)-1].Start.Epoch > firstOfLast {
			t.Errorf("networkEras: the current era starts at epoch %d, its protocol's first block is in epoch %d",
				eras[len(eras)-1].Start.Epoch, firstOfLast)
		}
	}
	var g struct {
		NetworkMagic      int64   `json:"network_magic"`
		EpochLength       int64   `json:"epoch_length"`
		SystemStart       int64   `json:"system_start"`
		SecurityParam     int64   `json:"security_param"`
		ActiveSlotsCoeff  float64 `json:"active_slots_coefficient"`
		MaxLovelaceSupply string  `json:"max_lovelace_supply"`
	}
	if r.get("genesis", "GET /genesis", &g) {
		eq(t, "genesis network_magic", g.NetworkMagic, 764824073)
		eq(t, "genesis epoch_length", g.EpochLength, 432000)
		eq(t, "genesis security_param", g.SecurityParam, 2160)
		eq(t, "genesis max_lovelace_supply", g.MaxLovelaceSupply, "45000000000000000")
		eq(t, "genesis system_start", g.SystemStart, s.m.SystemStart.Unix())
	}
}

// epoch is Blockfrost's epoch_content.
type epoch struct {
	Epoch          int
	StartTime      int64   `json:"start_time"`
	EndTime        int64   `json:"end_time"`
	FirstBlockTime int64   `json:"first_block_time"`
	LastBlockTime  int64   `json:"last_block_time"`
	BlockCount     int64   `json:"block_count"`
	TxCount        int64   `json:"tx_count"`
	Output         string  `json:"output"`
	Fees           string  `json:"fees"`
	ActiveStake    *string `json:"active_stake"`
}

func checkEpoch(t *testing.T, s *stack, call string, got epoch, no int) {
	t.Helper()
	var want struct {
		Blocks, Txs   int64
		First, Last   time.Time
		Fees, Output  string
		Active        *string
		HasStakeEpoch bool `db:"has_stake"`
	}
	s.sql(t, &want, `SELECT count(*) AS blocks, COALESCE(sum(tx_count), 0) AS txs, min(time) AS first, max(time) AS last,
		(SELECT COALESCE(sum(fee), 0)::text FROM tx JOIN block x ON x.id = tx.block_id WHERE x.epoch_no = $1) AS fees,
		(SELECT COALESCE(sum(out_sum), 0)::text FROM tx JOIN block x ON x.id = tx.block_id WHERE x.epoch_no = $1) AS output,
		(SELECT sum(amount)::text FROM epoch_stake WHERE epoch_no = $1) AS active,
		EXISTS (SELECT 1 FROM epoch_stake WHERE epoch_no = $1) AS has_stake
		FROM block WHERE epoch_no = $1`, no)
	start := s.m.SystemStart.Unix() + int64(no)*432000 // Byron's 21600 slots of 20 s last as long
	eq(t, call+" epoch", got.Epoch, no)
	eq(t, call+" start_time", got.StartTime, start)
	eq(t, call+" end_time", got.EndTime, start+432000)
	eq(t, call+" first_block_time", got.FirstBlockTime, want.First.Unix())
	eq(t, call+" last_block_time", got.LastBlockTime, want.Last.Unix())
	eq(t, call+" block_count", got.BlockCount, want.Blocks)
	eq(t, call+" tx_count", got.TxCount, want.Txs)
	eq(t, call+" fees", got.Fees, want.Fees)
	eq(t, call+" output", got.Output, want.Output)
	eq(t, call+" active_stake", fmt.Sprint(deref(got.ActiveStake)), fmt.Sprint(deref(want.Active)))
}

func deref(p *string) string {
	if p == nil {
		return "null"
	}
	return *p
}

func checkEpochs(t *testing.T, s *stack, r *results, in bfInput) {
	e := in.Epoch
	var current int
	s.sql(t, &current, `SELECT max(epoch_no) FROM block`)
	var got epoch
	if r.get("epochsLatest", "GET /epochs/latest", &got) {
		checkEpoch(t, s, "epochsLatest", got, current)
	}
	if r.get(fmt.Sprintf("epochs|%d", e), "GET /epochs/{number}", &got) {
		checkEpoch(t, s, "epochs", got, e)
	}
	var list []epoch
	if r.get(fmt.Sprintf("epochsNext|%d", e), "GET /epochs/{number}/next", &list) {
		var nos []int
		for _, x := range list {
			nos = append(nos, x.Epoch)
			checkEpoch(t, s, fmt.Sprintf("epochsNext|%d [%d]", e, x.Epoch), x, x.Epoch)
		}
		sameList(t, "epochsNext epochs", nos, seq(e+1, current))
	}
	if r.get(fmt.Sprintf("epochsPrevious|%d", e), "GET /epochs/{number}/previous", &list) {
		var nos []int
		for _, x := range list {
			nos = append(nos, x.Epoch)
		}
		sameList(t, "epochsPrevious epochs", nos, seq(0, e-1))
	}

	type stake struct {
		StakeAddress string `json:"stake_address" db:"stake_address"`
		PoolID       string `json:"pool_id" db:"pool_id"`
		Amount       string `json:"amount" db:"amount"`
	}
	var all []stake
	s.sqlList(t, &all, `SELECT sa.view AS stake_address, ph.view AS pool_id, es.amount::text AS amount FROM epoch_stake es
		JOIN stake_address sa ON sa.id = es.addr_id JOIN pool_hash ph ON ph.id = es.pool_id WHERE es.epoch_no = $1`, e)
	key := func(l []stake) []string {
		var out []string
		for _, x := range l {
			out = append(out, x.StakeAddress+" "+x.PoolID+" "+x.Amount)
		}
		sort.Strings(out)
		return out
	}
	var ofPool []stake
	for _, x := range all {
		if x.PoolID == in.Pool {
			ofPool = append(ofPool, x)
		}
	}
	if len(all) <= 100 || len(ofPool) == 0 {
		t.Fatalf("epoch %d: %d stakes (%d of %s): the walk needs more than a page, and the pool some", e, len(all), len(ofPool), in.Pool)
	}
	var page []stake
	if r.get(fmt.Sprintf("epochsStakes|%d", e), "GET /epochs/{number}/stakes", &page) && len(page) != 100 {
		t.Errorf("epochsStakes: a first page of %d, want 100 of %d", len(page), len(all))
	}
	if r.get(fmt.Sprintf("epochsStakesAll|%d", e), "GET /epochs/{number}/stakes", &page) {
		sameList(t, "epochsStakesAll", key(page), key(all))
	}
	type poolStake struct {
		StakeAddress string `json:"stake_address"`
		Amount       string
	}
	var pp []poolStake
	for _, call := range []string{"epochsStakesByPoolId", "epochsStakesByPoolIdAll"} {
		if r.get(fmt.Sprintf("%s|%d|%s", call, e, in.Pool), "GET /epochs/{number}/stakes/{pool_id}", &pp) {
			var got []stake
			for _, x := range pp {
				got = append(got, stake{x.StakeAddress, in.Pool, x.Amount})
			}
			sameList(t, call, key(got), key(ofPool))
		}
	}

	var blocks, poolBlocks []string
	s.sqlList(t, &blocks, `SELECT encode(hash, 'hex') FROM block WHERE epoch_no = $1 ORDER BY block_no`, e)
	s.sqlList(t, &poolBlocks, `SELECT encode(b.hash, 'hex') FROM block b JOIN slot_leader sl ON sl.id = b.slot_leader_id
		JOIN pool_hash ph ON ph.id = sl.pool_hash_id WHERE b.epoch_no = $1 AND ph.view = $2 ORDER BY b.block_no`, e, in.Pool)
	var hashes []string
	if r.get(fmt.Sprintf("epochsBlocks|%d", e), "GET /epochs/{number}/blocks", &hashes) {
		sameList(t, "epochsBlocks", hashes, blocks[:min(100, len(blocks))])
	}
	if r.get(fmt.Sprintf("epochsBlocksAll|%d", e), "GET /epochs/{number}/blocks", &hashes) {
		sameList(t, "epochsBlocksAll", hashes, blocks)
	}
	if r.get(fmt.Sprintf("epochsBlocksAll|%d|order=desc", e), "GET /epochs/{number}/blocks", &hashes) {
		sameList(t, "epochsBlocksAll desc", hashes, reversed(blocks))
	}
	for _, call := range []string{"epochsBlocksByPoolId", "epochsBlocksByPoolIdAll"} {
		if r.get(fmt.Sprintf("%s|%d|%s", call, e, in.Pool), "GET /epochs/{number}/blocks/{pool_id}", &hashes) {
			sameList(t, call, hashes, poolBlocks)
		}
	}

	checkParameters(t, s, r, fmt.Sprintf("epochsParameters|%d", e), "GET /epochs/{number}/parameters", e)
	checkParameters(t, s, r, "epochsLatestParameters", "GET /epochs/latest/parameters", current)
}

func seq(from, to int) []int {
	var out []int
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}

// checkParameters compares an epoch's parameters with its epoch_param row,
// and checks what Lucid needs of them: the Conway deposits and every
// Plutus version's cost model as whole integers.
func checkParameters(t *testing.T, s *stack, r *results, call, route string, e int) {
	var p struct {
		Epoch            int
		MinFeeA          int64              `json:"min_fee_a"`
		MinFeeB          int64              `json:"min_fee_b"`
		MaxTxSize        int64              `json:"max_tx_size"`
		KeyDeposit       string             `json:"key_deposit"`
		PoolDeposit      string             `json:"pool_deposit"`
		ProtocolMajor    int                `json:"protocol_major_ver"`
		CoinsPerUTxOSize *string            `json:"coins_per_utxo_size"`
		DRepDeposit      *string            `json:"drep_deposit"`
		GovActionDeposit *string            `json:"gov_action_deposit"`
		CostModelsRaw    map[string][]any   `json:"cost_models_raw"`
		CostModels       map[string]any     `json:"cost_models"`
		Extra            map[string]float64 `json:"-"`
	}
	if !r.get(call, route, &p) {
		return
	}
	var want struct {
		MinFeeA, MinFeeB, MaxTxSize int64
		KeyDeposit, PoolDeposit     string
		ProtocolMajor               int
		CoinsPerUTxOSize            *string
		DRepDeposit                 *string
		GovActionDeposit            *string
	}
	s.sql(t, &want, `SELECT min_fee_a AS minfeea, min_fee_b AS minfeeb, max_tx_size AS maxtxsize, key_deposit::text AS keydeposit,
		pool_deposit::text AS pooldeposit, protocol_major AS protocolmajor, coins_per_utxo_size::text AS coinsperutxosize,
		drep_deposit::text AS drepdeposit, gov_action_deposit::text AS govactiondeposit FROM epoch_param WHERE epoch_no = $1`, e)
	eq(t, call+" epoch", p.Epoch, e)
	eq(t, call+" min_fee_a", p.MinFeeA, want.MinFeeA)
	eq(t, call+" min_fee_b", p.MinFeeB, want.MinFeeB)
	eq(t, call+" max_tx_size", p.MaxTxSize, want.MaxTxSize)
	eq(t, call+" key_deposit", p.KeyDeposit, want.KeyDeposit)
	eq(t, call+" pool_deposit", p.PoolDeposit, want.PoolDeposit)
	eq(t, call+" protocol_major_ver", p.ProtocolMajor, want.ProtocolMajor)
	eq(t, call+" coins_per_utxo_size", deref(p.CoinsPerUTxOSize), deref(want.CoinsPerUTxOSize))
	eq(t, call+" drep_deposit", deref(p.DRepDeposit), deref(want.DRepDeposit))
	eq(t, call+" gov_action_deposit", deref(p.GovActionDeposit), deref(want.GovActionDeposit))
	if want.ProtocolMajor < 9 {
		return
	}
	// Conway: Lucid's BigInt() of each deposit, and CML's cost models.
	if p.DRepDeposit == nil || p.GovActionDeposit == nil {
		t.Errorf("%s: drep_deposit %v, gov_action_deposit %v: Lucid cannot start on null", call, p.DRepDeposit, p.GovActionDeposit)
	}
	for _, v := range []string{"PlutusV1", "PlutusV2", "PlutusV3"} {
		costs := p.CostModelsRaw[v]
		if len(costs) == 0 {
			t.Errorf("%s: cost_models_raw has no %s", call, v)
		}
		for i, c := range costs {
			if f, ok := c.(float64); !ok || f != float64(int64(f)) {
				t.Errorf("%s: cost_models_raw.%s[%d] = %v, not an integer", call, v, i, c)
				break
			}
		}
	}
}
