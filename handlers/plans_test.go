package handlers

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// createPlan creates a plan through the API and returns its id.
func (e *adminEnv) createPlan(in *instance, key, body string) string {
	e.t.Helper()
	r := in.call(e.t, "POST", "/v1/admin/plans", key, body).want(e.t, 201, "")
	var d struct {
		ID string `json:"id"`
	}
	r.into(e.t, &d)
	return d.ID
}

func TestPlansCRUDTenancyAudit(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	keyA, a := e.adminKey(in, "Partner A", allPerms...)
	_, b := e.adminKey(in, "Partner B", allPerms...)
	_, noUsers := e.adminKey(in, "Partner C", admin.PermManageCredentials)

	r := in.call(t, "POST", "/v1/admin/plans", a, `{"name":"Pro","rate_limit_per_minute":600,"daily_quota":1000,"route_groups":["chain","history","chain"]}`).want(t, 201, "")
	var p struct {
		ID          string   `json:"id"`
		Name        string   `json:"name"`
		Rate        int      `json:"rate_limit_per_minute"`
		Burst       *int     `json:"burst"`
		Daily       *int64   `json:"daily_quota"`
		Monthly     *int64   `json:"monthly_quota"`
		Groups      []string `json:"route_groups"`
		MaxCreds    *int     `json:"max_credentials_per_user"`
		AdminKeyID  string   `json:"admin_key_id"`
		UpdatedAtNS *string  `json:"updated_at"`
	}
	r.into(t, &p)
	if p.Name != "Pro" || p.Rate != 600 || p.Burst != nil || p.Daily == nil || *p.Daily != 1000 || p.Monthly != nil ||
		strings.Join(p.Groups, ",") != "chain,history" || p.AdminKeyID != keyA || r.Message != "Plan created successfully" {
		t.Fatalf("created %s", r.Raw)
	}
	// Route groups default to all of them.
	basic := e.createPlan(in, a, `{"name":"Basic","rate_limit_per_minute":60}`)
	r = in.call(t, "GET", "/v1/admin/plans/"+basic, a, "").want(t, 200, "")
	if !strings.Contains(r.Raw, `"route_groups":["chain","history","submit","mempool","webhooks"]`) {
		t.Fatalf("default groups: %s", r.Raw)
	}

	// Tenancy: B sees none of A's plans; ids answer 404 like missing ones.
	in.call(t, "GET", "/v1/admin/plans", b, "").want(t, 200, "")
	if _, _, total, _ := in.call(t, "GET", "/v1/admin/plans", b, "").page(t); total != 0 {
		t.Fatalf("B sees %d plans", total)
	}
	if _, _, total, _ := in.call(t, "GET", "/v1/admin/plans", a, "").page(t); total != 2 {
		t.Fatalf("A sees %d plans", total)
	}
	e.unchanged(t, func() {
		for _, c := range []struct{ method, body string }{{"GET", ""}, {"PATCH", `{"name":"x"}`}, {"DELETE", ""}} {
			in.call(t, c.method, "/v1/admin/plans/"+p.ID, b, c.body).want(t, 404, "Plan not found")
			in.call(t, c.method, "/v1/admin/plans/not-a-uuid", a, c.body).want(t, 404, "Plan not found")
		}
		in.call(t, "GET", "/v1/admin/plans", noUsers, "").want(t, 403, "Permission denied: manage_users required")
		in.call(t, "POST", "/v1/admin/plans", testBootstrapKey, `{"name":"x","rate_limit_per_minute":1}`).want(t, 400, "Bootstrap key cannot manage plans. Create an admin key first.")
		// B cannot put its user on A's plan.
		in.call(t, "POST", "/v1/admin/users", b, `{"name":"u","plan_id":"`+p.ID+`"}`).want(t, 400, "plan_id must be the id of one of your plans, or null")
	})
	// The same name in another partner is fine.
	e.createPlan(in, b, `{"name":"Pro","rate_limit_per_minute":1}`)

	// Bad input: 400 (409 for a taken name), nothing written.
	e.unchanged(t, func() {
		for _, c := range []struct {
			body, msg string
			status    int
		}{
			{`{"rate_limit_per_minute":1}`, "Name is required and must be a non-empty string", 400},
			{`{"name":"","rate_limit_per_minute":1}`, "Name is required and must be a non-empty string", 400},
			{`{"name":"x"}`, "rate_limit_per_minute is required and must be an integer from 1 to 10000", 400},
			{`{"name":"x","rate_limit_per_minute":0}`, "rate_limit_per_minute must be an integer from 1 to 10000", 400},
			{`{"name":"x","rate_limit_per_minute":1,"daily_quota":0}`, "daily_quota must be an integer from 1 to 1000000000000, or null", 400},
			{`{"name":"x","rate_limit_per_minute":1,"daily_quota":-5}`, "daily_quota must be an integer from 1 to 1000000000000, or null", 400},
			{`{"name":"x","rate_limit_per_minute":1,"monthly_quota":1.5}`, "monthly_quota must be an integer from 1 to 1000000000000, or null", 400},
			{`{"name":"x","rate_limit_per_minute":1,"burst":0}`, "burst must be an integer from 1 to 10000, or null", 400},
			{`{"name":"x","rate_limit_per_minute":1,"route_groups":["chain","nft"]}`, "route_groups must be a non-empty array of: chain, history, submit, mempool, webhooks", 400},
			{`{"name":"x","rate_limit_per_minute":1,"route_groups":[]}`, "route_groups must be a non-empty array of: chain, history, submit, mempool, webhooks", 400},
			{`{"name":"x","rate_limit_per_minute":1,"max_credentials_per_user":0}`, "max_credentials_per_user must be an integer from 1 to 1000000, or null", 400},
			{`{"name":"x","rate_limit_per_minute":1,"max_webhooks_per_user":-1}`, "max_webhooks_per_user must be an integer from 0 to 1000000, or null", 400},
			{`{"name":"Pro","rate_limit_per_minute":1}`, `A plan named "Pro" already exists`, 409},
			{`[1]`, "Invalid JSON body", 400},
		} {
			in.call(t, "POST", "/v1/admin/plans", a, c.body).want(t, c.status, c.msg)
		}
		in.call(t, "PATCH", "/v1/admin/plans/"+p.ID, a, `{}`).want(t, 400, "At least one plan field must be provided")
		in.call(t, "PATCH", "/v1/admin/plans/"+p.ID, a, `{"name":"Basic"}`).want(t, 409, `A plan named "Basic" already exists`)
		in.call(t, "PATCH", "/v1/admin/plans/"+p.ID, a, `{"daily_quota":0}`).want(t, 400, "daily_quota must be an integer from 1 to 1000000000000, or null")
		in.call(t, "POST", "/v1/admin/users", a, `{"name":"u","plan_id":"`+newUUID()+`"}`).want(t, 400, "plan_id must be the id of one of your plans, or null")
		in.call(t, "POST", "/v1/admin/users", a, `{"name":"u","plan_id":42}`).want(t, 400, "plan_id must be the id of one of your plans, or null")
	})

	// PATCH: null clears a quota; a user on the plan blocks deletion.
	r = in.call(t, "PATCH", "/v1/admin/plans/"+p.ID, a, `{"daily_quota":null,"monthly_quota":50000,"burst":20}`).want(t, 200, "")
	if !strings.Contains(r.Raw, `"daily_quota":null`) || !strings.Contains(r.Raw, `"monthly_quota":50000`) || !strings.Contains(r.Raw, `"burst":20`) {
		t.Fatalf("patched %s", r.Raw)
	}
	if !strings.Contains(r.Raw, `"users":0`) {
		t.Fatalf("a plan no user is on: %s", r.Raw)
	}
	u := e.user(in, a, "Customer")
	in.call(t, "PATCH", "/v1/admin/users/"+u, a, `{"plan_id":"`+p.ID+`"}`).want(t, 200, "")
	// Users on the plan, counted on every read: one moved onto it, one
	// created on it (suspended still counts: it still blocks deletion),
	// one on Basic.
	r = in.call(t, "POST", "/v1/admin/users", a, `{"name":"Second","plan_id":"`+p.ID+`"}`).want(t, 201, "")
	var second struct {
		ID     string `json:"id"`
		PlanID string `json:"plan_id"`
	}
	r.into(t, &second)
	if second.PlanID != p.ID {
		t.Fatalf("created on the plan: %s", r.Raw)
	}
	in.call(t, "POST", "/v1/admin/users/"+second.ID+"/suspend", a, "").want(t, 200, "")
	in.call(t, "POST", "/v1/admin/users", a, `{"name":"Third","plan_id":"`+basic+`"}`).want(t, 201, "")
	users := func(r reply) map[string]int64 {
		t.Helper()
		var ps []struct {
			ID    string `json:"id"`
			Users int64  `json:"users"`
		}
		r.into(t, &ps)
		m := map[string]int64{}
		for _, pl := range ps {
			m[pl.ID] = pl.Users
		}
		return m
	}
	if got := users(in.call(t, "GET", "/v1/admin/plans", a, "").want(t, 200, "")); got[p.ID] != 2 || got[basic] != 1 || len(got) != 2 {
		t.Fatalf("listed users per plan %v", got)
	}
	if r = in.call(t, "GET", "/v1/admin/plans/"+p.ID, a, "").want(t, 200, ""); !strings.Contains(r.Raw, `"users":2`) {
		t.Fatalf("one plan: %s", r.Raw)
	}
	if r = in.call(t, "PATCH", "/v1/admin/plans/"+basic, a, `{"burst":5}`).want(t, 200, ""); !strings.Contains(r.Raw, `"users":1`) {
		t.Fatalf("patched plan: %s", r.Raw)
	}
	in.call(t, "PATCH", "/v1/admin/users/"+second.ID, a, `{"plan_id":null}`).want(t, 200, "")
	e.unchanged(t, func() {
		in.call(t, "DELETE", "/v1/admin/plans/"+p.ID, a, "").want(t, 409, "Plan cannot be deleted while users are on it")
	})
	r = in.call(t, "GET", "/v1/admin/users/"+u, a, "").want(t, 200, "")
	if !strings.Contains(r.Raw, `"plan_id":"`+p.ID+`"`) {
		t.Fatalf("user %s", r.Raw)
	}
	in.call(t, "PATCH", "/v1/admin/users/"+u, a, `{"plan_id":null}`).want(t, 200, "")
	in.call(t, "DELETE", "/v1/admin/plans/"+p.ID, a, "").want(t, 200, "")
	in.call(t, "GET", "/v1/admin/plans/"+p.ID, a, "").want(t, 404, "Plan not found")

	// Audit: every change, in the acting key's name.
	var actions []string
	if err := e.db.Select(&actions, `SELECT action FROM syncgate.audit_logs WHERE target_type = 'plan' AND admin_key_id = $1 ORDER BY created_at, id`, keyA); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(actions, " ")
	for _, want := range []string{"plan.created", "plan.viewed", "plan.listed", "plan.updated", "plan.deleted"} {
		if !strings.Contains(got, want) {
			t.Fatalf("audit %q lacks %s", got, want)
		}
	}
	var changes string
	if err := e.db.Get(&changes, `SELECT details::text FROM syncgate.audit_logs WHERE action = 'user_account.updated' AND target_id = $1 ORDER BY created_at LIMIT 1`, u); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(changes, p.ID) {
		t.Fatalf("user plan change audited as %s", changes)
	}
}

