package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer/wire/wiretest"
)

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
			got := append(AppendValue(nil, v, grouped), '\n')
			want := wiretest.EncodeNoHTML(t, wiretest.ReferenceValue(v, grouped))
			if !bytes.Equal(got, want) {
				t.Fatalf("case %d grouped=%v %s:\n got %s\nwant %s", i, grouped, fmt.Sprint(v.Assets), got, want)
			}
		}
	}
}

// go test ./internal/answer/wire -run '^$' -bench AppendTx: one asset-heavy
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
			buf = AppendTx(buf[:0], tx, false)
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		b.ReportAllocs()
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		for b.Loop() {
			buf.Reset()
			if err := enc.Encode(wiretest.ReferenceTxOf(tx, false)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
