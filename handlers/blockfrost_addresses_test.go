package handlers

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/btcutil/bech32"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
)

// bfAmount is one unit of a Blockfrost amount.
type bfAmount struct {
	Unit     string `json:"unit"`
	Quantity string `json:"quantity"`
}

// bfOK asks for path and decodes its 200 answer into v.
func bfOK(t *testing.T, h http.Handler, path string, v any) {
	t.Helper()
	r := bfGet(t, h, mainnetKey, path)
	if r.Code != 200 {
		t.Fatalf("%s: %d %s", path, r.Code, r.Body)
	}
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("%s: %v: %s", path, err, r.Body)
	}
}

// bfOwner is an {address} and the SQL condition on tx_out o that selects
// its outputs ($1 its parameter).
type bfOwner struct {
	name  string
	path  string // the {address} as asked
	where string
	arg   any
}

// bfOwners are the addresses and credentials the address routes are
// checked with: the whale, an asset holder, a Byron address, a script
// address and both kinds of payment credential.
func bfOwners(t *testing.T, m *chaingen.Manifest) []bfOwner {
	t.Helper()
	cred := func(hexCred string) []byte {
		b, err := hex.DecodeString(hexCred)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	addr := func(name, a string) bfOwner { return bfOwner{name, a, "o.address = $1", a} }
	return []bfOwner{
		addr("whale", m.Whale.Address),
		addr("assets", m.AssetAddress.Address),
		addr("byron", m.ByronAddress.Address),
		addr("script address", m.ScriptAddress.Address),
		addr("busy", m.BusySlot.Address),
		{"addr_vkh", m.Credentials.Payment.Bech32, "o.payment_cred = $1", cred(m.Credentials.Payment.Hex)},
		{"script1", m.Credentials.Script.Bech32, "o.payment_cred = $1", cred(m.Credentials.Script.Hex)},
	}
}

// unspentSQL is the test's own "o is unspent" for the chain's layout.
func unspentSQL(c *testChain) string {
	if c.mode == chaingen.ModeConsumed {
		return "o.consumed_by_tx_id IS NULL"
	}
	return "NOT EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)"
}

// spenderSQL is the id of the transaction that spent o (NULL: unspent).
func spenderSQL(c *testChain) string {
	if c.mode == chaingen.ModeConsumed {
		return "o.consumed_by_tx_id"
	}
	return "(SELECT i.tx_in_id FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)"
}

// sumSQL sums the outputs o selected by where (lovelace, then each asset
// by policy and name) as Blockfrost lists an amount.
func sumSQL(t *testing.T, c *testChain, where string, arg any) []bfAmount {
	t.Helper()
	var lovelace string
	if err := c.raw.Get(&lovelace, `SELECT COALESCE(sum(o.value), 0)::text FROM tx_out o WHERE `+where, arg); err != nil {
		t.Fatal(err)
	}
	var assets []bfAmount
	if err := c.raw.Select(&assets, `SELECT encode(ma.policy, 'hex') || encode(ma.name, 'hex') AS unit, sum(m.quantity)::text AS quantity
		FROM tx_out o JOIN ma_tx_out m ON m.tx_out_id = o.id JOIN multi_asset ma ON ma.id = m.ident
		WHERE `+where+` GROUP BY ma.policy, ma.name ORDER BY ma.policy, ma.name`, arg); err != nil {
		t.Fatal(err)
	}
	return append([]bfAmount{{"lovelace", lovelace}}, assets...)
}

func TestBlockfrostAddressMatchesSQL(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		for _, o := range bfOwners(t, c.manifest) {
			t.Run(string(c.mode)+"/"+o.name, func(t *testing.T) {
				var got struct {
					Address      string     `json:"address"`
					Amount       []bfAmount `json:"amount"`
					StakeAddress *string    `json:"stake_address"`
					Type         string     `json:"type"`
					Script       bool       `json:"script"`
				}
				bfOK(t, h, "/addresses/"+o.path, &got)
				want := sumSQL(t, c, o.where+" AND "+unspentSQL(c), o.arg)
				if !reflect.DeepEqual(got.Amount, want) || got.Address != o.path {
					t.Fatalf("amount %v, want %v (address %s)", got.Amount, want, got.Address)
				}
				var fact struct {
					Stake  *string `db:"stake"`
					Script bool    `db:"script"`
				}
				if err := c.raw.Get(&fact, `SELECT sa.view AS stake, o.address_has_script AS script
					FROM tx_out o LEFT JOIN stake_address sa ON sa.id = o.stake_address_id WHERE `+o.where+` ORDER BY o.id LIMIT 1`, o.arg); err != nil {
					t.Fatal(err)
				}
				if _, isCred := o.arg.([]byte); isCred {
					fact.Stake = nil // a credential's addresses may carry several
				}
				wantType := "shelley"
				if o.name == "byron" {
					wantType = "byron"
				}
				if derefString(got.StakeAddress) != derefString(fact.Stake) || got.Script != fact.Script || got.Type != wantType {
					t.Fatalf("stake %v script %v type %s, want %v %v %s", derefString(got.StakeAddress), got.Script, got.Type,
						derefString(fact.Stake), fact.Script, wantType)
				}

				var total struct {
					Address     string     `json:"address"`
					ReceivedSum []bfAmount `json:"received_sum"`
					SentSum     []bfAmount `json:"sent_sum"`
					TxCount     int64      `json:"tx_count"`
				}
				bfOK(t, h, "/addresses/"+o.path+"/total", &total)
				received := sumSQL(t, c, o.where, o.arg)
				sent := sumSQL(t, c, o.where+" AND "+spenderSQL(c)+" IS NOT NULL", o.arg)
				txs := historySQL(t, c, o)
				if !reflect.DeepEqual(total.ReceivedSum, received) || !reflect.DeepEqual(total.SentSum, sent) || total.TxCount != int64(len(txs)) {
					t.Fatalf("total %+v, want received %v sent %v tx_count %d", total, received, sent, len(txs))
				}
			})
		}
	}
}