func TestPlanCredentialCapAndDefaults(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	_, a := e.adminKey(in, "Partner", allPerms...)
	plan := e.createPlan(in, a, `{"name":"Small","rate_limit_per_minute":77,"max_credentials_per_user":2,"route_groups":["submit"]}`)
	r := in.call(t, "POST", "/v1/admin/users", a, `{"name":"u","plan_id":"`+plan+`"}`).want(t, 201, "")
	var u struct {
		ID string `json:"id"`
	}
	r.into(t, &u)
	_, k1 := e.credential(in, a, u.ID, "")
	e.credential(in, a, u.ID, `,"rate_limit_per_minute":5`)
	e.unchanged(t, func() {
		body := `{"name":"c","user_account_id":"` + u.ID + `","network_id":0}`
		in.call(t, "POST", "/v1/admin/credentials", a, body).want(t, 409, "User already holds 2 active credentials, the most its plan allows")
	})
	// The key made without a limit takes the plan's; its route groups hold.
	r = in.call(t, "GET", "/v1/test/whoami", k1, "").want(t, 200, "")
	if r.Header.Get("X-RateLimit-Limit") != "77" {
		t.Fatalf("limit %q", r.Header.Get("X-RateLimit-Limit"))
	}
	in.srv.groups["/v1/test/whoami"] = admin.GroupChain
	in.call(t, "GET", "/v1/test/whoami", k1, "").want(t, 403, "Your plan does not include this route (route group chain)")
	// A plan change holds on the next request.
	in.call(t, "PATCH", "/v1/admin/plans/"+plan, a, `{"rate_limit_per_minute":88,"route_groups":["chain"]}`).want(t, 200, "")
	r = in.call(t, "GET", "/v1/test/whoami", k1, "").want(t, 200, "")
	if r.Header.Get("X-RateLimit-Limit") != "88" {
		t.Fatalf("limit after the change %q", r.Header.Get("X-RateLimit-Limit"))
	}
}

