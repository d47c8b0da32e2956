package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/handlers/httpx"
)

// The usage tests send real data requests through the real middleware
// chain (auth → usage → rate limit) of two server instances, each with
// its own admin.UsageRecorder, over one admin database and one Redis.
//
// The fixture chain generator is not on main yet, so no db-sync is served.
// Data requests are answered without one: /v1/test/slow (200, and it
// moves the servers' clock by slowMs, so response times are known
// exactly), /v1/test/whoami (200 at once), /v1/test/missing (404),
// /v1/test/chain (503: the credential's network is not served), the real
// routes GET /v1/tx/hash/zz and POST /v1/tx/submit (a 4xx/5xx whatever
// their implementation answers without a chain database), and 429s from a
// credential allowed 3 requests a minute. Keys that httpx.Fail authentication
// (401) count for no one. The ledger tallies each request by the status it
// actually got, so the test holds whatever the real routes answer.

const slowMs = 10

// usageTally is what the usage endpoints must report for some requests.
type usageTally struct {
	total, ok, failed int64
	ms                float64
}

func (u *usageTally) add(o usageTally) {
	u.total += o.total
	u.ok += o.ok
	u.failed += o.failed
	u.ms += o.ms
}

// traffic sends data requests, alternating between instances per key, and
// keeps the ledger of what must be counted: credential → UTC day → tally.
type traffic struct {
	t      *testing.T
	e      *adminEnv
	ins    []*instance
	sent   map[string]int
	ledger map[string]map[string]*usageTally
	// routes: credential → UTC day → route group → status classes and
	// the body bytes the client received.
	routes map[string]map[string]map[string]*routeTally
	codes  map[int]int
}

// routeTally is one route group's requests by status class (2xx…5xx)
// and body bytes.
type routeTally struct {
	class [4]int64
	bytes int64
}

func newTraffic(t *testing.T, e *adminEnv, ins ...*instance) *traffic {
	return &traffic{t: t, e: e, ins: ins, sent: map[string]int{}, ledger: map[string]map[string]*usageTally{},
		routes: map[string]map[string]map[string]*routeTally{}, codes: map[int]int{}}
}

// routeGroupOf is the usage route group of a test request's path: the
// plans' group of the real routes the usage tests call, "other" for the
// routes tests add.
func routeGroupOf(path string) string {
	switch {
	case strings.HasPrefix(path, "/v1/test/"):
		return admin.RouteGroupOther
	case strings.HasPrefix(path, "/v1/tx/submit"), strings.HasPrefix(path, "/v1/tx/status/"):
		return admin.GroupSubmit
	case strings.HasPrefix(path, "/v1/mempool"):
		return admin.GroupMempool
	case strings.HasPrefix(path, "/v1/tx/history/"), strings.HasPrefix(path, "/v1/tx/address/"):
		return admin.GroupHistory
	case strings.HasPrefix(path, "/v1/webhooks"):
		return admin.GroupWebhooks
	}
	return admin.GroupChain
}

// send makes one data request with key (of credential cred; "" for a key
// that must not authenticate) and records what it should count.
func (tr *traffic) send(cred, key, method, path string) int {
	tr.t.Helper()
	in := tr.ins[tr.sent[key]%len(tr.ins)]
	tr.sent[key]++
	day := tr.e.clock.Now().UTC().Format(time.DateOnly)
	body := ""
	if method == "POST" {
		body = `{"tx":"00","skipValidation":false}`
	}
	r := in.call(tr.t, method, path, key, body)
	tr.codes[r.Code]++
	if cred == "" || r.Code == 401 {
		if r.Code != 401 {
			tr.t.Fatalf("%s %s with a dead key: %d %s", method, path, r.Code, r.Raw)
		}
		return r.Code
	}
	if tr.ledger[cred] == nil {
		tr.ledger[cred] = map[string]*usageTally{}
	}
	d := tr.ledger[cred][day]
	if d == nil {
		d = &usageTally{}
		tr.ledger[cred][day] = d
	}
	d.total++
	if r.Code < 400 {
		d.ok++
	} else {
		d.failed++
	}
	if path == "/v1/test/slow" && r.Code == 200 {
		d.ms += slowMs
	}
	if tr.routes[cred] == nil {
		tr.routes[cred] = map[string]map[string]*routeTally{}
	}
	if tr.routes[cred][day] == nil {
		tr.routes[cred][day] = map[string]*routeTally{}
	}
	g := tr.routes[cred][day][routeGroupOf(path)]
	if g == nil {
		g = &routeTally{}
		tr.routes[cred][day][routeGroupOf(path)] = g
	}
	g.class[r.Code/100-2]++
	g.bytes += int64(len(r.Raw))
	return r.Code
}

// want sums the ledger of the credentials over the given days (all when none).
func (tr *traffic) want(creds []string, days ...string) usageTally {
	var u usageTally
	for _, c := range creds {
		for day, d := range tr.ledger[c] {
			if len(days) == 0 || slices.Contains(days, day) {
				u.add(*d)
			}
		}
	}
	return u
}

// addUsageRoutes adds two data routes: /v1/test/slow takes slowMs on the
// servers' clock; /v1/test/missing answers 404 (a data request for
// something that does not exist).
func (e *adminEnv) addUsageRoutes(in *instance) {
	in.srv.engine.GET("/v1/test/slow", append(in.srv.dataMiddleware(), httpx.H(func(c *gin.Context) error {
		e.clock.Add(slowMs * time.Millisecond)
		httpx.OK(c, gin.H{})
		return nil
	}))...)
	in.srv.engine.GET("/v1/test/missing", append(in.srv.dataMiddleware(), httpx.H(func(c *gin.Context) error {
		return httpx.ErrTxNotFound
	}))...)
}

// setClock moves the environment's clock to t.
func (e *adminEnv) setClock(t time.Time) { e.clock.Add(t.Sub(e.clock.Now())) }

