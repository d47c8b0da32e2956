package answer

import (
	"bytes"
	"math/big"
	"strings"
	"testing"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer/wire"
)

// The written-transaction memo writes what wire.AppendTx writes, first time and
// from the memo, grouped or not, and never serves one transaction's bytes
// for another (same hash in another block, e.g. after a rollback).
func TestTxJSONMemoWritesWhatAppendTxWrites(t *testing.T) {
	db, m := seededChain(t)
	page, err := db.TxsByAddress(t.Context(), mustParse(t, m.Whale.Address), dbsync.HistoryQuery{Limit: 50}, nil)
	if err != nil {
		t.Fatal(err)
	}
	txs := page.Items
	memo := newTxJSONMemo()
	for _, grouped := range []bool{false, true} {
		want := []byte("[")
		for i, tx := range txs {
			if i > 0 {
				want = append(want, ',')
			}
			want = wire.AppendTx(want, tx, grouped)
		}
		want = append(want, ']')
		for round := range 2 {
			if got := memo.appendTxs([]byte(nil), txs, grouped); !bytes.Equal(got, want) {
				t.Fatalf("grouped=%v round %d: the memo wrote other bytes", grouped, round)
			}
		}
	}
	moved := txs[0]
	moved.BlockHash = strings.Repeat("0", 64)
	moved.Fee = big.NewInt(1)
	if got, want := memo.written(moved, false), wire.AppendTx(nil, moved, false); !bytes.Equal(got, want) {
		t.Fatal("a transaction in another block was written from the memo")
	}
}