// historySQL is the test's own history of an owner: every transaction
// paying to it or spending from it, once, in chain order.
func historySQL(t *testing.T, c *testChain, o bfOwner) []bfTx {
	t.Helper()
	var txs []bfTx
	err := c.raw.Select(&txs, `WITH ids AS (
			SELECT o.tx_id AS id FROM tx_out o WHERE `+o.where+`
			UNION SELECT `+spenderSQL(c)+` FROM tx_out o WHERE `+o.where+`)
		SELECT encode(t.hash, 'hex') AS tx_hash, t.block_index AS tx_index, COALESCE(b.block_no, 0) AS block_height,
			extract(epoch FROM b.time)::bigint AS block_time
		FROM ids JOIN tx t ON t.id = ids.id JOIN block b ON b.id = t.block_id ORDER BY t.id`, o.arg)
	if err != nil {
		t.Fatal(err)
	}
	return txs
}

// bfTx is one item of /addresses/{address}/transactions.
type bfTx struct {
	TxHash      string `json:"tx_hash" db:"tx_hash"`
	TxIndex     int    `json:"tx_index" db:"tx_index"`
	BlockHeight int64  `json:"block_height" db:"block_height"`
	BlockTime   int64  `json:"block_time" db:"block_time"`
}

// walkPages asks for every page of a list (query: its other parameters)
// until a short page, and returns the pages' items in order.
func walkPages[T any](t *testing.T, h http.Handler, path, query string, count int) []T {
	t.Helper()
	var all []T
	for page := 1; ; page++ {
		var items []T
		bfOK(t, h, fmt.Sprintf("%s?count=%d&page=%d%s", path, count, page, query), &items)
		if items == nil {
			t.Fatalf("%s page %d: not a list", path, page)
		}
		all = append(all, items...)
		if len(items) < count {
			return all
		}
		if page > 10000 {
			t.Fatalf("%s: no end", path)
		}
	}
}

