package clientcheck_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// receiver is a webhook endpoint: it keeps every push it gets.
type receiver struct {
	srv *httptest.Server
	mu  sync.Mutex
	got []push
}

type push struct {
	header http.Header
	body   []byte
}

func newReceiver(t *testing.T) *receiver {
	rc := &receiver{}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.got = append(rc.got, push{header: r.Header.Clone(), body: b})
		rc.mu.Unlock()
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

// webhook is a webhook of the stack's user pushing to a receiver.
type webhook struct {
	ID     string
	Secret string
	rc     *receiver
}

// watch registers a webhook for addresses, pushing to a new receiver.
func (s *stack) watch(t *testing.T, addresses ...string) *webhook {
	t.Helper()
	var items []map[string]string
	for _, a := range addresses {
		items = append(items, map[string]string{"kind": "address", "value": a})
	}
	rc := newReceiver(t)
	status, raw := s.do(t, "POST", "/v1/webhooks", s.key, mustJSON(map[string]any{"url": rc.srv.URL + "/hook", "items": items}))
	var env struct {
		Data struct{ ID, Secret string }
	}
	if status != http.StatusCreated || json.Unmarshal(raw, &env) != nil || env.Data.Secret == "" {
		t.Fatalf("POST /v1/webhooks: %d %s", status, raw)
	}
	return &webhook{ID: env.Data.ID, Secret: env.Data.Secret, rc: rc}
}

// confirmed waits for the pushed tx.confirmed event of tx hash and checks
// its Standard Webhooks signature under the webhook's secret.
func (w *webhook) confirmed(t *testing.T, hash string, within time.Duration) txConfirmed {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		w.rc.mu.Lock()
		got := append([]push(nil), w.rc.got...)
		w.rc.mu.Unlock()
		for _, p := range got {
			var ev struct {
				Type string
				Data txConfirmed
			}
			if json.Unmarshal(p.body, &ev) == nil && ev.Type == "tx.confirmed" && ev.Data.TxHash == hash {
				if !w.signed(p) {
					t.Errorf("webhook push for %s: signature %q does not verify", hash, p.header.Get("webhook-signature"))
				}
				return ev.Data
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no tx.confirmed for %s pushed within %s (%d pushes)", hash, within, len(got))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// signed checks a push's webhook-signature: HMAC-SHA256 of
// "id.timestamp.body" under the secret (whsec_ + base64).
func (w *webhook) signed(p push) bool {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(w.Secret, "whsec_"))
	if err != nil {
		return false
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(p.header.Get("webhook-id") + "." + p.header.Get("webhook-timestamp") + "."))
	mac.Write(p.body)
	want := base64.StdEncoding.EncodeToString(mac.Sum(nil))
	for _, sig := range strings.Fields(p.header.Get("webhook-signature")) {
		if v, ok := strings.CutPrefix(sig, "v1,"); ok && hmac.Equal([]byte(v), []byte(want)) {
			return true
		}
	}
	return false
}

type txConfirmed struct {
	TxHash string `json:"tx_hash"`
	Items  []struct {
		Kind, Value string
		Received    struct {
			Lovelace string
			Assets   []struct{ Unit, Quantity string }
		}
	}
}
