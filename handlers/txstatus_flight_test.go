package handlers

import (
	"encoding/hex"
	"fmt"
	"net/http/httptest"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/fxamacker/cbor/v2"

	"github.com/syncgate/syncgate/node"
	"github.com/syncgate/syncgate/node/nodetest"
)

// distinctTxs makes n distinct transactions from a real Shelley one by
// changing its fee (body field 2): each decodes, hashes differently and
// reaches the fake node like the original (which checks no witness).
func distinctTxs(t *testing.T, n int) []*node.Tx {
	t.Helper()
	base := vectorTx(t, "gouroboros-shelleyTxCborHex")
	var parts []cbor.RawMessage
	if err := cbor.Unmarshal(base.CBOR, &parts); err != nil {
		t.Fatal(err)
	}
	var body map[uint64]cbor.RawMessage
	if err := cbor.Unmarshal(parts[0], &body); err != nil {
		t.Fatal(err)
	}
	em, err := cbor.EncOptions{Sort: cbor.SortCoreDeterministic}.EncMode()
	if err != nil {
		t.Fatal(err)
	}
	out := make([]*node.Tx, n)
	for i := range out {
		body[2], _ = em.Marshal(uint64(200_000 + i))
		b, _ := em.Marshal(body)
		parts[0] = b
		raw, _ := em.Marshal(parts)
		if out[i], err = node.DecodeTx(raw); err != nil {
			t.Fatalf("variant %d: %v", i, err)
		}
	}
	return out
}

// TestSubmitSingleFlight: 1 000 concurrent submissions of 100 distinct
// transactions, spread over two instances of one deployment (same Redis,
// admin database and node), reach the node once per transaction, and
// every one of them answers 200 with its hash; submitted again afterwards,
// they answer in_mempool without reaching the node.
func TestSubmitSingleFlight(t *testing.T) {
	e := newStatusEnv(t, node.DefaultSubmitTimeout)
	// A node that takes a while to answer, so that submissions pile up.
	e.node.Set(func(s nodetest.Submission) error {
		time.Sleep(50 * time.Millisecond)
		return e.node.Keep(s)
	})
	// One snapshot, taken before any submission, for the whole run: what
	// keeps a submission that starts after the node accepted the same
	// transaction from reaching the node again is the log's acceptance,
	// newer than the snapshot (as within a second of a real one).
	e.mempoolOpts = node.MempoolOptions{MaxAge: time.Hour, MaxStale: time.Hour}
	instances := []*Server{e.instance(e.redis), e.instance(e.redis)}
	txs := distinctTxs(t, 100)
	bodies := make([]string, len(txs))
	for i, tx := range txs {
		bodies[i] = submitJSON(hex.EncodeToString(tx.CBOR), true)
	}
	var mu sync.Mutex
	statuses := map[string]int{}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < 1000; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-start
			tx := txs[i%len(txs)]
			code, b := e.submitAsync(instances[i%2], bodies[i%len(txs)])
			mu.Lock()
			defer mu.Unlock()
			if code != 200 || b.Data == nil || b.Data.TxHash != tx.Hash {
				statuses[fmt.Sprintf("error %d %s", code, b.Error)]++
				return
			}
			statuses[b.Data.Status]++
		}(i)
	}
	close(start)
	wg.Wait()
	if statuses["submitted"]+statuses["in_mempool"] != 1000 {
		var outcomes []string
		_ = e.adminDB.Select(&outcomes, `SELECT outcome || ' ' || count(*) FROM syncgate.tx_submissions GROUP BY outcome`)
		t.Fatalf("answers: %v; logged outcomes %v; node received %d", statuses, outcomes, len(e.node.Received()))
	}
	// Submitted again once answered: from the mempool, without the node.
	// Two more instances whose one snapshot, taken now, holds every
	// transaction (a snapshot taken before their acceptance would send
	// them to the node again).
	e.mempoolOpts = node.MempoolOptions{MaxAge: time.Hour, MaxStale: time.Hour}
	instances = []*Server{e.instance(e.redis), e.instance(e.redis)}
	for _, srv := range instances {
		code, body := e.get(srv, "/v1/mempool")
		var m struct {
			Data struct {
				TxCount int `json:"tx_count"`
			} `json:"data"`
		}
		if err := jsonUnmarshal(body, &m); code != 200 || err != nil || m.Data.TxCount != len(txs) {
			t.Fatalf("mempool: %d %s", code, body)
		}
	}
	var failed []string
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if code, b := e.submitAsync(instances[i%2], bodies[i%len(txs)]); code != 200 || b.Data == nil || b.Data.Status != "in_mempool" {
				mu.Lock()
				failed = append(failed, fmt.Sprintf("%d: %d %+v", i, code, b))
				mu.Unlock()
			}
		}(i)
	}
	wg.Wait()
	if len(failed) > 0 {
		t.Fatalf("resubmissions: %v", failed)
	}
	per := map[string]int{}
	for _, s := range e.node.Received() {
		tx, err := node.DecodeTx(s.Tx)
		if err != nil {
			t.Fatal(err)
		}
		per[tx.Hash]++
	}
	var dup []string
	for _, tx := range txs {
		if per[tx.Hash] != 1 {
			dup = append(dup, fmt.Sprintf("%s×%d", tx.Hash[:8], per[tx.Hash]))
		}
	}
	sort.Strings(dup)
	if len(dup) > 0 || len(per) != len(txs) {
		t.Fatalf("the node received %d distinct transactions, not once each: %v", len(per), dup)
	}
	t.Logf("answers: %v", statuses)
}

// submitAsync is submit for goroutines (no t.Fatal).
func (e *statusEnv) submitAsync(srv *Server, body string) (int, submitStatusBody) {
	req := httptest.NewRequest("POST", "/v1/tx/submit", stringsReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+mainnetKey)
	w := httptest.NewRecorder()
	srv.Handler().ServeHTTP(w, req)
	var b submitStatusBody
	_ = jsonUnmarshal(w.Body.Bytes(), &b)
	return w.Code, b
}
