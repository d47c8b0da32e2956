package handlers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/syncgate/syncgate/internal/cardano"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/syncgate/syncgate/dbsync"
)

// The reference encodings below are the spec's objects built the plain way,
// structs and maps of *big.Int through encoding/json (what the append
// encoders replaced); the append encoders must write the same bytes.

// referenceValue is the value object (OpenAPI schema Value) as maps.
func referenceValue(v dbsync.Value, grouped bool) any {
	lovelace := v.Lovelace
	if lovelace == nil {
		lovelace = new(big.Int)
	}
	add := func(prev, q *big.Int) *big.Int {
		if prev == nil {
			return q
		}
		return new(big.Int).Add(prev, q)
	}
	if grouped {
		m := map[string]map[string]*big.Int{}
		for _, a := range v.Assets {
			if m[a.Policy] == nil {
				m[a.Policy] = map[string]*big.Int{}
			}
			m[a.Policy][a.Name] = add(m[a.Policy][a.Name], a.Quantity)
		}
		return struct {
			Lovelace *big.Int                       `json:"lovelace"`
			Assets   map[string]map[string]*big.Int `json:"assets"`
		}{lovelace, m}
	}
	m := map[string]*big.Int{}
	for _, a := range v.Assets {
		m[a.Policy+"."+a.Name] = add(m[a.Policy+"."+a.Name], a.Quantity)
	}
	return struct {
		Lovelace *big.Int            `json:"lovelace"`
		Assets   map[string]*big.Int `json:"assets"`
	}{lovelace, m}
}

