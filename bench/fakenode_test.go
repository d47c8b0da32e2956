package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/node"
)

// The fake node's mempool holds n transactions made of the vectors, and
// every hash it names is in what the server's reader sees.
func TestFakeNodeMempool(t *testing.T) {
	dir, err := os.MkdirTemp("", "sgbench")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	sock := filepath.Join(dir, "node.socket")
	fn, hashes, err := startFakeNode(sock, "../node/testdata/tx-cbor.json", "mainnet", 50)
	if err != nil {
		t.Fatal(err)
	}
	defer fn.Close()
	mainnet, _ := cardano.NetworkByName("mainnet")
	snap, err := node.NewMempool(map[string]string{"mainnet": sock}, node.MempoolOptions{}).Snapshot(t.Context(), mainnet)
	if err != nil {
		t.Fatal(err)
	}
	if snap.TxCount != 50 || len(hashes) == 0 {
		t.Fatalf("%d transactions in the mempool, %d hashes named; want 50", snap.TxCount, len(hashes))
	}
	for _, h := range hashes {
		if !snap.Has(h) {
			t.Errorf("%s named, not in the mempool", h)
		}
	}
	if _, _, err := startFakeNode(filepath.Join(dir, "other.socket"), "../node/testdata/tx-cbor.json", "nonet", 1); err == nil {
		t.Error("an unknown network: no error")
	}
}
