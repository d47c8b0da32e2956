package handlers

import (
	"encoding/json"
	"testing"
)

// A webhook asks for block, epoch and delegation events in Blockfrost's
// format, watching a pool and DReps: stored canonical (pool1…, CIP-129
// drep1…), shown with its format; a webhook naming neither keeps the
// standard format and the transaction events.
func TestWebhookKindsAndFormat(t *testing.T) {
	h := newHookEnv(t, nil)
	w := h.create(t, `{"format":"blockfrost","event_types":["block.added","epoch.started","delegation.confirmed","delegation.rolled_back"],
		"items":[{"kind":"pool","value":"0f292fcaa02b8b2f9b3c8f9fd8e0bb21abedb692a6d5058df3ef2735"},
		{"kind":"drep","value":"drep1ytf29wgf5llmd22ankjewqrdcjvsx9zvyru2qlpwjyr042gajpq70"},
		{"kind":"drep","value":"drep_always_abstain"}]}`)
	var got struct {
		Format     string   `json:"format"`
		EventTypes []string `json:"event_types"`
		Items      int      `json:"items"`
	}
	h.in.call(t, "GET", "/v1/webhooks/"+w.ID, h.apiKey, "").want(t, 200, "").into(t, &got)
	if got.Format != "blockfrost" || len(got.EventTypes) != 4 || got.Items != 3 {
		t.Fatalf("webhook %+v", got)
	}
	var page struct {
		Items []struct{ Kind, Value string } `json:"items"`
	}
	h.in.call(t, "GET", "/v1/webhooks/"+w.ID+"/items", h.apiKey, "").want(t, 200, "").into(t, &page)
	want := map[string]bool{"pool pool1pu5jlj4q9w9jlxeu370a3c9myx47md5j5m2str0naunn2q3lkdy": true,
		"drep drep1ytf29wgf5llmd22ankjewqrdcjvsx9zvyru2qlpwjyr042gajpq70": true, "drep drep_always_abstain": true}
	for _, it := range page.Items {
		if !want[it.Kind+" "+it.Value] {
			t.Errorf("item %+v", it)
		}
	}
	if len(page.Items) != len(want) {
		t.Errorf("%d items", len(page.Items))
	}
	plain := h.create(t, `{}`)
	h.in.call(t, "GET", "/v1/webhooks/"+plain.ID, h.apiKey, "").want(t, 200, "").into(t, &got)
	if b, _ := json.Marshal(got.EventTypes); got.Format != "standard" || string(b) != `["tx.confirmed","tx.rolled_back"]` {
		t.Errorf("defaults %+v", got)
	}
}
