package handlers

import (
	"testing"
	"time"

	"github.com/blinklabs-io/gouroboros/protocol/localtxmonitor"

	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/node"
	"github.com/syncgate/syncgate/node/nodetest"
)

// TestNodeMempoolForStatus: what transaction status asks the node's mempool
// reader, over the fake node's LocalTxMonitor; a node that is gone is an
// error (status then says mempool "unavailable").
func TestNodeMempoolForStatus(t *testing.T) {
	mainnet, _ := cardano.NetworkByName("mainnet")
	n := nodetest.Start(t, mainnet.Magic)
	in, out := vectorTx(t, "blockfrost-e781decc5945"), vectorTx(t, "pallas-shelley1")
	n.SetMempool(nodetest.Mempool{Slot: 1, Capacity: 1 << 20, Txs: []localtxmonitor.TxAndEraId{nodetest.MempoolTx(in.CBOR)}})
	m := nodeMempool{node.NewMempool(map[string]string{"mainnet": n.Socket}, node.MempoolOptions{})}
	for _, c := range []struct {
		tx   *node.Tx
		want bool
	}{{in, true}, {out, false}} {
		h, _ := cardano.ParseTxHash(c.tx.Hash)
		before := time.Now()
		got, err := m.Contains(t.Context(), "mainnet", h)
		if err != nil || got.In != c.want || got.TakenAt.After(time.Now()) || got.TakenAt.Before(before.Add(-time.Second)) || got.Gen != 1 {
			t.Fatalf("%s: %+v %v, want %v (snapshot taken within the second, the first one)", c.tx.Hash, got, err, c.want)
		}
	}
	if _, err := m.Contains(t.Context(), "nonet", [32]byte{}); err == nil {
		t.Fatal("unknown network: no error")
	}
	gone := nodeMempool{node.NewMempool(map[string]string{}, node.MempoolOptions{})}
	if _, err := gone.Contains(t.Context(), "mainnet", [32]byte{}); err == nil {
		t.Fatal("no node: no error")
	}
}