func reversed[T any](s []T) []T {
	out := slices.Clone(s)
	slices.Reverse(out)
	return out
}

func TestBlockfrostAddressTransactionsMatchSQL(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		for _, o := range bfOwners(t, c.manifest) {
			if _, isCred := o.arg.([]byte); isCred {
				bfRefused(t, h, "/addresses/"+o.path+"/transactions", 400, "payment credential")
				bfRefused(t, h, "/addresses/"+o.path+"/txs", 400, "payment credential")
				continue
			}
			t.Run(string(c.mode)+"/"+o.name, func(t *testing.T) {
				want := historySQL(t, c, o)
				if len(want) == 0 {
					t.Fatal("no history to check")
				}
				for _, count := range []int{100, 7} {
					path := "/addresses/" + o.path + "/transactions"
					if got := walkPages[bfTx](t, h, path, "", count); !reflect.DeepEqual(got, want) {
						t.Fatalf("count %d asc: %d transactions, want %d\n%v\n%v", count, len(got), len(want), got, want)
					}
					if got := walkPages[bfTx](t, h, path, "&order=desc", count); !reflect.DeepEqual(got, reversed(want)) {
						t.Fatalf("count %d desc: %d transactions, want %d", count, len(got), len(want))
					}
					hashes := make([]string, len(want))
					for i, tx := range want {
						hashes[i] = tx.TxHash
					}
					if got := walkPages[string](t, h, "/addresses/"+o.path+"/txs", "", count); !reflect.DeepEqual(got, hashes) {
						t.Fatalf("txs count %d: %v, want %v", count, got, hashes)
					}
				}
				// A page past the end is empty.
				var past []bfTx
				bfOK(t, h, fmt.Sprintf("/addresses/%s/transactions?page=%d", o.path, len(want)/100+2), &past)
				if len(past) != 0 {
					t.Fatalf("page past the end: %v", past)
				}
				checkTxRanges(t, h, o, want)
			})
		}
	}
}

// checkTxRanges checks from/to against the test's own history: block
// numbers alone, with indexes, and edges that hold nothing.
func checkTxRanges(t *testing.T, h http.Handler, o bfOwner, all []bfTx) {
	t.Helper()
	lo, hi := all[len(all)/4], all[3*len(all)/4]
	pos := func(tx bfTx, index bool) string {
		if index {
			return fmt.Sprintf("%d:%d", tx.BlockHeight, tx.TxIndex)
		}
		return strconv.FormatInt(tx.BlockHeight, 10)
	}
	type bound struct {
		block int64
		index int
	}
	after := func(tx bfTx, b bound) bool {
		return tx.BlockHeight > b.block || tx.BlockHeight == b.block && tx.TxIndex >= b.index
	}
	for _, withIndex := range []bool{false, true} {
		from, to := bound{lo.BlockHeight, 0}, bound{hi.BlockHeight, 1 << 30}
		if withIndex {
			from.index, to.index = lo.TxIndex, hi.TxIndex
		}
		var want []bfTx
		for _, tx := range all {
			if after(tx, from) && !after(tx, bound{to.block, to.index + 1}) {
				want = append(want, tx)
			}
		}
		query := "&from=" + pos(lo, withIndex) + "&to=" + pos(hi, withIndex)
		path := "/addresses/" + o.path + "/transactions"
		if got := walkPages[bfTx](t, h, path, query, 5); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: %v, want %v", query, got, want)
		}
		if got := walkPages[bfTx](t, h, path, query+"&order=desc", 5); !reflect.DeepEqual(got, reversed(want)) {
			t.Fatalf("%s desc: %d, want %d", query, len(got), len(want))
		}
	}
	// Only from, only to, and a range past the tip.
	var got []bfTx
	bfOK(t, h, "/addresses/"+o.path+"/transactions?from="+pos(hi, true), &got)
	if len(got) == 0 || got[0] != hi {
		t.Fatalf("from %s: first %v, want %v", pos(hi, true), got, hi)
	}
	bfOK(t, h, "/addresses/"+o.path+"/transactions?order=desc&to="+pos(lo, true), &got)
	if len(got) == 0 || got[0] != lo {
		t.Fatalf("to %s desc: first %v, want %v", pos(lo, true), got, lo)
	}
	bfOK(t, h, "/addresses/"+o.path+"/transactions?from=2147483647", &got)
	if len(got) != 0 {
		t.Fatalf("from past the tip: %v", got)
	}
}

