package events

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

// referenceEnvelope is Blockfrost's webhook body encoded the plain way,
// which bodyWriter must match byte for byte.
type referenceEnvelope struct {
	ID         uuid.UUID       `json:"id"`
	WebhookID  uuid.UUID       `json:"webhook_id"`
	Created    int64           `json:"created"`
	APIVersion int             `json:"api_version"`
	Type       string          `json:"type"`
	Payload    json.RawMessage `json:"payload"`
}

// The bodies written together, their shared parts encoded once, are the
// bodies json.Marshal writes one by one: standard and Blockfrost, with a
// block or none, with data given as a value or encoded once beforehand,
// with strings JavaScript and Go escape differently.
func TestBodyWriterMatchesEncoding(t *testing.T) {
	now := time.Date(2026, 12, 8, 3, 4, 5, 123456000, time.UTC)
	block := &BlockRef{Hash: []byte{1, 2, 3}, Height: 42, Slot: 4242, Time: now.Add(-time.Minute)}
	tip := &BlockRef{Hash: []byte{9}, Height: 44, Slot: 4300}
	odd := "<a & b> \u2028 é \"q\" \\ \t"
	shared, err := json.Marshal(BlockAdded{Epoch: 7, SlotLeader: odd, TxCount: 3, Depth: 1, Confirmations: 2})
	if err != nil {
		t.Fatal(err)
	}
	payload := &BlockfrostPayload{Type: BlockfrostBlock, Payload: json.RawMessage(`{"hash":"ab","note":"` + strings.ReplaceAll(odd, `"`, `\"`) + `","n":1.5e3,"big":12345678901234567890,"z":-0}`)}
	payload.Payload = json.RawMessage(strings.ReplaceAll(string(payload.Payload), "\\ \t", "\\\\ \\t"))
	if !json.Valid(payload.Payload) {
		t.Fatalf("test payload is not JSON: %s", payload.Payload)
	}
	evs := []NewEvent{
		{WebhookID: uuid.New(), Type: TypeBlockAdded, Block: block, Tip: tip, Data: json.RawMessage(shared)},
		{WebhookID: uuid.New(), Type: TypeBlockAdded, Block: block, Tip: tip, Data: json.RawMessage(shared)},
		{WebhookID: uuid.New(), Type: TypeTxConfirmed, TxHash: []byte{7}, Block: block, Tip: tip,
			Data: TxConfirmed{TxHash: "07", Fee: "1", Items: []ItemMovement{{Kind: KindAddress, Value: odd}}}},
		{WebhookID: uuid.New(), Type: TypeWebhookTest, Data: WebhookNote{Message: odd}},
		{WebhookID: uuid.New(), Type: TypeBlockAdded, Block: block, Tip: tip, Data: json.RawMessage(shared), Blockfrost: payload},
		{WebhookID: uuid.New(), Type: TypeBlockAdded, Block: block, Tip: tip, Data: json.RawMessage(shared), Blockfrost: payload},
		{WebhookID: uuid.New(), Type: TypeBlockRolledBack, Block: block, Tip: tip, Data: Revocation{Revokes: uuid.New(), RevokedSeq: 3}},
	}
	format := []string{FormatStandard, FormatStandard, FormatStandard, FormatStandard, FormatBlockfrost, FormatBlockfrost, FormatBlockfrost}
	w, err := newBodyWriter("preprod", now)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i, e := range evs {
		id := uuid.New()
		data, err := eventData(e)
		if err != nil {
			t.Fatal(err)
		}
		var ref []byte
		if format[i] == FormatBlockfrost {
			if err := w.blockfrost(id, e, data); err != nil {
				t.Fatal(err)
			}
			env := referenceEnvelope{ID: id, WebhookID: e.WebhookID, Created: now.Unix(), APIVersion: 1, Type: e.Type, Payload: data}
			if e.Blockfrost != nil {
				env.Type, env.Payload = e.Blockfrost.Type, e.Blockfrost.Payload
			}
			raw, err := json.Marshal(env)
			if err != nil {
				t.Fatal(err)
			}
			if ref, err = JSCanonical(raw); err != nil {
				t.Fatal(err)
			}
		} else {
			w.standard(id, e, int64(10+i), data)
			if ref, err = json.Marshal(Body{ID: id, Type: e.Type, WebhookID: e.WebhookID, Seq: int64(10 + i), Network: "preprod",
				CreatedAt: now, Block: blockJSON(e.Block), Tip: blockJSON(e.Tip), Data: data}); err != nil {
				t.Fatal(err)
			}
		}
		want = append(want, string(ref))
	}
	all, err := w.bodies()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(all, string(rune(bodySep)))
	if len(got) != len(want) {
		t.Fatalf("%d bodies, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("body %d (%s, %s):\n got %s\nwant %s", i, evs[i].Type, format[i], got[i], want[i])
		}
	}
}
