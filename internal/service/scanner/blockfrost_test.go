package scanner

import (
	"encoding/json"
	"testing"

	"github.com/google/uuid"

	"github.com/syncgate/syncgate/internal/answer"
	"github.com/syncgate/syncgate/internal/answer/bf"
	"github.com/syncgate/syncgate/internal/answer/bfevents"
	"github.com/syncgate/syncgate/internal/devtools/bfschema"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/events"
)

// Blockfrost-format webhooks get Blockfrost's envelope with the payloads
// Blockfrost documents, each part valid against Blockfrost's own schema:
// one transaction event per block with every matching transaction (tx,
// inputs, outputs), block events (block_content), epoch events (the
// previous epoch's epoch_content, the new one's number and times) and
// delegation events (tx, delegations each with its pool).
func TestBlockfrostFormat(t *testing.T) {
	doc := bfschema.Open(t)
	e := newEnvSlots(t, chaingen.ModeCore, 2, 432000/4)
	render := bfevents.New(bf.New(answer.New(answer.Options{})))
	e.scanner(t.Context(), func(s *Scanner) { s.o.Blockfrost = render })
	start := e.tip()
	e.waitScanned(start)
	var addrID, poolID int64
	var stake string
	if err := e.raw.QueryRow(`SELECT id, view FROM stake_address ORDER BY id LIMIT 1`).Scan(&addrID, &stake); err != nil {
		t.Fatal(err)
	}
	if err := e.raw.QueryRow(`SELECT id FROM pool_hash ORDER BY id DESC LIMIT 1`).Scan(&poolID); err != nil {
		t.Fatal(err)
	}
	addr := e.m.Addresses[0].Address
	hook := func(depth int, typ string, items ...events.Item) uuid.UUID {
		return e.webhookIn(events.FormatBlockfrost, depth, []string{typ}, events.StatusActive, start, items...)
	}
	txHook := hook(0, events.TypeTxConfirmed, events.Item{Kind: events.KindAddress, Value: addr})
	blockHook := hook(0, events.TypeBlockAdded)
	epochHook := hook(0, events.TypeEpochStarted)
	delegHook := hook(1, events.TypeDelegationConfirmed, events.Item{Kind: events.KindStakeAddress, Value: stake})
	for i := range 9 {
		e.pay(addr, 2_000_000)
		e.pay(addr, 3_000_000)
		b := e.appendBlocks(1)
		if i == 4 {
			e.certify(b.BlockNo, addrID, poolID, 0)
		}
	}
	tip := e.tip()
	e.waitScanned(tip)

	type envelope struct {
		ID         uuid.UUID       `json:"id"`
		WebhookID  uuid.UUID       `json:"webhook_id"`
		Created    int64           `json:"created"`
		APIVersion int             `json:"api_version"`
		Type       string          `json:"type"`
		Payload    json.RawMessage `json:"payload"`
	}
	valid := func(schema string, v any) {
		t.Helper()
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := doc.ValidateSchema(schema, raw); err != nil {
			t.Errorf("%s: %v\n%s", schema, err, raw)
		}
	}
	read := func(hook uuid.UUID, typ string) []envelope {
		var out []envelope
		for _, ev := range e.events(hook) {
			var env envelope
			if err := json.Unmarshal([]byte(ev.Body), &env); err != nil {
				t.Fatal(err)
			}
			if env.ID != ev.ID || env.WebhookID != hook || env.APIVersion != 1 || env.Type != typ || env.Created == 0 {
				t.Errorf("envelope %+v of event %s", env, ev.ID)
			}
			if canon, err := events.JSCanonical([]byte(ev.Body)); err != nil || string(canon) != ev.Body {
				t.Errorf("event %s body is not as JSON.stringify writes it", ev.ID)
			}
			out = append(out, env)
		}
		return out
	}

	// Transactions: one event per block paying addr, with each of its
	// transactions that touch it.
	var perBlock map[string]int
	var rows []struct {
		Block string `db:"block"`
		N     int    `db:"n"`
	}
	if err := e.raw.Select(&rows, `SELECT encode(b.hash, 'hex') AS block, count(DISTINCT t.id) AS n FROM block b JOIN tx t ON t.block_id = b.id
		JOIN tx_out o ON o.tx_id = t.id WHERE b.block_no > $1 AND o.address = $2 GROUP BY 1`, start, addr); err != nil {
		t.Fatal(err)
	}
	perBlock = map[string]int{}
	for _, r := range rows {
		perBlock[r.Block] = r.N
	}
	txEvents := read(txHook, events.BlockfrostTransaction)
	if len(txEvents) != len(perBlock) || len(txEvents) == 0 {
		t.Errorf("%d transaction events, %d blocks pay %s", len(txEvents), len(perBlock), addr)
	}
	for _, env := range txEvents {
		var items []struct {
			Tx      json.RawMessage `json:"tx"`
			Inputs  json.RawMessage `json:"inputs"`
			Outputs json.RawMessage `json:"outputs"`
		}
		if err := json.Unmarshal(env.Payload, &items); err != nil {
			t.Fatal(err)
		}
		var block string
		for _, it := range items {
			var tx struct {
				Hash  string `json:"hash"`
				Block string `json:"block"`
			}
			_ = json.Unmarshal(it.Tx, &tx)
			block = tx.Block
			valid("tx_content", it.Tx)
			valid("tx_content_utxo", map[string]any{"hash": tx.Hash, "inputs": it.Inputs, "outputs": it.Outputs})
		}
		if perBlock[block] != len(items) {
			t.Errorf("block %s: %d transactions in its event, %d pay %s", block, len(items), perBlock[block], addr)
		}
	}
	blocks := read(blockHook, events.BlockfrostBlock)
	if int64(len(blocks)) != tip-start {
		t.Errorf("%d block events for %d blocks", len(blocks), tip-start)
	}
	for _, env := range blocks {
		valid("block_content", env.Payload)
	}
	epochs := read(epochHook, events.BlockfrostEpoch)
	if len(epochs) < 2 {
		t.Errorf("%d epoch events", len(epochs))
	}
	for _, env := range epochs {
		var p struct {
			Previous json.RawMessage `json:"previous_epoch"`
			Current  struct {
				Epoch     int64 `json:"epoch"`
				StartTime int64 `json:"start_time"`
				EndTime   int64 `json:"end_time"`
			} `json:"current_epoch"`
		}
		if err := json.Unmarshal(env.Payload, &p); err != nil || p.Current.EndTime <= p.Current.StartTime {
			t.Errorf("epoch payload %s (%v)", env.Payload, err)
		}
		valid("epoch_content", p.Previous)
	}
	delegs := read(delegHook, events.BlockfrostDelegation)
	if len(delegs) != 1 {
		t.Fatalf("%d delegation events", len(delegs))
	}
	var items []struct {
		Tx          json.RawMessage              `json:"tx"`
		Delegations []map[string]json.RawMessage `json:"delegations"`
	}
	if err := json.Unmarshal(delegs[0].Payload, &items); err != nil || len(items) != 1 || len(items[0].Delegations) != 1 {
		t.Fatalf("delegation payload %s (%v)", delegs[0].Payload, err)
	}
	valid("tx_content", items[0].Tx)
	d := items[0].Delegations[0]
	valid("pool", d["pool"])
	delete(d, "pool")
	valid("tx_content_delegations", []any{d})
}
