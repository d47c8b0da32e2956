package main

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"

	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/node"
	"github.com/syncgate/syncgate/node/nodetest"
)

// startFakeNode runs a fake cardano-node (node/nodetest: gouroboros'
// server side) on the unix socket at path, its LocalTxMonitor serving n
// transactions: the vectors of vectorsPath in turn, repeated until there
// are n (a mempool's size and listing cost, not distinct transactions, is
// what the scenarios measure). It returns the distinct hashes it holds.
// The server under test reads it through NODE_SOCKET_<NET> = path.
func startFakeNode(path, vectorsPath, network string, n int) (*nodetest.Node, []string, error) {
	nw, ok := cardano.NetworkByName(network)
	if !ok {
		return nil, nil, fmt.Errorf("fake node: unknown network %q", network)
	}
	raw, err := os.ReadFile(vectorsPath)
	if err != nil {
		return nil, nil, fmt.Errorf("fake node: %w", err)
	}
	var v struct {
		Vectors []struct {
			CborHex string `json:"cbor_hex"`
		} `json:"vectors"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, nil, fmt.Errorf("fake node: %s: %w", vectorsPath, err)
	}
	var txs [][]byte
	var hashes []string
	for _, x := range v.Vectors {
		b, err := hex.DecodeString(x.CborHex)
		if err != nil {
			continue
		}
		tx, err := node.DecodeTx(b)
		if err != nil {
			continue // the file's invalid vectors
		}
		txs = append(txs, b)
		hashes = append(hashes, tx.Hash)
	}
	if len(txs) == 0 {
		return nil, nil, fmt.Errorf("fake node: no decodable transaction in %s", vectorsPath)
	}
	_ = os.Remove(path) // a socket left by an earlier run
	fn, err := nodetest.Listen(path, nw.Magic)
	if err != nil {
		return nil, nil, fmt.Errorf("fake node: %w", err)
	}
	m := nodetest.Mempool{Slot: 1, Capacity: 178_176 * 10}
	for i := 0; i < n; i++ {
		m.Txs = append(m.Txs, nodetest.MempoolTx(txs[i%len(txs)]))
	}
	fn.SetMempool(m)
	return fn, hashes, nil
}
