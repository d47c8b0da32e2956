package clientcheck_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// checkMisc: the root and health, the xpub derivation (against the SDK's
// own), evaluation (refused: no Plutus evaluator), and the submission
// with the mempool holding it while the chain stands still.
func checkMisc(t *testing.T, s *stack, r *results, in bfInput) {
	var root struct{ URL, Version string }
	if r.get("root", "GET /", &root) {
		eq(t, "root version", root.Version, "0.1.93")
		eq(t, "root url", root.URL, s.base+"/docs")
	}
	var health struct {
		IsHealthy bool `json:"is_healthy"`
	}
	if r.get("health", "GET /health", &health) {
		eq(t, "health is_healthy", health.IsHealthy, true)
	}
	var clock struct {
		ServerTime int64 `json:"server_time"`
	}
	if r.get("healthClock", "GET /health/clock", &clock) {
		if d := time.Since(time.UnixMilli(clock.ServerTime)); d < 0 || d > 5*time.Minute {
			t.Errorf("healthClock: server_time %d is %s from now", clock.ServerTime, d)
		}
	}
	for _, x := range in.Xpubs {
		call := fmt.Sprintf("utilsXpub|%s|%d|%d", x.Xpub, x.Role, x.Index)
		var got struct {
			Xpub        string
			Role, Index int
			Address     string
		}
		if r.get(call, "GET /utils/addresses/xpub/{xpub}/{role}/{index}", &got) {
			eq(t, call+" address (the SDK's deriveAddress)", got.Address, r.calls[call].SDK)
			eq(t, call+" role", got.Role, x.Role)
			eq(t, call+" index", got.Index, x.Index)
		}
	}
	r.refused("utilsTxsEvaluate", "POST /utils/txs/evaluate", 501)

	var before []any
	if r.get("mempool|before", "GET /mempool", &before) && len(before) != 0 {
		t.Errorf("mempool before the submission: %v", before)
	}
	var id string
	if r.get("txSubmit", "POST /tx/submit", &id) {
		eq(t, "txSubmit", id, in.Submit.Hash)
	}
	// The mempool is a shared snapshot read again at most a second after
	// the previous read: a transaction just submitted may take that long
	// to show (logged; it must show within a few seconds).
	var lag int64
	r.get("mempoolLagMs", "GET /mempool/{hash}", &lag)
	r.mu.Lock()
	delete(r.unchecked, "mempoolTx|at once")
	r.mu.Unlock()
	if c := r.calls["mempoolTx|at once"]; c.Err != nil && r.served[routeShape("GET /mempool/{hash}")] {
		t.Logf("finding: mempoolTx right after txSubmit answered %v %s; the transaction showed %d ms later", ptr(c.Err.Status), c.Err.Message, lag)
	}
	var tx struct {
		Tx struct {
			Hash string
			Fees string
		}
		Inputs []struct {
			TxHash      string `json:"tx_hash"`
			OutputIndex int    `json:"output_index"`
		}
		Outputs []struct {
			Address string
			Amount  []amount
		}
	}
	if r.get("mempoolTx|"+in.Submit.Hash, "GET /mempool/{hash}", &tx) {
		eq(t, "mempoolTx hash", tx.Tx.Hash, in.Submit.Hash)
		if len(tx.Inputs) != 1 || len(tx.Outputs) != 1 || tx.Outputs[0].Address != in.Submit.Address {
			t.Errorf("mempoolTx: %+v", tx)
		}
	}
	var pool []struct {
		TxHash string `json:"tx_hash"`
	}
	for _, call := range []string{"mempool", "mempoolAll"} {
		if r.get(call, "GET /mempool", &pool) && (len(pool) != 1 || pool[0].TxHash != in.Submit.Hash) {
			t.Errorf("%s after the submission: %+v, want only %s", call, pool, in.Submit.Hash)
		}
	}
	for _, call := range []string{"mempoolByAddress", "mempoolByAddressAll"} {
		if r.get(call+"|"+in.Submit.Address, "GET /mempool/addresses/{address}", &pool) && (len(pool) != 1 || pool[0].TxHash != in.Submit.Hash) {
			t.Errorf("%s after the submission: %+v, want only %s", call, pool, in.Submit.Hash)
		}
	}
	// Not in a block yet: Blockfrost's 404.
	r.refused("txs|"+in.Submit.Hash+"|pending", "GET /txs/{hash}", 404)
	if strings.TrimSpace(in.Submit.CBOR) == "" {
		t.Fatal("no transaction to submit")
	}
}
