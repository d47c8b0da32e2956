package handlers

import (
	"encoding/json"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// flood sends n copies of one request at once, as a client racing
// itself would, and counts the answers by status and error message.
func flood(in *instance, n int, method, path, key, body string) map[string]int {
	var mu sync.Mutex
	got := map[string]int{}
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := httptest.NewRequest(method, path, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+key)
			req.RemoteAddr = "203.0.113.7:4242"
			w := httptest.NewRecorder()
			in.srv.Handler().ServeHTTP(w, req)
			var r struct {
				Error string `json:"error"`
			}
			_ = json.Unmarshal(w.Body.Bytes(), &r)
			mu.Lock()
			got[strconv.Itoa(w.Code)+" "+r.Error]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	return got
}

func (h *hookEnv) heldHooks(t *testing.T, user string) int {
	t.Helper()
	var n int
	if err := h.db.Get(&n, `SELECT count(*) FROM syncgate.webhooks WHERE user_account_id = $1 AND deleted_at IS NULL`, user); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestWebhookPlanLimit: a plan's max_webhooks_per_user replaces
// WEBHOOKS_PER_USER for its users, above or below it, with the same 409
// and the plan's number, and concurrent creations never pass it.
func TestWebhookPlanLimit(t *testing.T) {
	h := newHookEnv(t, func(e *adminEnv) { e.cfg.WebhooksPerUser = 3 })
	in := h.in
	big := h.createPlan(in, h.adminKey, `{"name":"Big","rate_limit_per_minute":10000,"max_webhooks_per_user":5}`)
	in.call(t, "PATCH", "/v1/admin/users/"+h.userID, h.adminKey, `{"plan_id":"`+big+`"}`).want(t, 200, "")

	// Above the global default: the plan's 5, not 3, and never 6 at once.
	got := flood(in, 16, "POST", "/v1/webhooks", h.apiKey, `{}`)
	full5 := "409 Webhook limit reached: a user may hold at most 5 webhooks"
	if got["201 "] != 5 || got[full5] != 11 || h.heldHooks(t, h.userID) != 5 {
		t.Fatalf("plan 5 over global 3: %v, %d held", got, h.heldHooks(t, h.userID))
	}
	h.refused(t, "POST", "/v1/webhooks", h.apiKey, `{}`, 409, "Webhook limit reached: a user may hold at most 5 webhooks")

	// Below the global default: a second user of a plan allowing 2.
	small := h.createPlan(in, h.adminKey, `{"name":"Small","rate_limit_per_minute":10000,"max_webhooks_per_user":2}`)
	r := in.call(t, "POST", "/v1/admin/users", h.adminKey, `{"name":"s","plan_id":"`+small+`"}`).want(t, 201, "")
	var u struct {
		ID string `json:"id"`
	}
	r.into(t, &u)
	_, key := h.credential(in, h.adminKey, u.ID, "")
	got = flood(in, 12, "POST", "/v1/webhooks", key, `{}`)
	if got["201 "] != 2 || got["409 Webhook limit reached: a user may hold at most 2 webhooks"] != 10 || h.heldHooks(t, u.ID) != 2 {
		t.Fatalf("plan 2 under global 3: %v, %d held", got, h.heldHooks(t, u.ID))
	}

	// A plan change holds at the next creation; 0 allows none.
	in.call(t, "PATCH", "/v1/admin/plans/"+big, h.adminKey, `{"max_webhooks_per_user":0}`).want(t, 200, "")
	h.refused(t, "POST", "/v1/webhooks", h.apiKey, `{}`, 409, "Webhook limit reached: a user may hold at most 0 webhooks")
	// A plan that sets none, or no plan: WEBHOOKS_PER_USER.
	in.call(t, "PATCH", "/v1/admin/plans/"+big, h.adminKey, `{"max_webhooks_per_user":null}`).want(t, 200, "")
	h.refused(t, "POST", "/v1/webhooks", h.apiKey, `{}`, 409, "Webhook limit reached: a user may hold at most 3 webhooks")
	in.call(t, "PATCH", "/v1/admin/users/"+h.userID, h.adminKey, `{"plan_id":null}`).want(t, 200, "")
	h.refused(t, "POST", "/v1/webhooks", h.apiKey, `{}`, 409, "Webhook limit reached: a user may hold at most 3 webhooks")
	in.call(t, "PATCH", "/v1/admin/plans/"+small, h.adminKey, `{"max_webhooks_per_user":null}`).want(t, 200, "")
	got = flood(in, 4, "POST", "/v1/webhooks", key, `{}`)
	if got["201 "] != 1 || h.heldHooks(t, u.ID) != 3 {
		t.Fatalf("plan without a limit, global 3: %v, %d held", got, h.heldHooks(t, u.ID))
	}
}

// TestPlanCredentialCapConcurrent: concurrent credential creations for
// one user never pass its plan's max_credentials_per_user.
func TestPlanCredentialCapConcurrent(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	_, a := e.adminKey(in, "Partner", allPerms...)
	plan := e.createPlan(in, a, `{"name":"Three","rate_limit_per_minute":60,"max_credentials_per_user":3}`)
	r := in.call(t, "POST", "/v1/admin/users", a, `{"name":"u","plan_id":"`+plan+`"}`).want(t, 201, "")
	var u struct {
		ID string `json:"id"`
	}
	r.into(t, &u)
	got := flood(in, 12, "POST", "/v1/admin/credentials", a, `{"name":"c","user_account_id":"`+u.ID+`","network_id":0}`)
	var live int
	if err := e.db.Get(&live, `SELECT count(*) FROM syncgate.credentials WHERE user_account_id = $1 AND NOT revoked`, u.ID); err != nil {
		t.Fatal(err)
	}
	if got["201 "] != 3 || got["409 User already holds 3 active credentials, the most its plan allows"] != 9 || live != 3 {
		t.Fatalf("%v, %d live", got, live)
	}
}
