package clientcheck_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"
)

// block is Blockfrost's block_content.
type block struct {
	Time          int64
	Height        *int64
	Hash          string
	Slot          *uint64
	Epoch         *int
	EpochSlot     *uint64 `json:"epoch_slot"`
	SlotLeader    string  `json:"slot_leader"`
	Size          int64
	TxCount       int64   `json:"tx_count"`
	Output        *string `json:"output"`
	Fees          *string `json:"fees"`
	PreviousBlock *string `json:"previous_block"`
	NextBlock     *string `json:"next_block"`
	Confirmations int64
}

func checkBlock(t *testing.T, s *stack, call string, got block, hash string) {
	t.Helper()
	var want struct {
		Time          time.Time
		Height        *int64
		Slot          *uint64
		Epoch         *int
		EpochSlot     *uint64 `db:"epoch_slot"`
		Leader        *string
		Size          int64
		Txs           int64
		Output, Fees  *string
		Prev, Next    *string
		Confirmations int64
	}
	s.sql(t, &want, `SELECT b.time, b.block_no AS height, b.slot_no AS slot, b.epoch_no AS epoch, b.epoch_slot_no AS epoch_slot,
		ph.view AS leader, b.size, b.tx_count AS txs,
		(SELECT sum(out_sum)::text FROM tx WHERE tx.block_id = b.id) AS output,
		(SELECT sum(fee)::text FROM tx WHERE tx.block_id = b.id) AS fees,
		(SELECT encode(p.hash, 'hex') FROM block p WHERE p.id = b.previous_id) AS prev,
		(SELECT encode(n.hash, 'hex') FROM block n WHERE n.previous_id = b.id) AS next,
		(SELECT max(block_no) FROM block) - b.block_no AS confirmations
		FROM block b JOIN slot_leader sl ON sl.id = b.slot_leader_id LEFT JOIN pool_hash ph ON ph.id = sl.pool_hash_id
		WHERE b.hash = decode($1, 'hex')`, hash)
	eq(t, call+" hash", got.Hash, hash)
	eq(t, call+" time", got.Time, want.Time.Unix())
	eq(t, call+" height", fmt.Sprint(ptr(got.Height)), fmt.Sprint(ptr(want.Height)))
	eq(t, call+" slot", fmt.Sprint(ptr(got.Slot)), fmt.Sprint(ptr(want.Slot)))
	eq(t, call+" epoch", fmt.Sprint(ptr(got.Epoch)), fmt.Sprint(ptr(want.Epoch)))
	eq(t, call+" epoch_slot", fmt.Sprint(ptr(got.EpochSlot)), fmt.Sprint(ptr(want.EpochSlot)))
	if want.Leader != nil {
		eq(t, call+" slot_leader", got.SlotLeader, *want.Leader)
	}
	eq(t, call+" size", got.Size, want.Size)
	eq(t, call+" tx_count", got.TxCount, want.Txs)
	eq(t, call+" output", deref(got.Output), deref(want.Output))
	eq(t, call+" fees", deref(got.Fees), deref(want.Fees))
	eq(t, call+" previous_block", deref(got.PreviousBlock), deref(want.Prev))
	eq(t, call+" next_block", deref(got.NextBlock), deref(want.Next))
	eq(t, call+" confirmations", got.Confirmations, want.Confirmations)
}

