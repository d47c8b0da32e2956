package delivery

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/syncgate/syncgate/internal/devtools/jsclients"
	"github.com/syncgate/syncgate/internal/events"
)

// bfCase is one push as blockfrost-js is asked to verify it.
type bfCase struct {
	Body   string `json:"body"`
	Header string `json:"header"`
	Secret string `json:"secret"`
}

// shown is a key as the user is shown it (the Blockfrost auth token).
func shown(key []byte) string { return events.SecretPrefix + base64.StdEncoding.EncodeToString(key) }

// bfVerify runs blockfrost-js's verifyWebhookSignature over cases.
func bfVerify(t *testing.T, cases []bfCase) []string {
	t.Helper()
	in, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	out, err := jsclients.Run(t, context.Background(), "testdata/bf_verify.mjs", map[string]string{"CASES": string(in)})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := json.Unmarshal(out, &got); err != nil || len(got) != len(cases) {
		t.Fatalf("printed %s (%v)", out, err)
	}
	return got
}

// Every push to a Blockfrost-format webhook, before, during and after a
// secret roll, verifies with blockfrost-js 6.2.0's verifyWebhookSignature
// under the secret the user was shown (both during the roll); a tampered
// body, a stale timestamp and a secret that does not sign are refused.
// The bodies are Blockfrost envelopes, in the form JSON.stringify gives
// them back (strings and numbers JavaScript writes otherwise than Go).
func TestBlockfrostPushVerifiedByBlockfrostJS(t *testing.T) {
	e := newEnv(t)
	rc := &receiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	k1, k2, other := randomKey(t), randomKey(t), randomKey(t)
	hook := e.webhook(t, srv.URL+"/hook", k1)
	if _, err := e.db.Exec(`UPDATE syncgate.webhooks SET format = 'blockfrost' WHERE id = $1`, hook); err != nil {
		t.Fatal(err)
	}
	e.service(t, Options{AllowPrivate: true}, true)

	tricky := `[{"tx":{"hash":"ab","note":"<a href=\"x\">&amp;</a> \u2028\u2029 \u0001\u001f\b\f tab\t é 🙂",` +
		`"small":0.0000001,"zero":-0.0,"big":1e21,"exp":1E+2,"frac":2.50,"int":9007199254740993}}]`
	decide := func() uuid.UUID {
		ctx := context.Background()
		tx := e.db.MustBeginTx(ctx, nil)
		d, err := e.store.AppendEvents(ctx, tx, "preprod", []events.NewEvent{
			{WebhookID: hook, Type: events.TypeTxConfirmed, Data: events.TxConfirmed{TxHash: "ab"},
				Blockfrost: &events.BlockfrostPayload{Type: events.BlockfrostTransaction, Payload: []byte(tricky)}},
			{WebhookID: hook, Type: events.TypeWebhookTest, Data: events.WebhookNote{Message: "<test> & \u2028"}},
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		return d[0].ID
	}
	decide()
	eventually(t, "pushes before the roll", func() bool { return len(rc.requests()) == 2 })
	s1, _ := e.sealer.Seal(k1)
	s2, _ := e.sealer.Seal(k2)
	if _, err := e.db.Exec(`UPDATE syncgate.webhooks SET secret_sealed = $2, previous_secret_sealed = $3,
		previous_secret_expires_at = now() + interval '1 hour' WHERE id = $1`, hook, s2, s1); err != nil {
		t.Fatal(err)
	}
	decide()
	eventually(t, "pushes during the roll", func() bool { return len(rc.requests()) == 4 })
	if _, err := e.db.Exec(`UPDATE syncgate.webhooks SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`, hook); err != nil {
		t.Fatal(err)
	}
	decide()
	eventually(t, "pushes after the roll", func() bool { return len(rc.requests()) == 6 })

	reqs := rc.requests()
	var cases []bfCase
	var want []bool
	add := func(body, header string, key []byte, ok bool) {
		cases, want = append(cases, bfCase{Body: body, Header: header, Secret: shown(key)}), append(want, ok)
	}
	for i, g := range reqs {
		h := g.header.Get("Blockfrost-Signature")
		if g.header.Get("webhook-signature") != "" || !strings.HasPrefix(h, "t=") {
			t.Fatalf("push %d headers %v", i, g.header)
		}
		var env map[string]any
		if err := json.Unmarshal(g.body, &env); err != nil || env["api_version"] != float64(1) || env["webhook_id"] != hook.String() {
			t.Fatalf("push %d body %s", i, g.body)
		}
		if typ := env["type"]; typ != events.BlockfrostTransaction && typ != events.TypeWebhookTest {
			t.Errorf("push %d type %v", i, typ)
		}
		body := string(g.body)
		switch i / 2 {
		case 0: // before the roll: k1 only
			add(body, h, k1, true)
			add(body, h, k2, false)
		case 1: // during: either
			add(body, h, k1, true)
			add(body, h, k2, true)
		case 2: // after: k2 only
			add(body, h, k2, true)
			add(body, h, k1, false)
		}
		add(body, h, other, false)
		add(strings.Replace(body, `"api_version":1`, `"api_version":2`, 1), h, k2, false) // tampered
	}
	// The same body signed 11 minutes ago is stale (blockfrost-js allows
	// 600 s); signed now it verifies.
	body := reqs[5].body
	add(string(body), blockfrostSignature([][]byte{k2}, time.Now().Add(-11*time.Minute).Unix(), body), k2, false)
	add(string(body), blockfrostSignature([][]byte{k2}, time.Now().Unix(), body), k2, true)

	got := bfVerify(t, cases)
	for i, ok := range want {
		if (got[i] == "ok") != ok {
			t.Errorf("case %d (%s, want verified %v): %s", i, cases[i].Header, ok, got[i])
		}
	}
	if n := strings.Count(reqs[2].header.Get("Blockfrost-Signature"), ",v1="); n != 2 {
		t.Errorf("%d signatures during the roll", n)
	}
	if !strings.Contains(got[len(got)-2], "tolerance") {
		t.Errorf("stale push refused with %q", got[len(got)-2])
	}
}