func TestQuotaEnforcementAndRollover(t *testing.T) {
	e := newAdminEnv(t)
	e.clock.t = time.Date(2030, 1, 15, 23, 59, 0, 0, time.UTC)
	in := e.instance()
	other := e.instance()
	_, a := e.adminKey(in, "Partner", allPerms...)
	plan := e.createPlan(in, a, `{"name":"Metered","rate_limit_per_minute":1000,"daily_quota":5,"monthly_quota":7}`)
	r := in.call(t, "POST", "/v1/admin/users", a, `{"name":"u","plan_id":"`+plan+`"}`).want(t, 201, "")
	var u struct {
		ID string `json:"id"`
	}
	r.into(t, &u)
	_, k1 := e.credential(in, a, u.ID, "")
	_, k2 := e.credential(in, a, u.ID, "")
	// Five requests a day for the user, whichever key and instance.
	for i := 0; i < 5; i++ {
		inst, key := in, k1
		if i%2 == 1 {
			inst, key = other, k2
		}
		r := inst.call(t, "GET", "/v1/test/whoami", key, "").want(t, 200, "")
		pol, lim := parseRateLimitHeaders(t, r.Header)
		if pol["daily"] != [2]int64{5, 86400} || pol["monthly"] != [2]int64{7, 31 * 86400} || pol["minute"][1] != 60 {
			t.Fatalf("policies %v", pol)
		}
		if lim.name != "daily" || lim.r != int64(4-i) || lim.t != 60 {
			t.Fatalf("request %d: RateLimit %+v", i, lim)
		}
	}
	r = in.call(t, "GET", "/v1/test/whoami", k1, "").want(t, 402, "Daily request quota exceeded")
	if r.Header.Get("Retry-After") != "60" || !strings.Contains(r.Raw, `"details":{"policy":"daily","limit":5,"window_seconds":86400}`) {
		t.Fatalf("402: Retry-After %q, %s", r.Header.Get("Retry-After"), r.Raw)
	}
	if _, lim := parseRateLimitHeaders(t, r.Header); lim.name != "daily" || lim.r != 0 {
		t.Fatalf("refusal names %+v", lim)
	}
	// Past midnight the day starts over, the month does not: 6 counted
	// (the refusal too, as usage counts it), one left this month.
	e.clock.Add(90 * time.Second)
	in.call(t, "GET", "/v1/test/whoami", k1, "").want(t, 200, "")
	r = other.call(t, "GET", "/v1/test/whoami", k2, "").want(t, 402, "Monthly request quota exceeded")
	if r.Header.Get("Retry-After") != strconv.Itoa(int((16*24*time.Hour - 30*time.Second).Seconds())) {
		t.Fatalf("monthly Retry-After %q", r.Header.Get("Retry-After"))
	}
	// Lifting the quota holds on the next request.
	in.call(t, "PATCH", "/v1/admin/plans/"+plan, a, `{"monthly_quota":null}`).want(t, 200, "")
	in.call(t, "GET", "/v1/test/whoami", k1, "").want(t, 200, "")
	// A user without a plan sees only the minute policy.
	_, k3 := e.credential(in, a, e.user(in, a, "free"), "")
	r = in.call(t, "GET", "/v1/test/whoami", k3, "").want(t, 200, "")
	if pol, lim := parseRateLimitHeaders(t, r.Header); len(pol) != 1 || lim.name != "minute" {
		t.Fatalf("free user: %v %+v", pol, lim)
	}
}