type usageRowJSON struct {
	CredentialID       string  `json:"credential_id"`
	CredentialName     string  `json:"credential_name"`
	APIKeyPrefix       string  `json:"api_key_prefix"`
	UserAccountID      string  `json:"user_account_id"`
	UserAccountName    string  `json:"user_account_name"`
	TotalRequests      int64   `json:"total_requests"`
	SuccessfulRequests int64   `json:"successful_requests"`
	FailedRequests     int64   `json:"failed_requests"`
	LastUsedAt         *string `json:"last_used_at"`
}

type usageDetailJSON struct {
	Summary struct {
		usageRowJSON
		PeriodStart string `json:"period_start"`
		PeriodEnd   string `json:"period_end"`
	} `json:"summary"`
	Daily []struct {
		Date               string `json:"date"`
		TotalRequests      int64  `json:"total_requests"`
		SuccessfulRequests int64  `json:"successful_requests"`
		FailedRequests     int64  `json:"failed_requests"`
	} `json:"daily"`
}

type userUsageRecJSON struct {
	UserAccountID      string  `json:"user_account_id"`
	UserName           string  `json:"user_name"`
	ExternalID         string  `json:"external_id"`
	TotalRequests      int64   `json:"total_requests"`
	SuccessfulRequests int64   `json:"successful_requests"`
	FailedRequests     int64   `json:"failed_requests"`
	AvgResponseTimeMs  float64 `json:"avg_response_time_ms"`
	CredentialCount    int64   `json:"credential_count"`
	PeriodStart        string  `json:"period_start"`
	PeriodEnd          string  `json:"period_end"`
}

func (u usageTally) avg() float64 {
	if u.total == 0 {
		return 0
	}
	return math.Round(u.ms/float64(u.total)*1000) / 1000
}

func (r usageRowJSON) counts() [3]int64 {
	return [3]int64{r.TotalRequests, r.SuccessfulRequests, r.FailedRequests}
}
func (u usageTally) counts() [3]int64 { return [3]int64{u.total, u.ok, u.failed} }

// userWithExternalID creates a user account with an external id.
func (e *adminEnv) userWithExternalID(in *instance, key, name, externalID string) string {
	e.t.Helper()
	r := in.call(e.t, "POST", "/v1/admin/users", key, `{"name":"`+name+`","external_id":"`+externalID+`"}`).want(e.t, 201, "")
	var d struct {
		ID string `json:"id"`
	}
	r.into(e.t, &d)
	return d.ID
}

// keysOf returns the sorted keys of a JSON object.
func keysOf(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ",")
}

const (
	usageRowFields    = "api_key_prefix,credential_id,credential_name,failed_requests,last_used_at,successful_requests,total_requests,user_account_id,user_account_name"
	usageDetailFields = "api_key_prefix,credential_id,credential_name,failed_requests,period_end,period_start,successful_requests,total_requests,user_account_id,user_account_name"
	userUsageFields   = "avg_response_time_ms,credential_count,external_id,failed_requests,period_end,period_start,successful_requests,total_requests,user_account_id,user_name"
)

