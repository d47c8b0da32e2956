package handlers

import (
	"testing"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer/wire"
	"github.com/syncgate/syncgate/internal/answer/wire/wiretest"
	"github.com/syncgate/syncgate/internal/cardano"
)

// Every transaction of the whale's first pages, the failed transaction and
// the asset-heaviest one, the whale's first light pages, and every UTxO of
// the sample addresses, in both modes: wire.AppendTx, wire.AppendTxRef and
// wire.AppendUTxO write what encoding/json writes.
func TestAppendEncodersMatchEncodingJSON(t *testing.T) {
	smp := testSamples(t)
	for _, c := range seededChains(t) {
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
				got := string(wire.AppendTx(nil, tx, grouped)) + "\n"
				if want := string(wiretest.EncodeNoHTML(t, wiretest.ReferenceTxOf(tx, grouped))); got != want {
					t.Fatalf("%s tx %s grouped=%v:\n got %s\nwant %s", c.mode, tx.Hash, grouped, got, want)
				}
			}
		}
		for _, asc := range []bool{false, true} {
			page, err := c.db.TxHistory(t.Context(), mustParse(t, smp.Whale), dbsync.HistoryQuery{Limit: 100, Ascending: asc}, nil)
			if err != nil || len(page.Items) == 0 {
				t.Fatalf("%s light page: %d items, %v", c.mode, len(page.Items), err)
			}
			for _, r := range page.Items {
				got := string(wire.AppendTxRef(nil, r)) + "\n"
				if want := string(wiretest.EncodeNoHTML(t, wiretest.ReferenceTxRefOf(r))); got != want {
					t.Fatalf("%s tx ref %s:\n got %s\nwant %s", c.mode, r.Hash, got, want)
				}
			}
		}
		for _, a := range []string{smp.Whale, smp.Small, smp.Byron, smp.Script} {
			utxos, err := c.db.UTxOsByAddress(t.Context(), mustParse(t, a))
			if err != nil {
				t.Fatal(err)
			}
			for _, u := range utxos {
				got := string(wire.AppendUTxO(nil, u)) + "\n"
				if want := string(wiretest.EncodeNoHTML(t, wiretest.ReferenceUTxOOf(u))); got != want {
					t.Fatalf("%s UTxO %s#%d:\n got %s\nwant %s", c.mode, u.TxHash, u.OutputIndex, got, want)
				}
			}
		}
	}
}

func mustParse(t *testing.T, addr string) cardano.Address {
	t.Helper()
	a, err := cardano.ParseAddress(addr, true)
	if err != nil {
		t.Fatalf("%q: %v", addr, err)
	}
	return a
}