// TestQuotaExactAcrossInstances: four instances over one Redis and one
// admin database hammer one user with a daily quota of 2000; Redis is
// flushed halfway. The allowed total must stay within 0.5 % of the quota.
func TestQuotaExactAcrossInstances(t *testing.T) {
	e := newAdminEnv(t)
	own := testdb.NewRedisServer(t)
	rc, err := cache.New(own.URL(), "sgq:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rc.Close() })
	e.redis = rc
	e.fastTimeout = 2 * time.Second // no local fallback under CPU load
	const quotaN = 2000
	var ins []*instance
	var recs []*admin.UsageRecorder
	for i := 0; i < 4; i++ {
		rec := admin.NewUsageRecorder(e.db, 300*time.Millisecond, quiet)
		rec.Start()
		t.Cleanup(func() { rec.Close(context.Background()) })
		recs = append(recs, rec)
		ins = append(ins, e.usageInstance(rec))
	}
	_, a := e.adminKey(ins[0], "Partner", allPerms...)
	plan := e.createPlan(ins[0], a, `{"name":"Exact","rate_limit_per_minute":10000,"daily_quota":`+strconv.Itoa(quotaN)+`}`)
	r := ins[0].call(t, "POST", "/v1/admin/users", a, `{"name":"u","plan_id":"`+plan+`"}`).want(t, 201, "")
	var u struct {
		ID string `json:"id"`
	}
	r.into(t, &u)
	var keys []string
	for i := 0; i < 4; i++ {
		_, k := e.credential(ins[0], a, u.ID, "")
		keys = append(keys, k)
	}
	var allowed, refused, sent atomic.Int64
	var flushed sync.Once
	var wg sync.WaitGroup
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			inst, key := ins[w%4], keys[(w/4)%4]
			for refused.Load() < 200 {
				req := httptest.NewRequest("GET", "/v1/test/whoami", nil)
				req.Header.Set("Authorization", "Bearer "+key)
				rw := httptest.NewRecorder()
				inst.srv.Handler().ServeHTTP(rw, req)
				n := sent.Add(1)
				switch rw.Code {
				case 200:
					allowed.Add(1)
				case 402:
					refused.Add(1)
				default:
					t.Errorf("status %d: %s", rw.Code, rw.Body.String())
					return
				}
				if n == quotaN/2 {
					flushed.Do(func() {
						if err := rc.Redis().FlushAll(context.Background()).Err(); err != nil {
							t.Error(err)
						}
					})
				}
			}
		}(w)
	}
	wg.Wait()
	got := allowed.Load()
	t.Logf("allowed %d of a quota of %d (%d refused, Redis flushed after %d requests)", got, quotaN, refused.Load(), quotaN/2)
	if d := got - quotaN; d > quotaN/200 || d < -quotaN/200 {
		t.Fatalf("allowed %d, quota %d: off by %d (more than 0.5 %%)", got, quotaN, d)
	}
}