// TestUsageExactAcrossInstances: N data requests (2xx, 4xx, 429, 5xx)
// spread over two instances and two UTC days; one instance stops
// gracefully, the other keeps flushing in the background; every usage
// endpoint then reports exactly N with the right split, per credential,
// per day and per user.
func TestUsageExactAcrossInstances(t *testing.T) {
	e := newAdminEnv(t)
	day1, day2 := "2026-11-20", "2026-11-21"
	e.setClock(time.Date(2026, 11, 20, 23, 40, 0, 0, time.UTC))

	recA := admin.NewUsageRecorder(e.db, time.Hour, quiet) // flushed only by its graceful stop
	recB := admin.NewUsageRecorder(e.db, 20*time.Millisecond, quiet)
	recB.Start()
	t.Cleanup(func() { _ = recB.Close(context.Background()) })
	inA, inB := e.usageInstance(recA), e.usageInstance(recB)
	e.addUsageRoutes(inA)
	e.addUsageRoutes(inB)

	_, p := e.adminKey(inA, "P", allPerms...)
	_, q := e.adminKey(inA, "Q", allPerms...)
	alice := e.userWithExternalID(inA, p, "alice", "cust-1")
	bob := e.userWithExternalID(inA, p, "bob", "cust-2")
	carol := e.userWithExternalID(inA, p, "carol", "cust-3")
	dave := e.userWithExternalID(inA, p, "dave", "cust-4")
	quinn := e.user(inA, q, "quinn")

	c1, k1 := e.credential(inA, p, alice, `,"rate_limit_per_minute":3`)
	c2, k2 := e.credential(inA, p, alice, `,"rate_limit_per_minute":10000`)
	c3, k3 := e.credential(inA, p, bob, `,"expires_at":"2026-11-21T00:30:00Z"`)
	c4, k4 := e.credential(inA, p, bob, "")
	c5, _ := e.credential(inA, p, bob, "") // never used
	c6, k6 := e.credential(inA, p, carol, "")
	cq, kq := e.credential(inA, q, quinn, "")
	unknown := "sgk1_" + strings.Repeat("ab", 24)

	tr := newTraffic(t, e, inA, inB)
	// Day 1 (23:40 UTC).
	// 3 allowed, then 429s (8 requests, so that even if the Redis circuit
	// breaker trips and each instance limits on its own, some are refused).
	for i := 0; i < 8; i++ {
		tr.send(c1, k1, "GET", "/v1/test/slow")
	}
	for i := 0; i < 4; i++ {
		tr.send(c2, k2, "GET", "/v1/test/slow")
	}
	tr.send(c2, k2, "GET", "/v1/test/chain")
	tr.send(c2, k2, "GET", "/v1/test/chain")
	tr.send(c2, k2, "GET", "/v1/test/missing")
	tr.send(c2, k2, "GET", "/v1/tx/hash/zz")
	tr.send(c2, k2, "POST", "/v1/tx/submit")
	for i := 0; i < 3; i++ {
		tr.send(c3, k3, "GET", "/v1/test/whoami")
	}
	tr.send(c3, k3, "GET", "/v1/test/chain")
	tr.send(c3, k3, "GET", "/v1/test/missing")
	tr.send(c4, k4, "GET", "/v1/test/slow")
	tr.send(c4, k4, "GET", "/v1/test/slow")
	inA.call(t, "DELETE", "/v1/admin/credentials/"+c4, p, "").want(t, 200, "")
	tr.send(c4, k4, "GET", "/v1/test/slow") // revoked: 401, counts for no one
	tr.send(c6, k6, "GET", "/v1/test/slow")
	tr.send(c6, k6, "GET", "/v1/test/whoami")
	inA.call(t, "POST", "/v1/admin/users/"+carol+"/suspend", p, "").want(t, 200, "")
	tr.send(c6, k6, "GET", "/v1/test/slow") // suspended: 401
	for i := 0; i < 3; i++ {
		tr.send(cq, kq, "GET", "/v1/test/slow")
	}
	tr.send("", unknown, "GET", "/v1/test/slow")
	tr.send("", unknown, "GET", "/v1/test/chain")
	tr.send("", "", "GET", "/v1/test/slow")

	// Day 2 (00:40 UTC next day): c3 has expired at 00:30.
	e.clock.Add(time.Hour)
	tr.send(c1, k1, "GET", "/v1/test/slow")
	tr.send(c1, k1, "GET", "/v1/test/slow")
	for i := 0; i < 3; i++ {
		tr.send(c2, k2, "GET", "/v1/test/slow")
	}
	tr.send(c2, k2, "GET", "/v1/test/chain")
	tr.send(c3, k3, "GET", "/v1/test/whoami") // expired: 401
	tr.send(cq, kq, "GET", "/v1/test/whoami")

	if tr.codes[429] < 2 || tr.codes[404] != 2 || tr.codes[503] < 3 || tr.codes[200] < 10 || tr.codes[401] != 6 {
		t.Fatalf("traffic lacks a status class: %v", tr.codes)
	}
	pCreds := []string{c1, c2, c3, c4, c5, c6}
	n := tr.want(pCreds).total
	t.Logf("P: %d requests counted (%+v); statuses %v", n, tr.want(pCreds), tr.codes)

	// Instance A stops gracefully: its recorder's last flush, then its store's.
	if err := recA.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	inA.store.Close()

	// B flushes every 20 ms in the background: wait until P's counts have
	// all landed (they must never exceed N on the way).
	listAll := func(in *instance, key, query string) []usageRowJSON {
		t.Helper()
		r := in.call(t, "GET", "/v1/admin/usage?limit=100"+query, key, "").want(t, 200, "")
		var rows []usageRowJSON
		r.into(t, &rows)
		return rows
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		var sum int64
		for _, r := range listAll(inB, p, "") {
			sum += r.TotalRequests
		}
		if sum == n {
			break
		}
		if sum > n || time.Now().After(deadline) {
			t.Fatalf("usage shows %d requests, want %d", sum, n)
		}
		time.Sleep(10 * time.Millisecond)
	}

	t.Run("list", func(t *testing.T) {
		r := inB.call(t, "GET", "/v1/admin/usage?limit=100", p, "").want(t, 200, "")
		if limit, offset, total, hasMore := r.page(t); limit != 100 || offset != 0 || total != 6 || hasMore != nil {
			t.Fatalf("pagination %s", r.Raw)
		}
		var raw []json.RawMessage
		r.into(t, &raw)
		for _, row := range raw {
			if got := keysOf(t, row); got != usageRowFields {
				t.Fatalf("row fields %s", got)
			}
		}
		rows := listAll(inB, p, "")
		if len(rows) != 6 {
			t.Fatalf("%d rows, want all 6 of P's credentials", len(rows))
		}
		names := map[string]string{c1: "alice", c2: "alice", c3: "bob", c4: "bob", c5: "bob", c6: "carol"}
		for i, row := range rows {
			if want := tr.want([]string{row.CredentialID}); row.counts() != want.counts() {
				t.Errorf("%s: %v, want %v", row.CredentialID, row.counts(), want.counts())
			}
			if row.UserAccountName != names[row.CredentialID] || row.CredentialName != "cred" || len(row.APIKeyPrefix) != 12 {
				t.Errorf("row %+v", row)
			}
			if i > 0 && !usageOrdered(rows[i-1].TotalRequests, rows[i-1].CredentialID, row.TotalRequests, row.CredentialID) {
				t.Errorf("rows %d and %d out of order: %+v %+v", i-1, i, rows[i-1], row)
			}
			// Every used key was first used on A, whose store wrote last_used_at on stopping.
			if (row.LastUsedAt == nil) != (row.CredentialID == c5) {
				t.Errorf("%s last_used_at %v", row.CredentialID, row.LastUsedAt)
			}
			if row.LastUsedAt != nil && !strings.HasPrefix(*row.LastUsedAt, day1+"T23:4") && !strings.HasPrefix(*row.LastUsedAt, day2+"T00:4") {
				t.Errorf("%s last_used_at %s", row.CredentialID, *row.LastUsedAt)
			}
		}
		// Days apart: a bare end_date includes its whole day.
		for _, w := range []struct {
			query string
			days  []string
		}{
			{"&end_date=" + day1, []string{day1}},
			{"&start_date=" + day2, []string{day2}},
			{"&start_date=" + day1 + "&end_date=" + day1, []string{day1}},
			{"&start_date=2026-11-20T23:00:00Z&end_date=2026-11-21T01:00:00Z", []string{day1, day2}},
			{"&start_date=2026-11-20T23:00:01Z", []string{day2}},              // 23:00 bucket starts before
			{"&end_date=2026-11-21T00:00:01Z", []string{day1, day2}},          // 00:00 bucket starts before
			{"&start_date=2026-11-21T00:00:00%2B01:00", []string{day1, day2}}, // = 2026-11-20T23:00Z
			{"&start_date=2026-11-21T00:00:00+01:00", []string{day1, day2}},   // "+" sent unencoded
			{"&start_date=2026-11-20T23:00:00", []string{day1, day2}},         // no zone: UTC
			{"&start_date=2026-11-22", nil},
		} {
			var sum int64
			for _, row := range listAll(inB, p, w.query) {
				want := usageTally{}
				if w.days != nil {
					want = tr.want([]string{row.CredentialID}, w.days...)
				}
				if row.counts() != want.counts() {
					t.Errorf("%s %s: %v, want %v", w.query, row.CredentialID, row.counts(), want.counts())
				}
				sum += row.TotalRequests
			}
			if w.days != nil && sum != tr.want(pCreds, w.days...).total {
				t.Errorf("%s: sum %d", w.query, sum)
			}
		}
	})

	t.Run("per credential", func(t *testing.T) {
		for _, c := range pCreds {
			r := inB.call(t, "GET", "/v1/admin/usage/"+c, p, "").want(t, 200, "")
			if got := keysOf(t, r.Data); got != "daily,summary" {
				t.Fatalf("fields %s", got)
			}
			var d usageDetailJSON
			r.into(t, &d)
			var wrap struct {
				Summary json.RawMessage `json:"summary"`
			}
			r.into(t, &wrap)
			if got := keysOf(t, wrap.Summary); got != usageDetailFields {
				t.Fatalf("summary fields %s", got)
			}
			if want := tr.want([]string{c}); d.Summary.counts() != want.counts() || d.Summary.CredentialID != c {
				t.Errorf("%s summary %v, want %v", c, d.Summary.counts(), want.counts())
			}
			var days []string
			for _, day := range []string{day1, day2} {
				if tr.want([]string{c}, day).total > 0 {
					days = append(days, day)
				}
			}
			if len(d.Daily) != len(days) {
				t.Fatalf("%s daily %+v, want days %v", c, d.Daily, days)
			}
			for i, day := range days {
				want := tr.want([]string{c}, day)
				got := d.Daily[i]
				if got.Date != day || [3]int64{got.TotalRequests, got.SuccessfulRequests, got.FailedRequests} != want.counts() {
					t.Errorf("%s daily[%d] %+v, want %s %v", c, i, got, day, want.counts())
				}
			}
			// Open window: from the credential's creation hour (or its first
			// bucket, whichever is older) to the end of the current hour.
			var created time.Time
			if err := e.db.Get(&created, `SELECT created_at FROM syncgate.credentials WHERE id = $1`, c); err != nil {
				t.Fatal(err)
			}
			wantStart := created.Truncate(time.Hour)
			if first := time.Date(2026, 11, 20, 23, 0, 0, 0, time.UTC); len(days) > 0 && days[0] == day1 && first.Before(wantStart) {
				wantStart = first
			}
			if d.Summary.PeriodStart != isoTime(wantStart) || d.Summary.PeriodEnd != "2026-11-21T01:00:00.000Z" {
				t.Errorf("%s period %s – %s, want %s – 2026-11-21T01:00:00.000Z", c, d.Summary.PeriodStart, d.Summary.PeriodEnd, isoTime(wantStart))
			}
		}
		// A window: the requested bounds, whole days for bare dates.
		r := inB.call(t, "GET", "/v1/admin/usage/"+c1+"?start_date="+day2+"&end_date="+day2, p, "").want(t, 200, "")
		var d usageDetailJSON
		r.into(t, &d)
		if d.Summary.PeriodStart != "2026-11-21T00:00:00.000Z" || d.Summary.PeriodEnd != "2026-11-22T00:00:00.000Z" ||
			d.Summary.counts() != tr.want([]string{c1}, day2).counts() || len(d.Daily) != 1 || d.Daily[0].Date != day2 {
			t.Errorf("day 2 of c1: %s", r.Data)
		}
		// Bounds inside an hour are rounded up to the hour.
		r = inB.call(t, "GET", "/v1/admin/usage/"+c1+"?start_date=2026-11-20T22:15:00Z&end_date=2026-11-21T00:00:00.5Z", p, "").want(t, 200, "")
		r.into(t, &d)
		if d.Summary.PeriodStart != "2026-11-20T23:00:00.000Z" || d.Summary.PeriodEnd != "2026-11-21T01:00:00.000Z" || d.Summary.TotalRequests != tr.want([]string{c1}).total {
			t.Errorf("rounded window: %s", r.Data)
		}
		// A window without traffic: zeros and an empty (not null) daily list.
		r = inB.call(t, "GET", "/v1/admin/usage/"+c1+"?start_date=2026-11-01&end_date=2026-11-02", p, "").want(t, 200, "")
		if !strings.Contains(string(r.Data), `"daily":[]`) || !strings.Contains(string(r.Data), `"total_requests":0`) {
			t.Errorf("empty window: %s", r.Data)
		}
	})

	t.Run("per user", func(t *testing.T) {
		cases := []struct {
			id, name, ext string
			creds         []string
			active        int64
		}{
			{alice, "alice", "cust-1", []string{c1, c2}, 2},
			{bob, "bob", "cust-2", []string{c3, c4, c5}, 1}, // c3 expired, c4 revoked
			{carol, "carol", "cust-3", []string{c6}, 1},     // suspended, still reported here
			{dave, "dave", "cust-4", nil, 0},
		}
		for _, tc := range cases {
			r := inB.call(t, "GET", "/v1/admin/users/"+tc.id+"/usage", p, "").want(t, 200, "")
			if got := keysOf(t, r.Data); got != userUsageFields {
				t.Fatalf("fields %s", got)
			}
			var u userUsageRecJSON
			r.into(t, &u)
			want := tr.want(tc.creds)
			if u.UserAccountID != tc.id || u.UserName != tc.name || u.ExternalID != tc.ext ||
				[3]int64{u.TotalRequests, u.SuccessfulRequests, u.FailedRequests} != want.counts() ||
				u.AvgResponseTimeMs != want.avg() || u.CredentialCount != tc.active {
				t.Errorf("%s: %s, want %v avg %v keys %d", tc.name, r.Data, want.counts(), want.avg(), tc.active)
			}
			// Default window: the 30 days before now (00:40 → whole hours).
			if u.PeriodStart != "2026-10-22T01:00:00.000Z" || u.PeriodEnd != "2026-11-21T01:00:00.000Z" {
				t.Errorf("%s period %s – %s", tc.name, u.PeriodStart, u.PeriodEnd)
			}
		}
		if tr.want([]string{c1, c2}).avg() <= 0 {
			t.Fatal("alice's average response time should be positive")
		}
		if !strings.Contains(inB.call(t, "GET", "/v1/admin/users/"+dave+"/usage", p, "").Raw, `"avg_response_time_ms":0,`) {
			t.Error("no requests: avg_response_time_ms must be 0")
		}
		r := inB.call(t, "GET", "/v1/admin/users/"+alice+"/usage?start_date="+day2, p, "").want(t, 200, "")
		var u userUsageRecJSON
		r.into(t, &u)
		if want := tr.want([]string{c1, c2}, day2); [3]int64{u.TotalRequests, u.SuccessfulRequests, u.FailedRequests} != want.counts() ||
			u.PeriodStart != "2026-11-21T00:00:00.000Z" || u.PeriodEnd != "2026-11-21T01:00:00.000Z" {
			t.Errorf("alice on day 2: %s, want %v", r.Data, want.counts())
		}
	})

	t.Run("summary", func(t *testing.T) {
		r := inB.call(t, "GET", "/v1/admin/users/usage/summary", p, "").want(t, 200, "")
		if limit, offset, total, hasMore := r.page(t); limit != 20 || offset != 0 || total != 3 || hasMore == nil || *hasMore {
			t.Fatalf("pagination %s", r.Raw)
		}
		var raw []json.RawMessage
		r.into(t, &raw)
		var recs []userUsageRecJSON
		r.into(t, &recs)
		if len(recs) != 3 {
			t.Fatalf("summary %s: want alice, bob, dave (carol is suspended)", r.Data)
		}
		for i, rec := range recs {
			if got := keysOf(t, raw[i]); got != userUsageFields {
				t.Fatalf("fields %s", got)
			}
			one := inB.call(t, "GET", "/v1/admin/users/"+rec.UserAccountID+"/usage", p, "").want(t, 200, "")
			var single userUsageRecJSON
			one.into(t, &single)
			if rec != single {
				t.Errorf("summary %+v, per-user %+v", rec, single)
			}
			if i > 0 && !usageOrdered(recs[i-1].TotalRequests, recs[i-1].UserAccountID, rec.TotalRequests, rec.UserAccountID) {
				t.Errorf("out of order: %+v", recs)
			}
		}
		if recs[2].UserAccountID != dave || recs[2].TotalRequests != 0 {
			t.Errorf("dave (no traffic) should come last with zeros: %+v", recs)
		}
		var sum int64
		for _, rec := range recs {
			sum += rec.TotalRequests
		}
		if sum != tr.want([]string{c1, c2, c3, c4, c5}).total {
			t.Errorf("summary sums %d", sum)
		}
	})

	t.Run("other admin key", func(t *testing.T) {
		rows := listAll(inB, q, "")
		if len(rows) != 1 || rows[0].CredentialID != cq || rows[0].counts() != tr.want([]string{cq}).counts() {
			t.Fatalf("Q's usage: %+v", rows)
		}
		r := inB.call(t, "GET", "/v1/admin/users/usage/summary", q, "").want(t, 200, "")
		var recs []userUsageRecJSON
		r.into(t, &recs)
		if len(recs) != 1 || recs[0].UserAccountID != quinn || recs[0].TotalRequests != tr.want([]string{cq}).total {
			t.Fatalf("Q's summary: %s", r.Data)
		}
	})

	// B stops too: its last flush adds nothing twice.
	if err := recB.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	var sum int64
	if err := e.db.Get(&sum, `SELECT coalesce(sum(total_requests), 0) FROM syncgate.usage_hourly`); err != nil {
		t.Fatal(err)
	}
	if all := tr.want(append(pCreds, cq)).total; sum != all {
		t.Fatalf("usage_hourly holds %d requests, want %d", sum, all)
	}
}