// unseenAddress is a valid mainnet enterprise address no output pays.
func unseenAddress(t *testing.T) string {
	t.Helper()
	raw := append([]byte{0x61}, make([]byte, 28)...)
	raw[28] = 7
	five, err := bech32.ConvertBits(raw, 8, 5, true)
	if err != nil {
		t.Fatal(err)
	}
	s, err := bech32.Encode("addr", five)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestBlockfrostAddressRefusals(t *testing.T) {
	c := seededChains(t)[0]
	h := chainServer(t, c).Handler()
	m := c.manifest
	for _, sub := range []string{"", "/extended", "/total", "/utxos", "/utxos/" + strings.ReplaceAll(m.Assets.Hosky.Unit, ".", ""), "/transactions", "/txs"} {
		for name, bad := range map[string]string{
			"garbage": "notanaddress", "stake address": m.StakeKeys[0].StakeAddress, "pool": m.Pools.Biggest.ID,
			"hex credential": m.Credentials.Payment.Hex, "testnet": "addr_test1vpfwv0ezc5g8a4mkku8hhy3y3vp92t7s3ul8g778g5yegsgalc6gc",
			"bad checksum": m.Whale.Address[:len(m.Whale.Address)-1] + flip(m.Whale.Address[len(m.Whale.Address)-1]),
		} {
			t.Run(sub+"/"+name, func(t *testing.T) { bfRefused(t, h, "/addresses/"+bad+sub, 400, "Invalid address") })
		}
		// Valid but never seen: Blockfrost's 404.
		bfRefused(t, h, "/addresses/"+unseenAddress(t)+sub, 404, "not been found")
	}
	for _, path := range []string{"/utxos", "/transactions", "/txs"} {
		base := "/addresses/" + m.Whale.Address + path
		bfRefused(t, h, base+"?count=0", 400, "Invalid count")
		bfRefused(t, h, base+"?count=101", 400, "Invalid count")
		bfRefused(t, h, base+"?page=0", 400, "Invalid page")
		bfRefused(t, h, base+"?page=21474837", 400, "Invalid page")
		bfRefused(t, h, base+"?order=up", 400, "Invalid order")
	}
	tx := "/addresses/" + m.Whale.Address + "/transactions"
	for _, bad := range []string{"x", "-1", "1:", ":1", "1:2:3", "2147483648", "1:2147483648", "1.5"} {
		bfRefused(t, h, tx+"?from="+bad, 400, "Invalid from")
		bfRefused(t, h, tx+"?to="+bad, 400, "Invalid to")
	}
	bfRefused(t, h, tx+"?from=10&to=9", 400, "from must not come after to")
	bfRefused(t, h, tx+"?from=10:5&to=10:4", 400, "from must not come after to")
	for _, bad := range []string{"zz", strings.Repeat("a", 55), strings.Repeat("a", 57), strings.Repeat("a", 56+65), strings.Repeat("g", 60)} {
		bfRefused(t, h, "/addresses/"+m.Whale.Address+"/utxos/"+bad, 400, "Invalid asset")
	}
}

func derefString(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}