// rateLimitItem is the RateLimit field's one item.
type rateLimitItem struct {
	name string
	r, t int64
}

// parseRateLimitHeaders parses RateLimit-Policy and RateLimit strictly as
// RFC 8941 lists whose items are strings or tokens with integer
// parameters; anything else fails the test. It returns each policy's
// {q, w} and the RateLimit item.
func parseRateLimitHeaders(t *testing.T, h http.Header) (map[string][2]int64, rateLimitItem) {
	t.Helper()
	pols, err := parseSFList(h.Get("RateLimit-Policy"))
	if err != nil {
		t.Fatalf("RateLimit-Policy %q: %v", h.Get("RateLimit-Policy"), err)
	}
	out := map[string][2]int64{}
	for _, p := range pols {
		q, okq := p.params["q"]
		w, okw := p.params["w"]
		if !okq || !okw || len(p.params) != 2 {
			t.Fatalf("policy %+v: want q and w", p)
		}
		out[p.value] = [2]int64{q, w}
	}
	items, err := parseSFList(h.Get("RateLimit"))
	if err != nil || len(items) != 1 {
		t.Fatalf("RateLimit %q: %v", h.Get("RateLimit"), err)
	}
	it := items[0]
	if _, known := out[it.value]; !known {
		t.Fatalf("RateLimit names %q, not a policy", it.value)
	}
	return out, rateLimitItem{name: it.value, r: it.params["r"], t: it.params["t"]}
}