// usageOrdered: busiest first, ties by id ascending.
func usageOrdered(prevTotal int64, prevID string, total int64, id string) bool {
	return prevTotal > total || (prevTotal == total && prevID < id)
}

// TestUsageErrors: every refused usage request answers its exact message
// and writes nothing, not even an audit entry.
func TestUsageErrors(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	_, p := e.adminKey(in, "P", allPerms...)
	_, q := e.adminKey(in, "Q", allPerms...)
	_, noUsage := e.adminKey(in, "no usage", admin.PermManageUsers, admin.PermManageCredentials, admin.PermViewAuditLogs)
	pUser := e.user(in, p, "p's user")
	pCred, _ := e.credential(in, p, pUser, "")
	qUser := e.user(in, q, "q's user")
	qCred, _ := e.credential(in, q, qUser, "")
	missing := "00000000-0000-0000-0000-00000000dead"

	paths := map[string]string{
		"list":       "/v1/admin/usage",
		"credential": "/v1/admin/usage/" + pCred,
		"user":       "/v1/admin/users/" + pUser + "/usage",
		"summary":    "/v1/admin/users/usage/summary",
	}
	type tc struct {
		name, path, key string
		status          int
		msg             string
	}
	var cases []tc
	for _, name := range []string{"list", "credential", "user", "summary"} {
		path := paths[name]
		for _, bad := range []struct{ query, msg string }{
			{"start_date=yesterday", "Invalid start_date format"},
			{"start_date=", "Invalid start_date format"},
			{"start_date=2026-13-01", "Invalid start_date format"},
			{"start_date=2026-11-31", "Invalid start_date format"},
			{"start_date=2026-11-01T25:00:00Z", "Invalid start_date format"},
			{"start_date=1700000000", "Invalid start_date format"},
			{"end_date=2026/11/01", "Invalid end_date format"},
			{"end_date=2026-11-01T10:00:00%2B0200", "Invalid end_date format"},
			{"start_date=2026-11-01&end_date=nope", "Invalid end_date format"},
			{"start_date=nope&end_date=nope", "Invalid start_date format"},
			{"start_date=2026-11-02&end_date=2026-11-01", "start_date must be before end_date"},
			{"start_date=2026-11-01T10:00:00Z&end_date=2026-11-01T10:00:00Z", "start_date must be before end_date"},
			{"start_date=2026-11-01T12:00:00%2B02:00&end_date=2026-11-01T10:00:00Z", "start_date must be before end_date"},
			// Near the ends of the calendar (rounding into year 10000 was once a 500).
			{"end_date=9999-12-31T23:59:59Z", "Invalid end_date format: the year must be from 0001 to 9998"},
			{"start_date=9999-12-31T23:30:00Z", "Invalid start_date format: the year must be from 0001 to 9998"},
			{"end_date=0000-01-01", "Invalid end_date format: the year must be from 0001 to 9998"},
			{"start_date=0000-12-31T23:00:00Z", "Invalid start_date format: the year must be from 0001 to 9998"},
			{"end_date=9999-01-01T00:00:01Z", "Invalid end_date format: the year must be from 0001 to 9998"},
			{"end_date=9998-12-31T23:59:59-01:00", "Invalid end_date format: the year must be from 0001 to 9998"},
		} {
			cases = append(cases, tc{name + " " + bad.query, path + "?" + bad.query, p, 400, bad.msg})
		}
		cases = append(cases, tc{name + " without view_usage", path, noUsage, 403, "Permission denied: view_usage required"})
		cases = append(cases, tc{name + " without key", path, "", 401, "Missing or malformed Authorization header"})
		cases = append(cases, tc{name + " with a data key", path, "sgk1_" + strings.Repeat("0", 48), 401, "Invalid API key"})
	}
	for _, name := range []string{"list", "summary"} {
		cases = append(cases,
			tc{name + " limit 0", paths[name] + "?limit=0", p, 400, "Invalid limit: must be an integer from 1 to 100"},
			tc{name + " limit 101", paths[name] + "?limit=101", p, 400, "Invalid limit: must be an integer from 1 to 100"},
			tc{name + " offset -1", paths[name] + "?offset=-1", p, 400, "Invalid offset: must be an integer from 0 to 1000000"},
		)
	}
	cases = append(cases,
		tc{"credential id not a UUID", "/v1/admin/usage/nope", p, 400, "Invalid credential ID format"},
		tc{"credential id not a UUID, bad date too", "/v1/admin/usage/nope?start_date=x", p, 400, "Invalid credential ID format"},
		tc{"credential missing", "/v1/admin/usage/" + missing, p, 404, "Credential not found"},
		tc{"credential of another key", "/v1/admin/usage/" + qCred, p, 404, "Credential not found"},
		tc{"credential for the bootstrap key", "/v1/admin/usage/" + pCred, testBootstrapKey, 404, "Credential not found"},
		tc{"user id not a UUID", "/v1/admin/users/nope/usage", p, 404, "User account not found"},
		tc{"user missing", "/v1/admin/users/" + missing + "/usage", p, 404, "User account not found"},
		tc{"user of another key", "/v1/admin/users/" + qUser + "/usage", p, 404, "User account not found"},
		tc{"user for the bootstrap key", "/v1/admin/users/" + pUser + "/usage", testBootstrapKey, 404, "User account not found"},
		tc{"user: start after the default end (now)", "/v1/admin/users/" + pUser + "/usage?start_date=2999-01-01", p, 400, "start_date must be before end_date"},
		tc{"summary: start after the default end (now)", "/v1/admin/users/usage/summary?start_date=2999-01-01", p, 400, "start_date must be before end_date"},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.unchanged(t, func() {
				in.call(t, "GET", c.path, c.key, "").want(t, c.status, c.msg)
			})
		})
	}
	// Another key's id answers byte for byte like a missing one.
	a := in.call(t, "GET", "/v1/admin/usage/"+qCred, p, "")
	b := in.call(t, "GET", "/v1/admin/usage/"+missing, p, "")
	if a.Raw != b.Raw {
		t.Errorf("foreign credential %s, missing %s", a.Raw, b.Raw)
	}
	a = in.call(t, "GET", "/v1/admin/users/"+qUser+"/usage", p, "")
	b = in.call(t, "GET", "/v1/admin/users/"+missing+"/usage", p, "")
	if a.Raw != b.Raw {
		t.Errorf("foreign user %s, missing %s", a.Raw, b.Raw)
	}
	// The extreme bounds that are accepted answer 200 on every endpoint.
	for _, name := range []string{"list", "credential", "user", "summary"} {
		for _, q := range []string{"end_date=9998-12-31", "end_date=9998-12-31T23:59:59Z",
			"start_date=9998-12-31T23:30:00Z&end_date=9998-12-31", "end_date=0001-01-01", "start_date=0001-01-01"} {
			in.call(t, "GET", paths[name]+"?"+q, p, "").want(t, 200, "")
		}
	}
}