func encodeNoHTML(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestAppendValueMatchesMapEncoding(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	policies := []string{
		"a0028f350aaabe0545fdcb56b039bfb08e4bb4d8c4d7c3c7d481c235",
		"a0028f350aaabe0545fdcb56b039bfb08e4bb4d8c4d7c3c7d481c236",
		"0029cb7c88c7567b63d1a512c0ed626aa169688ec980730c0473b913",
		"f0ff48bbb7bbe9d59a40f1ce90e9e9d0ff5002ec48f232b49ca0fb9a",
	}
	// Never from db-sync (its policies are 28 bytes of hex), but the
	// encoder must not depend on it: prefixes of one another, and
	// characters sorting below '.'.
	oddPolicies := []string{"ab", "abc", "ab!", "a", "a.b"}
	names := []string{"", "00", "0014df10", "484f534b59", "484f534b5900", "ff", "<&>", "ünï", "a\"b\\c\n"}
	big1 := new(big.Int).Lsh(big.NewInt(1), 64) // above numeric(20,0)'s int64 range
	quantities := []*big.Int{big.NewInt(0), big.NewInt(1), big.NewInt(45_000_000_000_000), big1, new(big.Int).Add(big1, big1)}
	// A nil quantity is written as encoding/json writes a nil *big.Int
	// (null), except lovelace, which a value always has (0).
	nilQuantity := dbsync.AssetQuantity{Policy: policies[0], Name: "00"}
	cases := []dbsync.Value{{}, {Lovelace: big.NewInt(0)}, {Lovelace: big1}, {Assets: []dbsync.AssetQuantity{nilQuantity}}}
	for i := range 1000 {
		pool := policies
		if i%2 == 1 {
			pool = oddPolicies
		}
		v := dbsync.Value{Lovelace: quantities[rng.IntN(len(quantities))]}
		for range rng.IntN(8) {
			v.Assets = append(v.Assets, dbsync.AssetQuantity{
				Policy:   pool[rng.IntN(len(pool))],
				Name:     names[rng.IntN(len(names))],
				Quantity: quantities[rng.IntN(len(quantities))],
			})
		}
		cases = append(cases, v)
	}
	for i, v := range cases {
		for _, grouped := range []bool{false, true} {
			got := append(appendValue(nil, v, grouped), '\n')
			want := encodeNoHTML(t, referenceValue(v, grouped))
			if !bytes.Equal(got, want) {
				t.Fatalf("case %d grouped=%v %s:\n got %s\nwant %s", i, grouped, fmt.Sprint(v.Assets), got, want)
			}
		}
	}
}

type referenceTx struct {
	TxHash    string           `json:"tx_hash"`
	BlockHash string           `json:"block_hash"`
	SlotNo    int64            `json:"slot_no"`
	BlockNo   int64            `json:"block_no"`
	BlockTime string           `json:"block_time"`
	Fee       *big.Int         `json:"fee"`
	Size      int64            `json:"size"`
	Inputs    []referenceInput `json:"inputs"`
	Outputs   []referenceOut   `json:"outputs"`
}

type referenceInput struct {
	TxHash      string `json:"tx_hash"`
	OutputIndex int    `json:"output_index"`
	Address     string `json:"address"`
	Value       any    `json:"value"`
}

type referenceOut struct {
	OutputIndex int    `json:"output_index"`
	Address     string `json:"address"`
	Value       any    `json:"value"`
}

func referenceTxOf(t dbsync.Tx, grouped bool) referenceTx {
	out := referenceTx{TxHash: t.Hash, BlockHash: t.BlockHash, SlotNo: t.SlotNo, BlockNo: t.BlockNo,
		BlockTime: t.BlockTime.UTC().Format(time.RFC3339), Fee: t.Fee, Size: t.Size,
		Inputs: []referenceInput{}, Outputs: []referenceOut{}}
	for _, in := range t.Inputs {
		out.Inputs = append(out.Inputs, referenceInput{in.TxHash, in.OutputIndex, in.Address, referenceValue(in.Value, grouped)})
	}
	for _, o := range t.Outputs {
		out.Outputs = append(out.Outputs, referenceOut{o.OutputIndex, o.Address, referenceValue(o.Value, grouped)})
	}
	return out
}

type referenceUTxO struct {
	TransactionID string  `json:"transaction_id"`
	OutputIndex   int     `json:"output_index"`
	Address       string  `json:"address"`
	Value         any     `json:"value"`
	DatumHash     *string `json:"datum_hash"`
	ScriptHash    *string `json:"script_hash"`
	CreatedAt     struct {
		SlotNo     int64  `json:"slot_no"`
		HeaderHash string `json:"header_hash"`
	} `json:"created_at"`
}

func referenceUTxOOf(u dbsync.UTxO) referenceUTxO {
	r := referenceUTxO{TransactionID: u.TxHash, OutputIndex: u.OutputIndex, Address: u.Address,
		Value: referenceValue(u.Value, false), DatumHash: u.DatumHash, ScriptHash: u.ScriptHash}
	r.CreatedAt.SlotNo, r.CreatedAt.HeaderHash = u.SlotNo, u.BlockHash
	return r
}

// Every transaction of the whale's first pages, the failed transaction and
// the asset-heaviest one, and every UTxO of the sample addresses, in both
// modes: appendTx and appendUTxO write what encoding/json writes.
func TestAppendEncodersMatchEncodingJSON(t *testing.T) {
	smp := testSamples(t)
	for _, c := range testChains {
		var txs []dbsync.Tx
		for _, asc := range []bool{false, true} {
			page, err := c.db.TxsByAddress(t.Context(), mustParse(t, smp.Whale), dbsync.HistoryQuery{Limit: 100, Ascending: asc}, nil)
			if err != nil {
				t.Fatal(err)
			}
			txs = append(txs, page.Items...)
		}
		for _, h := range []string{smp.FailedTx, smp.AssetsTx} {
			hash, err := cardano.ParseTxHash(h)
			if err != nil {
				t.Fatal(err)
			}
			tx, err := c.db.TxByHash(t.Context(), hash)
			if err != nil {
				t.Fatal(err)
			}
			txs = append(txs, tx)
		}
		noFee := txs[0]
		noFee.Fee = nil // never from db-sync; written as encoding/json would (null)
		txs = append(txs, noFee)
		for _, tx := range txs {
			for _, grouped := range []bool{false, true} {
				got := string(appendTx(nil, tx, grouped)) + "\n"
				if want := string(encodeNoHTML(t, referenceTxOf(tx, grouped))); got != want {
					t.Fatalf("%s tx %s grouped=%v:\n got %s\nwant %s", c.mode, tx.Hash, grouped, got, want)
				}
			}
		}
		for _, a := range []string{smp.Whale, smp.Small, smp.Byron, smp.Script} {
			utxos, err := c.db.UTxOsByAddress(t.Context(), mustParse(t, a))
			if err != nil {
				t.Fatal(err)
			}
			for _, u := range utxos {
				got := string(appendUTxO(nil, u)) + "\n"
				if want := string(encodeNoHTML(t, referenceUTxOOf(u))); got != want {
					t.Fatalf("%s UTxO %s#%d:\n got %s\nwant %s", c.mode, u.TxHash, u.OutputIndex, got, want)
				}
			}
		}
	}
}

// go test ./handlers -run '^$' -bench AppendTx: one asset-heavy
// transaction written by appendTx and by encoding/json.
func BenchmarkAppendTx(b *testing.B) {
	lovelace := big.NewInt(1_344_798)
	value := dbsync.Value{Lovelace: lovelace, Assets: []dbsync.AssetQuantity{
		{Policy: "0029cb7c88c7567b63d1a512c0ed626aa169688ec980730c0473b913", Name: "6c702083", Quantity: big.NewInt(7_455)},
		{Policy: "a0028f350aaabe0545fdcb56b039bfb08e4bb4d8c4d7c3c7d481c235", Name: "484f534b59", Quantity: big.NewInt(45_000_000)},
		{Policy: "f0ff48bbb7bbe9d59a40f1ce90e9e9d0ff5002ec48f232b49ca0fb9a", Name: "", Quantity: big.NewInt(1)},
	}}
	addr := "addr1qxmm7h6cuyunxqtswfp739lv7szgq8gay0qmtpusutuvahefqekqa9zmshaj5r7tqqjz9n2nksp8jq8y3s22f9t5knhq857td9"
	hash := "410609f5540be83fa350c03955ab7040609347055011cec3063e5530bd20589b"
	tx := dbsync.Tx{TxRef: dbsync.TxRef{Hash: hash, BlockHash: hash, SlotNo: 4229824, BlockNo: 55623,
		BlockTime: time.Date(2026, 11, 21, 12, 9, 15, 0, time.UTC), Fee: big.NewInt(170429), Size: 342}}
	for i := range 3 {
		tx.Inputs = append(tx.Inputs, dbsync.TxInput{TxHash: hash, OutputIndex: i, Address: addr, Value: value})
		tx.Outputs = append(tx.Outputs, dbsync.TxOutput{OutputIndex: i, Address: addr, Value: value})
	}
	b.Run("appendTx", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			buf = appendTx(buf[:0], tx, false)
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		b.ReportAllocs()
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		for b.Loop() {
			buf.Reset()
			if err := enc.Encode(referenceTxOf(tx, false)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func mustParse(t *testing.T, addr string) cardano.Address {
	t.Helper()
	a, err := cardano.ParseAddress(addr, true)
	if err != nil {
		t.Fatalf("%q: %v", addr, err)
	}
	return a
}

// The written-transaction memo writes what appendTx writes, first time and
// from the memo, grouped or not, and never serves one transaction's bytes
// for another (same hash in another block, e.g. after a rollback).
func TestTxJSONMemoWritesWhatAppendTxWrites(t *testing.T) {
	smp := testSamples(t)
	c := testChains[0]
	page, err := c.db.TxsByAddress(t.Context(), mustParse(t, smp.Whale), dbsync.HistoryQuery{Limit: 50}, nil)
	if err != nil {
		t.Fatal(err)
	}
	txs := page.Items
	m := newTxJSONMemo()
	for _, grouped := range []bool{false, true} {
		want := []byte("[")
		for i, tx := range txs {
			if i > 0 {
				want = append(want, ',')
			}
			want = appendTx(want, tx, grouped)
		}
		want = append(want, ']')
		for round := range 2 {
			if got := m.appendTxs([]byte(nil), txs, grouped); !bytes.Equal(got, want) {
				t.Fatalf("grouped=%v round %d: the memo wrote other bytes", grouped, round)
			}
		}
	}
	moved := txs[0]
	moved.BlockHash = strings.Repeat("0", 64)
	moved.Fee = big.NewInt(1)
	if got, want := m.written(moved, false), appendTx(nil, moved, false); !bytes.Equal(got, want) {
		t.Fatal("a transaction in another block was written from the memo")
	}
}