func ptr[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

func checkBlocks(t *testing.T, s *stack, r *results, in bfInput) {
	var tip string
	s.sql(t, &tip, `SELECT encode(hash, 'hex') FROM block ORDER BY block_no DESC NULLS LAST LIMIT 1`)
	var b block
	if r.get("blocksLatest", "GET /blocks/latest", &b) {
		checkBlock(t, s, "blocksLatest", b, tip)
	}
	if r.get("blocks|"+in.Block, "GET /blocks/{hash_or_number}", &b) {
		checkBlock(t, s, "blocks by hash", b, in.Block)
	}
	if r.get(fmt.Sprint("blocks|", in.BlockHeight), "GET /blocks/{hash_or_number}", &b) {
		checkBlock(t, s, "blocks by height", b, in.Block)
	}
	var bySlot, byEpochSlot string
	s.sql(t, &bySlot, `SELECT encode(hash, 'hex') FROM block WHERE slot_no = $1`, in.Slot)
	s.sql(t, &byEpochSlot, `SELECT encode(hash, 'hex') FROM block WHERE epoch_no = $1 AND epoch_slot_no = $2`, in.SlotEpoch, in.EpochSlot)
	if r.get(fmt.Sprint("blocksBySlot|", in.Slot), "GET /blocks/slot/{slot_number}", &b) {
		checkBlock(t, s, "blocksBySlot", b, bySlot)
	}
	if r.get(fmt.Sprintf("blocksByEpochAndSlot|%d|%d", in.SlotEpoch, in.EpochSlot), "GET /blocks/epoch/{epoch_number}/slot/{slot_number}", &b) {
		checkBlock(t, s, "blocksByEpochAndSlot", b, byEpochSlot)
	}
	var list []block
	var next, prev []string
	s.sqlList(t, &next, `SELECT encode(hash, 'hex') FROM block WHERE block_no > $1 ORDER BY block_no LIMIT 100`, in.BlockHeight)
	s.sqlList(t, &prev, `SELECT encode(hash, 'hex') FROM (SELECT hash, block_no FROM block WHERE block_no < $1
		ORDER BY block_no DESC LIMIT 100) p ORDER BY block_no`, in.BlockHeight)
	for call, want := range map[string][]string{"blocksNext": next, "blocksPrevious": prev} {
		if r.get(fmt.Sprintf("%s|%d", call, in.BlockHeight), "GET /blocks/{hash_or_number}/"+map[string]string{"blocksNext": "next", "blocksPrevious": "previous"}[call], &list) {
			var got []string
			for i, x := range list {
				got = append(got, x.Hash)
				if i == 0 || i == len(list)-1 {
					checkBlock(t, s, fmt.Sprintf("%s [%d]", call, i), x, x.Hash)
				}
			}
			sameList(t, call, got, want)
		}
	}

	txsOf := func(block string) []string {
		var l []string
		s.sqlList(t, &l, `SELECT encode(tx.hash, 'hex') FROM tx JOIN block b ON b.id = tx.block_id
			WHERE b.hash = decode($1, 'hex') ORDER BY tx.block_index`, block)
		return l
	}
	busy, tipTxs := txsOf(in.Block), txsOf(tip)
	if len(busy) <= 200 {
		t.Fatalf("block %s holds %d transactions: the walk needs several pages", in.Block, len(busy))
	}
	var hashes []string
	if r.get("blocksLatestTxs", "GET /blocks/latest/txs", &hashes) {
		sameList(t, "blocksLatestTxs", hashes, tipTxs)
	}
	if r.get("blocksLatestTxsAll", "GET /blocks/latest/txs", &hashes) {
		sameList(t, "blocksLatestTxsAll", hashes, tipTxs)
	}
	if r.get("blocksTxs|"+in.Block, "GET /blocks/{hash_or_number}/txs", &hashes) {
		sameList(t, "blocksTxs", hashes, busy[:100])
	}
	if r.get("blocksTxsAll|"+in.Block, "GET /blocks/{hash_or_number}/txs", &hashes) {
		sameList(t, "blocksTxsAll", hashes, busy)
	}
	if r.get("blocksTxsAll|"+in.Block+"|order=desc", "GET /blocks/{hash_or_number}/txs", &hashes) {
		sameList(t, "blocksTxsAll desc", hashes, reversed(busy))
	}
	cborOf := func(block string) []string {
		var l []string
		s.sqlList(t, &l, `SELECT encode(tx.hash, 'hex') || ' ' || encode(c.bytes, 'hex') FROM tx JOIN block b ON b.id = tx.block_id
			JOIN tx_cbor c ON c.tx_id = tx.id WHERE b.hash = decode($1, 'hex') ORDER BY tx.block_index`, block)
		return l
	}
	var pairs []struct {
		TxHash string `json:"tx_hash"`
		CBOR   string `json:"cbor"`
	}
	flat := func() []string {
		var out []string
		for _, p := range pairs {
			out = append(out, p.TxHash+" "+p.CBOR)
		}
		return out
	}
	if want := cborOf(in.CborBlock); len(want) == 0 {
		t.Errorf("block %s: no transaction CBOR", in.CborBlock)
	}
	if r.get("blocksLatestTxsCbor", "GET /blocks/latest/txs/cbor", &pairs) {
		sameList(t, "blocksLatestTxsCbor", flat(), cborOf(tip))
	}
	for _, call := range []string{"blocksTxsCbor", "blocksTxsCborAll"} {
		if r.get(call+"|"+in.CborBlock, "GET /blocks/{hash_or_number}/txs/cbor", &pairs) {
			sameList(t, call, flat(), cborOf(in.CborBlock))
		}
	}
	checkBlockAddresses(t, s, r, in.Block)
}

// checkBlockAddresses: every address a block's transactions pay or spend
// from, each with those transactions.
func checkBlockAddresses(t *testing.T, s *stack, r *results, hash string) {
	var rows []struct {
		Address string
		Txs     string
	}
	s.sqlList(t, &rows, `WITH txs AS (SELECT tx.id, tx.hash FROM tx JOIN block b ON b.id = tx.block_id WHERE b.hash = decode($1, 'hex')),
		touched AS (SELECT o.address, txs.hash FROM txs JOIN tx_out o ON o.tx_id = txs.id
			UNION SELECT o.address, txs.hash FROM txs JOIN tx_in i ON i.tx_in_id = txs.id
			JOIN tx_out o ON o.tx_id = i.tx_out_id AND o.index = i.tx_out_index)
		SELECT address, string_agg(encode(hash, 'hex'), ' ' ORDER BY hash) AS txs FROM touched GROUP BY address ORDER BY address`, hash)
	var want []string
	for _, x := range rows {
		want = append(want, x.Address+": "+x.Txs)
	}
	sort.Strings(want)
	if len(want) <= 100 {
		t.Fatalf("block %s touches %d addresses: the walk needs several pages", hash, len(want))
	}
	var got []struct {
		Address      string
		Transactions []struct {
			TxHash string `json:"tx_hash"`
		}
	}
	flat := func() []string {
		var out []string
		for _, a := range got {
			var h []string
			for _, x := range a.Transactions {
				h = append(h, x.TxHash)
			}
			sort.Strings(h)
			out = append(out, a.Address+": "+strings.Join(h, " "))
		}
		sort.Strings(out)
		return out
	}
	if r.get("blocksAddresses|"+hash, "GET /blocks/{hash_or_number}/addresses", &got) && len(got) != 100 {
		t.Errorf("blocksAddresses: a first page of %d addresses, want 100", len(got))
	}
	if r.get("blocksAddressesAll|"+hash, "GET /blocks/{hash_or_number}/addresses", &got) {
		sameList(t, "blocksAddressesAll", flat(), want)
	}
}