// TestUsageBootstrap: the bootstrap key passes view_usage but owns
// nothing: empty lists (totals 0), 404 for every id.
func TestUsageBootstrap(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	_, p := e.adminKey(in, "P", allPerms...)
	u := e.user(in, p, "u")
	e.credential(in, p, u, "")
	r := in.call(t, "GET", "/v1/admin/usage", testBootstrapKey, "").want(t, 200, "")
	if _, _, total, hasMore := r.page(t); string(r.Data) != "[]" || total != 0 || hasMore != nil {
		t.Fatalf("bootstrap usage list %s", r.Raw)
	}
	r = in.call(t, "GET", "/v1/admin/users/usage/summary", testBootstrapKey, "").want(t, 200, "")
	if _, _, total, hasMore := r.page(t); string(r.Data) != "[]" || total != 0 || hasMore == nil || *hasMore {
		t.Fatalf("bootstrap summary %s", r.Raw)
	}
}

// TestUsagePaging: both lists page in their order (busiest first, ties by
// id), with totals; the summary leaves suspended and pending users out.
func TestUsagePaging(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	_, p := e.adminKey(in, "P", allPerms...)
	hour := time.Date(2026, 11, 10, 15, 0, 0, 0, time.UTC)
	e.setClock(hour.Add(30 * time.Minute))

	// 7 users with 2 credentials each; usage written straight into the
	// buckets: user i's credentials get i+1 and (i % 3) requests, so totals
	// tie in places and ties must fall back to the id.
	var users, creds []string
	credTotal := map[string]int64{}
	userTotal := map[string]int64{}
	for i := 0; i < 7; i++ {
		u := e.user(in, p, fmt.Sprintf("user %d", i))
		users = append(users, u)
		for j, n := range []int64{int64(i%4 + 1), int64(i % 3)} {
			c, _ := e.credential(in, p, u, "")
			creds = append(creds, c)
			credTotal[c] = n
			userTotal[u] += n
			if n > 0 {
				_, err := e.db.Exec(`INSERT INTO syncgate.usage_hourly VALUES ($1, $2, $3::bigint, $3::bigint - 1, 1, $4)`,
					c, hour.Add(-time.Duration(j)*time.Hour), n, float64(n)*3)
				if err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	in.call(t, "POST", "/v1/admin/users/"+users[6]+"/suspend", p, "").want(t, 200, "")
	if _, err := e.db.Exec(`UPDATE syncgate.user_accounts SET status = 'pending' WHERE id = $1`, users[5]); err != nil {
		t.Fatal(err)
	}

	sortBy := func(ids []string, total map[string]int64) []string {
		out := slices.Clone(ids)
		sort.Slice(out, func(a, b int) bool {
			return usageOrdered(total[out[a]], out[a], total[out[b]], out[b])
		})
		return out
	}
	t.Run("credentials", func(t *testing.T) {
		want := sortBy(creds, credTotal)
		var got []string
		for offset := 0; ; offset += 4 {
			r := in.call(t, "GET", fmt.Sprintf("/v1/admin/usage?limit=4&offset=%d", offset), p, "").want(t, 200, "")
			limit, off, total, hasMore := r.page(t)
			if limit != 4 || off != offset || total != len(creds) || hasMore != nil {
				t.Fatalf("pagination %s", r.Raw)
			}
			var rows []usageRowJSON
			r.into(t, &rows)
			if len(rows) == 0 {
				break
			}
			for _, row := range rows {
				if row.TotalRequests != credTotal[row.CredentialID] {
					t.Errorf("%s: %d, want %d", row.CredentialID, row.TotalRequests, credTotal[row.CredentialID])
				}
				got = append(got, row.CredentialID)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("order %v\nwant  %v", got, want)
		}
		r := in.call(t, "GET", "/v1/admin/usage", p, "").want(t, 200, "")
		if limit, _, _, _ := r.page(t); limit != 20 {
			t.Fatalf("default limit %d", limit)
		}
	})
	t.Run("users", func(t *testing.T) {
		active := users[:5]
		want := sortBy(active, userTotal)
		var got []string
		for offset := 0; offset < 6; offset += 2 {
			r := in.call(t, "GET", fmt.Sprintf("/v1/admin/users/usage/summary?limit=2&offset=%d", offset), p, "").want(t, 200, "")
			var recs []userUsageRecJSON
			r.into(t, &recs)
			limit, off, total, hasMore := r.page(t)
			if limit != 2 || off != offset || total != 5 || hasMore == nil || *hasMore != (offset+len(recs) < 5) {
				t.Fatalf("pagination %s", r.Raw)
			}
			for _, rec := range recs {
				if rec.TotalRequests != userTotal[rec.UserAccountID] || rec.AvgResponseTimeMs != map[bool]float64{true: 3, false: 0}[rec.TotalRequests > 0] || rec.CredentialCount != 2 {
					t.Errorf("%+v, want total %d", rec, userTotal[rec.UserAccountID])
				}
				got = append(got, rec.UserAccountID)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("order %v\nwant  %v", got, want)
		}
	})
}

// TestUsageAudit: each successful usage read writes one usage.viewed
// entry naming its target and window; the entries are the caller's.
func TestUsageAudit(t *testing.T) {
	e := newAdminEnv(t)
	// The clock jumps back 17 days: a local fallback's limiter state (a
	// missed Redis deadline under CPU load) would read as a burst.
	e.fastTimeout = 2 * time.Second
	in := e.instance()
	pID, p := e.adminKey(in, "P", allPerms...)
	u := e.user(in, p, "u")
	c, _ := e.credential(in, p, u, "")
	e.setClock(time.Date(2026, 11, 10, 15, 30, 0, 0, time.UTC))

	reads := []struct {
		path, targetType, targetID, details string
	}{
		{"/v1/admin/usage?limit=5&offset=1&start_date=2026-11-01", "credential", "",
			`{"end": null, "limit": 5, "start": "2026-11-01T00:00:00Z", "offset": 1, "report": "credentials"}`},
		{"/v1/admin/usage/" + c + "?end_date=2026-11-01", "credential", c,
			`{"end": "2026-11-02T00:00:00Z", "start": null, "report": "credential"}`},
		{"/v1/admin/users/" + u + "/usage", "user_account", u,
			`{"end": "2026-11-10T16:00:00Z", "start": "2026-10-11T16:00:00Z", "report": "user"}`},
		{"/v1/admin/users/usage/summary?end_date=2026-11-05T10:20:00Z", "user_account", "",
			`{"end": "2026-11-05T11:00:00Z", "limit": 20, "start": "2026-10-06T11:00:00Z", "offset": 0, "report": "users"}`},
	}
	for _, rd := range reads {
		var before int
		if err := e.db.Get(&before, `SELECT count(*) FROM syncgate.audit_logs`); err != nil {
			t.Fatal(err)
		}
		in.call(t, "GET", rd.path, p, "").want(t, 200, "")
		var got struct {
			N          int     `db:"n"`
			Action     string  `db:"action"`
			AdminKeyID string  `db:"admin_key_id"`
			TargetType string  `db:"target_type"`
			TargetID   *string `db:"target_id"`
			Details    string  `db:"details"`
			IP         string  `db:"ip"`
		}
		err := e.db.Get(&got, `SELECT (SELECT count(*) FROM syncgate.audit_logs) AS n, action, admin_key_id::text, target_type,
			target_id::text, details::text, host(ip_address) AS ip FROM syncgate.audit_logs ORDER BY created_at DESC, id DESC LIMIT 1`)
		if err != nil {
			t.Fatal(err)
		}
		target := ""
		if got.TargetID != nil {
			target = *got.TargetID
		}
		if got.N != before+1 || got.Action != "usage.viewed" || got.AdminKeyID != pID || got.TargetType != rd.targetType ||
			target != rd.targetID || got.Details != rd.details || got.IP != "203.0.113.7" {
			t.Errorf("%s: audit %+v", rd.path, got)
		}
	}
}

// BenchmarkUsageMiddleware: what counting usage adds to a data request.
// "with-usage" is the real data chain (auth → usage → rate limit) with a
// real UsageRecorder; "without-usage" is the same chain without
// recordUsage. Both use a warm credential cache and the real Redis, whose
// round trip dominates and varies, so "paired" alternates the two request
// by request and reports the medians and their difference (usage-ns/req),
// and "paired-bare" does the same on a handler without I/O (a fixed
// caller, no auth, no Redis) to isolate the middleware itself.
func BenchmarkUsageMiddleware(b *testing.B) {
	e := newAdminEnv(b)
	rec := admin.NewUsageRecorder(e.db, time.Hour, quiet)
	in := e.usageInstance(rec)
	_, key := e.adminKey(in, "bench", allPerms...)
	userID := e.user(in, key, "bench")
	var keys []string
	for i := 0; i < 50; i++ {
		_, k := e.credential(in, key, userID, `,"rate_limit_per_minute":10000`)
		keys = append(keys, k)
		in.call(b, "GET", "/v1/test/whoami", k, "").want(b, 200, "")
	}
	srv := in.srv
	srv.engine.GET("/v1/test/nousage", srv.requireCredential, srv.rateLimit, httpx.H(func(c *gin.Context) error {
		caller, _ := callerOf(c)
		httpx.OK(c, gin.H{"credential_id": caller.CredentialID, "network_id": caller.NetworkID})
		return nil
	}))
	fixed := auth.Caller{CredentialID: [16]byte{1}}
	setCaller := func(c *gin.Context) { c.Set(ctxCaller, fixed); c.Next() }
	bare := httpx.H(func(c *gin.Context) error { httpx.OK(c, gin.H{"credential_id": fixed.CredentialID}); return nil })
	srv.engine.GET("/v1/test/bare", setCaller, bare)
	srv.engine.GET("/v1/test/bare-usage", setCaller, srv.recordUsage, bare)

	serve := func(b *testing.B, path string, i int, withKey bool) {
		req := httptest.NewRequest("GET", path, nil)
		if withKey {
			req.Header.Set("Authorization", "Bearer "+keys[i%len(keys)])
		}
		w := httptest.NewRecorder()
		srv.Handler().ServeHTTP(w, req)
		if w.Code != 200 {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
	run := func(b *testing.B, path string, withKey bool) {
		for i := 0; b.Loop(); i++ {
			serve(b, path, i, withKey)
		}
	}
	paired := func(b *testing.B, with, without string, withKey bool) {
		var dw, dn []time.Duration
		for i := 0; b.Loop(); i++ {
			path, into := with, &dw
			if i%2 == 1 {
				path, into = without, &dn
			}
			t0 := time.Now()
			serve(b, path, i/2, withKey)
			*into = append(*into, time.Since(t0))
		}
		mw, mn := median(dw), median(dn)
		b.ReportMetric(float64(mw.Nanoseconds()), "with-ns/req")
		b.ReportMetric(float64(mn.Nanoseconds()), "without-ns/req")
		b.ReportMetric(float64((mw - mn).Nanoseconds()), "usage-ns/req")
	}
	b.Run("without-usage", func(b *testing.B) { run(b, "/v1/test/nousage", true) })
	b.Run("with-usage", func(b *testing.B) { run(b, "/v1/test/whoami", true) })
	b.Run("paired", func(b *testing.B) { paired(b, "/v1/test/whoami", "/v1/test/nousage", true) })
	b.Run("paired-bare", func(b *testing.B) { paired(b, "/v1/test/bare-usage", "/v1/test/bare", false) })
	if err := rec.Close(context.Background()); err != nil {
		b.Fatal(err)
	}
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