type sfItem struct {
	value  string
	params map[string]int64
}

// parseSFList is RFC 8941 §4.2.1 for the subset the draft uses.
func parseSFList(s string) ([]sfItem, error) {
	var out []sfItem
	i := 0
	if s == "" {
		return nil, fmt.Errorf("empty field")
	}
	for {
		it, next, err := parseSFItem(s, i)
		if err != nil {
			return nil, err
		}
		out = append(out, it)
		i = next
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i == len(s) {
			return out, nil
		}
		if s[i] != ',' {
			return nil, fmt.Errorf("expected ',' at %d", i)
		}
		i++
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i == len(s) {
			return nil, fmt.Errorf("trailing comma")
		}
	}
}

func isLcalpha(c byte) bool { return c >= 'a' && c <= 'z' }
func isDigit(c byte) bool   { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool   { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

func parseSFItem(s string, i int) (sfItem, int, error) {
	it := sfItem{params: map[string]int64{}}
	switch {
	case i < len(s) && s[i] == '"':
		i++
		var b strings.Builder
		for {
			if i >= len(s) {
				return it, i, fmt.Errorf("unterminated string")
			}
			c := s[i]
			i++
			if c == '\\' {
				if i >= len(s) || (s[i] != '"' && s[i] != '\\') {
					return it, i, fmt.Errorf("bad escape")
				}
				b.WriteByte(s[i])
				i++
				continue
			}
			if c == '"' {
				break
			}
			if c < 0x20 || c > 0x7e {
				return it, i, fmt.Errorf("bad string character")
			}
			b.WriteByte(c)
		}
		it.value = b.String()
	case i < len(s) && (isAlpha(s[i]) || s[i] == '*'):
		j := i + 1
		for j < len(s) && (isAlpha(s[j]) || isDigit(s[j]) || strings.IndexByte("!#$%&'*+-.^_`|~:/", s[j]) >= 0) {
			j++
		}
		it.value, i = s[i:j], j
	default:
		return it, i, fmt.Errorf("item at %d is neither a string nor a token", i)
	}
	for i < len(s) && s[i] == ';' {
		i++
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i >= len(s) || !(isLcalpha(s[i]) || s[i] == '*') {
			return it, i, fmt.Errorf("bad parameter key at %d", i)
		}
		j := i + 1
		for j < len(s) && (isLcalpha(s[j]) || isDigit(s[j]) || s[j] == '_' || s[j] == '-' || s[j] == '.' || s[j] == '*') {
			j++
		}
		key := s[i:j]
		if j >= len(s) || s[j] != '=' {
			return it, j, fmt.Errorf("parameter %s is not an integer", key)
		}
		i = j + 1
		k := i
		if k < len(s) && s[k] == '-' {
			k++
		}
		d := k
		for k < len(s) && isDigit(s[k]) {
			k++
		}
		if k == d || k-d > 15 || (k < len(s) && s[k] == '.') {
			return it, k, fmt.Errorf("parameter %s is not an integer", key)
		}
		n, _ := strconv.ParseInt(s[i:k], 10, 64)
		if _, dup := it.params[key]; dup {
			return it, k, fmt.Errorf("duplicate parameter %s", key)
		}
		it.params[key] = n
		i = k
	}
	return it, i, nil
}

func TestSFParserRejects(t *testing.T) {
	for _, bad := range []string{``, `"a";q=1.5`, `"a";q`, `1;q=2`, `"a",`, `"a";Q=1`, `("a");q=1`, `"a" "b"`, `"a";q=1;q=2`, `"a;q=1`} {
		if _, err := parseSFList(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	got, err := parseSFList(`"minute";q=100;w=60, daily;q=5;w=86400`)
	if err != nil || len(got) != 2 || got[1].value != "daily" || got[0].params["q"] != 100 {
		t.Fatalf("%v %v", got, err)
	}
}

func newUUID() string {
	return fmt.Sprintf("%08x-0000-4000-8000-%012x", time.Now().UnixNano()&0xffffffff, time.Now().UnixNano())
}

// BenchmarkPlanQuota measures the hot path (authentication, rate limit,
// quota) per request with a warm credential cache and the real Redis:
// baseline (no middleware), a user without a plan, and a user on a plan
// with daily and monthly quotas (one more Redis round trip). cpu-ns/op is
// this process's CPU time (user + system) per request, which is what an
// instance spends; ns/op also holds the waits for Redis.
func BenchmarkPlanQuota(b *testing.B) {
	e := newAdminEnv(b)
	in := e.instance()
	_, key := e.adminKey(in, "bench", allPerms...)
	plan := e.createPlan(in, key, `{"name":"Big","rate_limit_per_minute":10000,"daily_quota":1000000000,"monthly_quota":1000000000}`)
	free := e.user(in, key, "free")
	r := in.call(b, "POST", "/v1/admin/users", key, `{"name":"metered","plan_id":"`+plan+`"}`).want(b, 201, "")
	var metered struct {
		ID string `json:"id"`
	}
	r.into(b, &metered)
	var freeKeys, planKeys []string
	for i := 0; i < 50; i++ {
		_, k := e.credential(in, key, free, `,"rate_limit_per_minute":10000`)
		freeKeys = append(freeKeys, k)
		in.call(b, "GET", "/v1/test/whoami", k, "").want(b, 200, "")
		_, k = e.credential(in, key, metered.ID, "")
		planKeys = append(planKeys, k)
		in.call(b, "GET", "/v1/test/whoami", k, "").want(b, 200, "")
	}
	in.srv.engine.GET("/v1/test/bare", httpx.H(func(c *gin.Context) error { httpx.OK(c, map[string]string{"credential_id": "x"}); return nil }))
	run := func(b *testing.B, path string, keys []string) {
		start := cpuTime()
		n := 0
		for i := 0; b.Loop(); i++ {
			req := httptest.NewRequest("GET", path, nil)
			if keys != nil {
				req.Header.Set("Authorization", "Bearer "+keys[i%len(keys)])
			}
			w := httptest.NewRecorder()
			in.srv.Handler().ServeHTTP(w, req)
			if w.Code != 200 {
				b.Fatalf("status %d: %s", w.Code, w.Body)
			}
			n++
		}
		b.ReportMetric(float64(cpuTime()-start)/float64(n), "cpu-ns/op")
	}
	b.Run("baseline", func(b *testing.B) { run(b, "/v1/test/bare", nil) })
	b.Run("noplan", func(b *testing.B) { run(b, "/v1/test/whoami", freeKeys) })
	b.Run("plan+quotas", func(b *testing.B) { run(b, "/v1/test/whoami", planKeys) })
}

// cpuTime is this process's user + system CPU time in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// TestDataRouteGroups: every data route has a plan route group, and every
// group named is one admin knows (so a plan can allow it).
func TestDataRouteGroups(t *testing.T) {
	s := New(Deps{Log: quiet})
	groups := dataRouteGroups()
	seen := map[string]bool{} // paths (several methods may share one)
	for _, r := range s.engine.Routes() {
		if !strings.HasPrefix(r.Path, "/v1/") || strings.HasPrefix(r.Path, "/v1/admin") || r.Path == "/v1/health" {
			continue
		}
		g, ok := groups[r.Path]
		if !ok || !admin.ValidRouteGroup(g) {
			t.Errorf("%s %s: route group %q", r.Method, r.Path, g)
		}
		seen[r.Path] = true
	}
	if len(seen) != len(groups) {
		t.Errorf("%d data route paths, %d in dataRouteGroups (a stale entry?)", len(seen), len(groups))
	}
}

// TestQuotaFallbackShared: a missed hot-path deadline never starts a
// quota from zero (the count continues from usage), and instances that all
// count alone grant what is left once in total, each its share.
func TestQuotaFallbackShared(t *testing.T) {
	e := newAdminEnv(t)
	e.rateInstances = 2
	e.quotaRefresh = time.Hour // one read of usage per instance: the shares alone decide
	const quotaN, before = 100, 40
	rec := func() *admin.UsageRecorder {
		r := admin.NewUsageRecorder(e.db, time.Hour, quiet) // flushed by hand
		t.Cleanup(func() { r.Close(context.Background()) })
		return r
	}
	onRedis := rec()
	c := e.usageInstance(onRedis)
	_, a := e.adminKey(c, "Partner", allPerms...)
	plan := e.createPlan(c, a, `{"name":"Q","rate_limit_per_minute":10000,"daily_quota":`+strconv.Itoa(quotaN)+`}`)
	r := c.call(t, "POST", "/v1/admin/users", a, `{"name":"u","plan_id":"`+plan+`"}`).want(t, 201, "")
	var u struct {
		ID string `json:"id"`
	}
	r.into(t, &u)
	_, key := e.credential(c, a, u.ID, "")
	for range before {
		c.call(t, "GET", "/v1/test/whoami", key, "").want(t, 200, "")
	}
	if err := onRedis.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	e.fastTimeout = time.Nanosecond // every hot-path call of the next two misses its deadline
	x, y := e.usageInstance(rec()), e.usageInstance(rec())
	count := map[int]int{}
	for i := range 2 * quotaN {
		in := x
		if i%2 == 1 {
			in = y
		}
		count[in.call(t, "GET", "/v1/test/whoami", key, "").Code]++
	}
	if count[200] != quotaN-before || count[402] != 2*quotaN-(quotaN-before) {
		t.Fatalf("statuses %v after %d of %d on Redis, want %d × 200", count, before, quotaN, quotaN-before)
	}
	if x.fast.Available() || y.fast.Available() {
		t.Fatal("a deadline was met: the test did not run the fallback")
	}
}
