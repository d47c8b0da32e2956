package delivery

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/syncgate/syncgate/internal/events"
)

// BenchmarkThroughput is one instance pushing b.N decided events to a fast
// local receiver (run with a fixed count, e.g. -benchtime=20000x; the
// events/s figure goes in docs/PERFORMANCE.md, nothing is asserted).
// The events are small webhook.test notes signed as Standard Webhooks.
func BenchmarkThroughput(b *testing.B) {
	throughput(b, events.FormatStandard, func(e *env, hook uuid.UUID, n int) { e.decide(b, hook, n) })
}

// BenchmarkThroughputBlockfrost is BenchmarkThroughput for a
// Blockfrost-format webhook: each event a Blockfrost transaction event
// (bfTxPayload: 3 transactions of 3 inputs and 3 outputs each, as the
// scanner renders them), in Blockfrost's envelope, signed with
// Blockfrost-Signature.
func BenchmarkThroughputBlockfrost(b *testing.B) {
	payload := bfTxPayload(b, 3, 3, 3)
	throughput(b, events.FormatBlockfrost, func(e *env, hook uuid.UUID, n int) {
		evs := make([]events.NewEvent, n)
		for i := range evs {
			evs[i] = events.NewEvent{WebhookID: hook, Type: events.TypeTxConfirmed, Data: events.TxConfirmed{TxHash: "ab"},
				Blockfrost: &events.BlockfrostPayload{Type: events.BlockfrostTransaction, Payload: payload}}
		}
		ctx := context.Background()
		tx := e.db.MustBeginTx(ctx, nil)
		if _, err := e.store.AppendEvents(ctx, tx, "preprod", evs); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	})
}

// throughput decides b.N events for one webhook of format (decide, 1,000
// at a time; not timed), then times the delivery service pushing them
// all.
func throughput(b *testing.B, format string, decide func(e *env, hook uuid.UUID, n int)) {
	e := newEnv(b)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	hook := e.webhook(b, srv.URL, randomKey(b))
	if _, err := e.db.Exec(`UPDATE syncgate.webhooks SET format = $2 WHERE id = $1`, hook, format); err != nil {
		b.Fatal(err)
	}
	s := e.service(b, Options{AllowPrivate: true}, false)
	for left := b.N; left > 0; left -= 1000 {
		decide(e, hook, min(left, 1000))
	}
	var size float64
	if err := e.db.Get(&size, `SELECT avg(octet_length(body)) FROM syncgate.webhook_events`); err != nil {
		b.Fatal(err)
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	cpu0 := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	b.ResetTimer()
	start := time.Now()
	if err := s.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	defer s.Stop(context.Background()) //nolint:errcheck
	for {
		var n int
		if err := e.db.Get(&n, `SELECT count(*) FROM syncgate.webhook_deliveries WHERE status = $1`, events.DeliverySucceeded); err != nil {
			b.Fatal(err)
		}
		if n == b.N {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	b.StopTimer()
	elapsed := time.Since(start)
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "events/s")
	b.ReportMetric(size, "body-bytes")
	// This process's CPU (workers, river, the receiver) per event: with the
	// machine shared, the rate above says little alone.
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		cpu := time.Duration(ru.Utime.Nano()+ru.Stime.Nano()) - cpu0
		b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/event")
	}
}

// bfTxPayload is a Blockfrost transaction event's payload of txs
// transactions, each with its /txs/{hash} content and ins inputs and outs
// outputs of /txs/{hash}/utxos (every one lovelace and two assets), in
// the fields Blockfrost answers (their order aside).
func bfTxPayload(b *testing.B, txs, ins, outs int) []byte {
	type amount struct {
		Unit     string `json:"unit"`
		Quantity string `json:"quantity"`
	}
	type utxo struct {
		Address             string   `json:"address"`
		Amount              []amount `json:"amount"`
		TxHash              string   `json:"tx_hash,omitempty"`
		OutputIndex         int      `json:"output_index"`
		DataHash            *string  `json:"data_hash"`
		InlineDatum         *string  `json:"inline_datum"`
		ReferenceScriptHash *string  `json:"reference_script_hash"`
		Collateral          bool     `json:"collateral"`
		Reference           *bool    `json:"reference,omitempty"`
		ConsumedByTx        *string  `json:"consumed_by_tx,omitempty"`
	}
	hash := func(i int) string { return fmt.Sprintf("%064x", 0xabcdef0000+i) }
	addr := "addr1q9d6ft0ahk7jr4k3u6y6zv2m5ljqzqve6q5gd3ulq0dlfx9c0qdwgaxm3pjmtx9hxpy0wnwf0hmqnycqkmzqnvuqvrhs9qmmfu"
	values := func() []amount {
		return []amount{{"lovelace", "1510318"},
			{"b0d07d45fe9514f80213f4020e5a61241458be626841cde717cb38a7" + "6e7574636f696e", "12500000"},
			{"f0ff48bbb7bbe9d59a40f1ce90e9e9d0ff5002ec48f232b49ca0fb9a" + "73796e6367617465", "1"}}
	}
	var out []map[string]any
	for t := range txs {
		no := false
		tx := map[string]any{"hash": hash(t), "block": hash(1000), "block_height": 11021418, "block_time": 1732012345,
			"slot": 139446054, "index": t, "output_amount": values(), "fees": "182485", "deposit": "0", "size": 1021,
			"invalid_before": nil, "invalid_hereafter": "139453234", "utxo_count": ins + outs, "withdrawal_count": 0,
			"mir_cert_count": 0, "delegation_count": 0, "stake_cert_count": 0, "pool_update_count": 0, "pool_retire_count": 0,
			"asset_mint_or_burn_count": 0, "redeemer_count": 0, "valid_contract": true}
		var inputs, outputs []utxo
		for i := range ins {
			inputs = append(inputs, utxo{Address: addr, Amount: values(), TxHash: hash(100 + i), OutputIndex: i, Reference: &no})
		}
		for o := range outs {
			outputs = append(outputs, utxo{Address: addr, Amount: values(), OutputIndex: o})
		}
		out = append(out, map[string]any{"tx": tx, "inputs": inputs, "outputs": outputs})
	}
	raw, err := json.Marshal(out)
	if err != nil {
		b.Fatal(err)
	}
	return raw
}
