package handlers

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/syncgate/syncgate/internal/events"
)

// Both deliveries routes show the signature headers the last attempt sent
// (as the delivery service records them): null before any attempt, the
// recorded list, in order, after one, and the next attempt's after it.
func TestWebhookDeliverySignatureHeaders(t *testing.T) {
	h := newHookEnv(t, nil)
	w := h.create(t, `{"url":"https://example.com/hook","format":"blockfrost"}`)
	var test struct {
		EventID string `json:"event_id"`
	}
	h.in.call(t, "POST", "/v1/webhooks/"+w.ID+"/test", h.apiKey, "").want(t, 201, "").into(t, &test)
	type delivery struct {
		EventID string              `json:"event_id"`
		Headers *events.SentHeaders `json:"last_signature_headers"`
		Code    *int                `json:"last_code"`
	}
	read := func() (user, adm delivery) {
		t.Helper()
		var us, as []delivery
		h.in.call(t, "GET", "/v1/webhooks/"+w.ID+"/deliveries", h.apiKey, "").want(t, 200, "").into(t, &us)
		h.in.call(t, "GET", "/v1/admin/users/"+h.userID+"/webhooks/"+w.ID+"/deliveries", h.adminKey, "").want(t, 200, "").into(t, &as)
		if len(us) != 1 || len(as) != 1 || us[0].EventID != test.EventID {
			t.Fatalf("deliveries %+v %+v", us, as)
		}
		if mustJSON(t, us[0]) != mustJSON(t, as[0]) {
			t.Fatalf("user route %s, admin route %s", mustJSON(t, us[0]), mustJSON(t, as[0]))
		}
		return us[0], as[0]
	}
	if d, _ := read(); d.Headers != nil {
		t.Fatalf("headers before any attempt: %v", *d.Headers)
	}
	record := func(code int, hs events.SentHeaders) {
		t.Helper()
		status := events.DeliveryFailed
		if code == 200 {
			status = events.DeliverySucceeded
		}
		got, err := h.store.RecordAttempts(context.Background(), []events.Attempt{{EventID: uuid.MustParse(test.EventID),
			Status: status, Code: code, At: time.Now(), Headers: hs}})
		if err != nil || !got[uuid.MustParse(test.EventID)] {
			t.Fatalf("record %v %v", got, err)
		}
	}
	first := events.SentHeaders{{Name: "Blockfrost-Signature", Value: "t=1700000000,v1=" + "ab12"}}
	record(502, first)
	if d, _ := read(); d.Headers == nil || mustJSON(t, *d.Headers) != `[{"name":"Blockfrost-Signature","value":"t=1700000000,v1=ab12"}]` || *d.Code != 502 {
		t.Fatalf("after the first attempt %s", mustJSON(t, d))
	}
	// A later attempt's headers replace them (the standard trio, in order).
	trio := events.SentHeaders{{Name: "webhook-id", Value: test.EventID}, {Name: "webhook-timestamp", Value: "1700000060"},
		{Name: "webhook-signature", Value: "v1,c2lnbmF0dXJl"}}
	record(200, trio)
	if d, _ := read(); d.Headers == nil || mustJSON(t, *d.Headers) != mustJSON(t, trio) {
		t.Fatalf("after the second attempt %s", mustJSON(t, d))
	}
	// An attempt that sent nothing clears them (after a redelivery).
	h.in.call(t, "POST", "/v1/webhooks/"+w.ID+"/events/"+test.EventID+"/redeliver", h.apiKey, "").want(t, 202, "")
	record(0, nil)
	if d, _ := read(); d.Headers != nil {
		t.Fatalf("an attempt without a request kept %v", *d.Headers)
	}
}
