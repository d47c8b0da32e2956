package handlers

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
	sqlfiles "github.com/syncgate/syncgate/sql"
)

// The billing export's NDJSON answer is checked line by line against the
// schema the document gives its media type (UsageExportRow).
func init() {
	openapi3filter.RegisterBodyDecoder("application/x-ndjson", func(r io.Reader, _ http.Header, s *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
		sc := bufio.NewScanner(r)
		var last any
		for sc.Scan() {
			var v any
			if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
				return nil, err
			}
			if err := s.Value.VisitJSON(v, openapi3.EnableJSONSchema2020()); err != nil {
				return nil, fmt.Errorf("line %s: %w", sc.Bytes(), err)
			}
			last = v
		}
		if last == nil {
			last = map[string]any{"user_id": "00000000-0000-0000-0000-000000000000", "external_id": "", "credential_id": "00000000-0000-0000-0000-000000000000",
				"period_start": "2026-01-01T00:00:00.000Z", "total_requests": 1, "successful_requests": 1, "failed_requests": 0, "quota_used": 1,
				"route_group": "chain", "requests_2xx": 1, "requests_3xx": 0, "requests_4xx": 0, "requests_5xx": 0, "bytes_sent": 10}
		}
		return last, sc.Err()
	})
}

// exportRow is one row of an export, from either format.
type exportRow struct {
	UserID             string `json:"user_id"`
	ExternalID         string `json:"external_id"`
	CredentialID       string `json:"credential_id"`
	PeriodStart        string `json:"period_start"`
	TotalRequests      int64  `json:"total_requests"`
	SuccessfulRequests int64  `json:"successful_requests"`
	FailedRequests     int64  `json:"failed_requests"`
	QuotaUsed          int64  `json:"quota_used"`
	RouteGroup         string `json:"route_group"`
	Requests2xx        *int64 `json:"requests_2xx"`
	Requests3xx        *int64 `json:"requests_3xx"`
	Requests4xx        *int64 `json:"requests_4xx"`
	Requests5xx        *int64 `json:"requests_5xx"`
	BytesSent          *int64 `json:"bytes_sent"`
}

// detail is the row's classes and bytes ("unknown" when null, as for the
// route group "unrecorded").
func (r exportRow) detail() string {
	vs := []*int64{r.Requests2xx, r.Requests3xx, r.Requests4xx, r.Requests5xx, r.BytesSent}
	if vs[0] == nil {
		for _, v := range vs {
			if v != nil {
				return "partly null"
			}
		}
		return "unknown"
	}
	var out []string
	for _, v := range vs {
		if v == nil {
			return "partly null"
		}
		out = append(out, strconv.FormatInt(*v, 10))
	}
	return strings.Join(out, "/")
}

// export fetches an export (checked against the OpenAPI document) and
// parses it; a non-200 answer is returned raw.
func (in *instance) export(t *testing.T, key, query string) (*httptest.ResponseRecorder, []exportRow) {
	t.Helper()
	req := httptest.NewRequest("GET", "/v1/admin/usage/export?"+query, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	req.RemoteAddr = "203.0.113.7:4242"
	w := httptest.NewRecorder()
	serveChecked(t, in.srv.Handler(), w, req)
	if w.Code != 200 {
		return w, nil
	}
	var rows []exportRow
	switch ct := w.Header().Get("Content-Type"); ct {
	case "text/csv; charset=utf-8":
		recs, err := csv.NewReader(bytes.NewReader(w.Body.Bytes())).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(recs[0], ","); got != "user_id,external_id,credential_id,period_start,total_requests,successful_requests,failed_requests,quota_used,"+
			"route_group,requests_2xx,requests_3xx,requests_4xx,requests_5xx,bytes_sent" {
			t.Fatalf("CSV header %q", got)
		}
		for _, r := range recs[1:] {
			n := func(i int) int64 {
				v, err := strconv.ParseInt(r[i], 10, 64)
				if err != nil {
					t.Fatalf("row %q: %v", r, err)
				}
				return v
			}
			null := func(i int) *int64 { // an empty cell is null
				if r[i] == "" {
					return nil
				}
				v := n(i)
				return &v
			}
			rows = append(rows, exportRow{r[0], r[1], r[2], r[3], n(4), n(5), n(6), n(7), r[8], null(9), null(10), null(11), null(12), null(13)})
		}
	case "application/x-ndjson":
		sc := bufio.NewScanner(bytes.NewReader(w.Body.Bytes()))
		for sc.Scan() {
			var r exportRow
			dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&r); err != nil {
				t.Fatalf("line %s: %v", sc.Bytes(), err)
			}
			rows = append(rows, r)
		}
	default:
		t.Fatalf("Content-Type %q", ct)
	}
	if cd := w.Header().Get("Content-Disposition"); !strings.HasPrefix(cd, `attachment; filename="usage-`) {
		t.Fatalf("Content-Disposition %q", cd)
	}
	return w, rows
}

// TestUsageExport: traffic of two partners over two UTC days in two
// months; each partner's export (both formats, both granularities) holds
// exactly its own users' counts per credential and period, and its totals
// equal GET /v1/admin/usage and GET /v1/admin/users/:id/usage for the
// same window.
func TestUsageExport(t *testing.T) {
	e := newAdminEnv(t)
	day1, day2 := "2026-10-31", "2026-11-01"
	e.setClock(time.Date(2026, 10, 31, 23, 40, 0, 0, time.UTC))
	rec := admin.NewUsageRecorder(e.db, time.Hour, quiet) // flushed by Close
	in := e.usageInstance(rec)
	e.addUsageRoutes(in)

	_, p := e.adminKey(in, "P", allPerms...)
	_, q := e.adminKey(in, "Q", allPerms...)
	_, noUsage := e.adminKey(in, "P-users-only", admin.PermManageUsers)
	alice := e.userWithExternalID(in, p, "alice", "cust-1")
	bob := e.userWithExternalID(in, p, "bob", "")
	quinn := e.user(in, q, "quinn")
	c1, k1 := e.credential(in, p, alice, "")
	c2, k2 := e.credential(in, p, alice, "")
	c3, k3 := e.credential(in, p, bob, "")
	cq, kq := e.credential(in, q, quinn, "")
	owner := map[string]string{c1: alice, c2: alice, c3: bob}

	tr := newTraffic(t, e, in)
	send := func() {
		for i := 0; i < 3; i++ {
			tr.send(c1, k1, "GET", "/v1/test/whoami")
		}
		tr.send(c1, k1, "GET", "/v1/test/missing")
		tr.send(c2, k2, "GET", "/v1/test/chain")
		tr.send(c3, k3, "GET", "/v1/test/whoami")
		tr.send(cq, kq, "GET", "/v1/test/whoami")
		// Real data routes of each plan group (answered without a chain:
		// whatever they answer is tallied by its status and body).
		tr.send(c1, k1, "GET", "/v1/tx/hash/zz")
		tr.send(c1, k1, "POST", "/v1/tx/submit")
		tr.send(c1, k1, "GET", "/v1/tx/history/zz")
		tr.send(c3, k3, "GET", "/v1/mempool")
		tr.send(c3, k3, "GET", "/v1/tx/hash/zz")
	}
	send()
	e.clock.Add(time.Hour) // 2026-11-01 00:40
	send()
	tr.send(c3, k3, "GET", "/v1/test/missing")
	in.call(t, "DELETE", "/v1/admin/credentials/"+c2, p, "").want(t, 200, "") // revoked keys still bill
	if err := rec.Close(context.Background()); err != nil {
		t.Fatal(err)
	}

	window := "start_date=" + day1 + "&end_date=" + day2
	for _, format := range []string{"csv", "ndjson"} {
		for _, gran := range []string{"day", "month"} {
			t.Run(format+"/"+gran, func(t *testing.T) {
				w, rows := in.export(t, p, window+"&granularity="+gran+"&format="+format)
				if w.Code != 200 {
					t.Fatalf("%d %s", w.Code, w.Body)
				}
				want := fmt.Sprintf(`attachment; filename="usage-%s-%s-%s.%s"`, day1, day2, gran, format)
				if cd := w.Header().Get("Content-Disposition"); cd != want {
					t.Fatalf("Content-Disposition %q, want %q", cd, want)
				}
				// Every row is one of P's credentials with the ledger's counts
				// for its period and route group; every ledger entry appears once.
				got := map[string]string{}
				prev := ""
				for _, r := range rows {
					user, ok := owner[r.CredentialID]
					if !ok || r.UserID != user {
						t.Fatalf("row of another partner's or unknown credential: %+v", r)
					}
					if ext := map[string]string{alice: "cust-1", bob: ""}[user]; r.ExternalID != ext {
						t.Fatalf("external_id %q, want %q", r.ExternalID, ext)
					}
					if r.QuotaUsed != r.TotalRequests || r.TotalRequests != r.SuccessfulRequests+r.FailedRequests ||
						r.Requests2xx == nil || *r.Requests2xx+*r.Requests3xx != r.SuccessfulRequests || *r.Requests4xx+*r.Requests5xx != r.FailedRequests {
						t.Fatalf("inconsistent row %+v (%s)", r, r.detail())
					}
					key := r.UserID + "/" + r.CredentialID + "/" + r.PeriodStart + "/" + r.RouteGroup
					if key <= prev {
						t.Fatalf("rows out of order: %s after %s", key, prev)
					}
					prev = key
					got[r.CredentialID+"/"+r.PeriodStart+"/"+r.RouteGroup] = r.detail()
				}
				sums := map[string]*routeTally{}
				for cred := range owner {
					for day, groups := range tr.routes[cred] {
						period := day + "T00:00:00.000Z"
						if gran == "month" {
							period = day[:8] + "01T00:00:00.000Z"
						}
						for g, rt := range groups {
							k := cred + "/" + period + "/" + g
							if sums[k] == nil {
								sums[k] = &routeTally{}
							}
							for i := range rt.class {
								sums[k].class[i] += rt.class[i]
							}
							sums[k].bytes += rt.bytes
						}
					}
				}
				wantRows := map[string]string{}
				for k, rt := range sums {
					wantRows[k] = fmt.Sprintf("%d/%d/%d/%d/%d", rt.class[0], rt.class[1], rt.class[2], rt.class[3], rt.bytes)
				}
				if fmt.Sprint(got) != fmt.Sprint(wantRows) {
					t.Fatalf("export (2xx/3xx/4xx/5xx/bytes)\n%v\nwant\n%v", got, wantRows)
				}
				groups := map[string]bool{}
				for k := range got {
					groups[k[strings.LastIndex(k, "/")+1:]] = true
				}
				for _, g := range []string{admin.GroupChain, admin.GroupHistory, admin.GroupSubmit, admin.GroupMempool, admin.RouteGroupOther} {
					if !groups[g] {
						t.Fatalf("no row of route group %s: %v", g, got)
					}
				}
			})
		}
	}

	t.Run("totals match the usage endpoints", func(t *testing.T) {
		_, rows := in.export(t, p, window+"&granularity=month&format=ndjson")
		var sum [3]int64
		perUser := map[string][3]int64{}
		for _, r := range rows {
			c := [3]int64{r.TotalRequests, r.SuccessfulRequests, r.FailedRequests}
			u := perUser[r.UserID]
			for i := range c {
				sum[i] += c[i]
				u[i] += c[i]
			}
			perUser[r.UserID] = u
		}
		var list []usageRowJSON
		in.call(t, "GET", "/v1/admin/usage?limit=100&"+window, p, "").want(t, 200, "").into(t, &list)
		var want [3]int64
		for _, r := range list {
			for i, v := range r.counts() {
				want[i] += v
			}
		}
		if sum != want || sum[0] != tr.want([]string{c1, c2, c3}).total {
			t.Fatalf("export totals %v, GET /v1/admin/usage %v, ledger %v", sum, want, tr.want([]string{c1, c2, c3}))
		}
		for _, u := range []string{alice, bob} {
			var uu userUsageRecJSON
			in.call(t, "GET", "/v1/admin/users/"+u+"/usage?"+window, p, "").want(t, 200, "").into(t, &uu)
			if got := perUser[u]; got != [3]int64{uu.TotalRequests, uu.SuccessfulRequests, uu.FailedRequests} {
				t.Fatalf("user %s: export %v, users usage %+v", u, got, uu)
			}
		}
		// One day of the window only: the other day's buckets are out.
		_, rows = in.export(t, p, "start_date="+day2+"&end_date="+day2)
		var d2 int64
		for _, r := range rows {
			d2 += r.TotalRequests
		}
		if want := tr.want([]string{c1, c2, c3}, day2).total; d2 != want {
			t.Fatalf("day 2: %d, want %d", d2, want)
		}
	})

	t.Run("tenancy", func(t *testing.T) {
		_, rows := in.export(t, q, window+"&format=ndjson")
		if len(rows) != 2 || rows[0].CredentialID != cq || rows[1].CredentialID != cq || rows[0].UserID != quinn {
			t.Fatalf("Q's export: %+v", rows)
		}
		w, _ := in.export(t, noUsage, window)
		if w.Code != 403 || !strings.Contains(w.Body.String(), "Permission denied: view_usage required") {
			t.Fatalf("without view_usage: %d %s", w.Code, w.Body)
		}
	})

	// Requests counted before usage_route_hourly existed (only in
	// usage_hourly): the route group "unrecorded", classes and bytes
	// null, and the totals still those of the usage endpoints.
	t.Run("unrecorded", func(t *testing.T) {
		if _, err := e.db.Exec(`INSERT INTO syncgate.usage_hourly (credential_id, hour, total_requests, successful_requests, failed_requests)
			VALUES ($1, '2026-10-31 05:00Z', 5, 4, 1)`, c3); err != nil {
			t.Fatal(err)
		}
		if _, err := e.db.Exec(`UPDATE syncgate.usage_hourly SET total_requests = total_requests + 2, failed_requests = failed_requests + 2
			WHERE credential_id = $1 AND hour = '2026-10-31 23:00Z'`, c1); err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"csv", "ndjson"} {
			_, rows := in.export(t, p, window+"&format="+format)
			var sum, unrec [3]int64
			for _, r := range rows {
				sum[0] += r.TotalRequests
				sum[1] += r.SuccessfulRequests
				sum[2] += r.FailedRequests
				if r.RouteGroup != admin.RouteGroupUnrecorded {
					continue
				}
				if r.PeriodStart != day1+"T00:00:00.000Z" || r.detail() != "unknown" || r.QuotaUsed != r.TotalRequests {
					t.Fatalf("%s: unrecorded row %+v (%s)", format, r, r.detail())
				}
				switch r.CredentialID {
				case c1:
					unrec[0] += r.TotalRequests
					if r.SuccessfulRequests != 0 || r.FailedRequests != 2 {
						t.Fatalf("%s: c1 unrecorded %+v", format, r)
					}
				case c3:
					unrec[1] += r.TotalRequests
					if r.SuccessfulRequests != 4 || r.FailedRequests != 1 {
						t.Fatalf("%s: c3 unrecorded %+v", format, r)
					}
				default:
					unrec[2]++
				}
			}
			if unrec != [3]int64{2, 5, 0} {
				t.Fatalf("%s: unrecorded requests c1 %d, c3 %d, rows of others %d", format, unrec[0], unrec[1], unrec[2])
			}
			var list []usageRowJSON
			in.call(t, "GET", "/v1/admin/usage?limit=100&"+window, p, "").want(t, 200, "").into(t, &list)
			var want [3]int64
			for _, r := range list {
				for i, v := range r.counts() {
					want[i] += v
				}
			}
			if sum != want {
				t.Fatalf("%s: export totals %v, GET /v1/admin/usage %v", format, sum, want)
			}
		}
	})

	t.Run("empty window", func(t *testing.T) {
		w, rows := in.export(t, p, "start_date=2020-01-01&end_date=2020-01-31")
		if w.Code != 200 || len(rows) != 0 {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
	})
}

// TestUsageExportErrors: bad input is a 400 with the reason, and nothing
// is written (not even the audit entry).
func TestUsageExportErrors(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	_, p := e.adminKey(in, "P", allPerms...)
	var before int
	if err := e.db.Get(&before, "SELECT count(*) FROM syncgate.audit_logs"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ query, msg string }{
		{"end_date=2026-01-31", "start_date is required (YYYY-MM-DD)"},
		{"start_date=2026-01-01", "end_date is required (YYYY-MM-DD)"},
		{"start_date=&end_date=2026-01-31", "start_date is required (YYYY-MM-DD)"},
		{"start_date=2026-13-01&end_date=2026-01-31", "Invalid start_date format: expected YYYY-MM-DD"},
		{"start_date=2026-01-01T00:00:00Z&end_date=2026-01-31", "Invalid start_date format: expected YYYY-MM-DD"},
		{"start_date=2026-01-01&end_date=31.01.2026", "Invalid end_date format: expected YYYY-MM-DD"},
		{"start_date=0000-12-31&end_date=0001-01-01", "Invalid start_date format: expected YYYY-MM-DD"},
		{"start_date=9999-01-01&end_date=9999-01-02", "Invalid end_date format: expected YYYY-MM-DD"},
		{"start_date=2026-02-01&end_date=2026-01-31", "end_date must not be before start_date"},
		{"start_date=2025-01-01&end_date=2026-02-01", "The export covers at most 13 months: narrow start_date and end_date"},
		{"start_date=2026-01-01&end_date=2026-01-31&granularity=week", "Invalid granularity: must be day or month"},
		{"start_date=2026-01-01&end_date=2026-01-31&granularity=", "Invalid granularity: must be day or month"},
		{"start_date=2026-01-01&end_date=2026-01-31&format=xlsx", "Invalid format: must be csv or ndjson"},
	} {
		r := in.call(t, "GET", "/v1/admin/usage/export?"+c.query, p, "")
		r.want(t, 400, c.msg)
	}
	// The widest window allowed: 13 months exactly.
	if w, _ := in.export(t, p, "start_date=2025-01-01&end_date=2026-01-31"); w.Code != 200 {
		t.Fatalf("13 months: %d %s", w.Code, w.Body)
	}
	var after int
	if err := e.db.Get(&after, "SELECT count(*) FROM syncgate.audit_logs"); err != nil {
		t.Fatal(err)
	}
	if after != before+1 {
		t.Fatalf("audit entries %d → %d: want only the one export's", before, after)
	}
}

// discardWriter is a ResponseWriter that keeps nothing of the body, so a
// test measures the server's memory, not the recorder's.
type discardWriter struct {
	h     http.Header
	code  int
	bytes atomic.Int64
	lines atomic.Int64
	first []byte
}

func (d *discardWriter) Header() http.Header { return d.h }
func (d *discardWriter) WriteHeader(c int)   { d.code = c }
func (d *discardWriter) Flush()              {}
func (d *discardWriter) Write(b []byte) (int, error) {
	if d.first == nil {
		d.first = append([]byte{}, b[:min(len(b), 200)]...)
	}
	d.bytes.Add(int64(len(b)))
	d.lines.Add(int64(bytes.Count(b, []byte{'\n'})))
	return len(b), nil
}

// TestUsageExportMemory: an export of 300,030 rows (411 credentials ×
// 365 days × 2 route groups, one bucket each, made with generate_series),
// about 100 MB of NDJSON, streams with the heap flat: HeapInuse sampled
// during the stream stays within 20 MB of the heap before it, a fifth of
// what holding the answer would take. It runs under the default request
// deadline, which the export's route extends.
func TestUsageExportMemory(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	_, p := e.adminKey(in, "P", allPerms...)
	user := e.userWithExternalID(in, p, "big", "cust-big")
	c0, _ := e.credential(in, p, user, "")
	const creds, days, groups = 411, 365, 2
	if _, err := e.db.Exec(`INSERT INTO syncgate.credentials (id, user_account_id, admin_key_id, partner_id, name, key_hash, api_key_prefix, network_id)
		SELECT gen_random_uuid(), c.user_account_id, c.admin_key_id, c.partner_id, 'k' || g, sha256(g::text::bytea), c.api_key_prefix, c.network_id
		FROM syncgate.credentials c, generate_series(2, $2) g WHERE c.id = $1`, c0, creds); err != nil {
		t.Fatal(err)
	}
	// Each hour: chain 2xx 2, 3xx 1, 4xx 1; history 2xx 1, 5xx 1 (so
	// usage_hourly's 6 = 4 + 2 and no "unrecorded" rows).
	if _, err := e.db.Exec(`INSERT INTO syncgate.usage_hourly (credential_id, hour, total_requests, successful_requests, failed_requests)
		SELECT c.id, timestamptz '2025-01-01 12:00Z' + d * interval '1 day', 6, 4, 2
		FROM syncgate.credentials c, generate_series(0, $1 - 1) d WHERE c.user_account_id = $2`, days, user); err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.Exec(`INSERT INTO syncgate.usage_route_hourly (credential_id, hour, route_group, requests_2xx, requests_3xx, requests_4xx, requests_5xx, bytes_sent)
		SELECT h.credential_id, h.hour, g.name, g.s2, g.s3, g.s4, g.s5, g.bytes
		FROM syncgate.usage_hourly h, (VALUES ('chain', 2, 1, 1, 0, 5000), ('history', 1, 0, 0, 1, 900)) g (name, s2, s3, s4, s5, bytes)
		WHERE h.credential_id IN (SELECT id FROM syncgate.credentials WHERE user_account_id = $1)`, user); err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.Exec(`VACUUM ANALYZE syncgate.usage_hourly, syncgate.usage_route_hourly, syncgate.credentials, syncgate.user_accounts`); err != nil {
		t.Fatal(err)
	}
	// The plan of the cursor as the export declares it (a cursor's plan
	// favours its first rows).
	var partner string
	if err := e.db.Get(&partner, `SELECT partner_id FROM syncgate.credentials WHERE id = $1`, c0); err != nil {
		t.Fatal(err)
	}
	stmt := sqlfiles.Must("admin/usage_export.sql")
	var plan []string
	if err := e.db.Select(&plan, "EXPLAIN "+stmt, partner, "2025-01-01T00:00:00Z", "2026-01-01T00:00:00Z", "day"); err != nil {
		t.Fatal(err)
	}
	// Each credential's buckets by the keys, and no sort of the whole export:
	// only each credential's rows are sorted (presorted by user, credential).
	if p := strings.Join(plan, "\n"); !strings.Contains(p, "Index Only Scan using usage_hourly_pkey on usage_hourly") ||
		!strings.Contains(p, "Index Only Scan using usage_route_hourly_pkey on usage_route_hourly") ||
		!strings.HasPrefix(plan[0], "Incremental Sort") || !strings.Contains(p, "Presorted Key: u.id, c.id") {
		t.Fatalf("the export's plan reads more than it streams:\n%s", p)
	} else {
		t.Logf("plan:\n%s", p)
	}

	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	req := httptest.NewRequest("GET", "/v1/admin/usage/export?start_date=2025-01-01&end_date=2025-12-31&format=ndjson", nil)
	req.Header.Set("Authorization", "Bearer "+p)
	w := &discardWriter{h: http.Header{}}
	began := time.Now()
	in.srv.Handler().ServeHTTP(w, req)
	close(stop)
	wg.Wait()
	if w.code != 200 || w.lines.Load() != creds*days*groups {
		t.Fatalf("%d: %d lines, want %d; %s", w.code, w.lines.Load(), creds*days*groups, w.first)
	}
	growth := int64(peak.Load()) - int64(base)
	t.Logf("%d rows, %d MB in %s; HeapInuse %d MB before, peak %d MB: growth %.1f MB",
		w.lines.Load(), w.bytes.Load()>>20, time.Since(began).Round(time.Millisecond), base>>20, peak.Load()>>20, float64(growth)/(1<<20))
	if growth > 20<<20 {
		t.Fatalf("heap grew by %d MB during the export", growth>>20)
	}
}

// TestUsageBytesOverTheWire: bytes_sent is the response body a client
// reads over a real connection (a streamed, chunked answer and an error
// envelope), not the chunk framing or headers; the export bills exactly
// that.
func TestUsageBytesOverTheWire(t *testing.T) {
	e := newAdminEnv(t)
	e.setClock(time.Date(2026, 11, 10, 9, 15, 0, 0, time.UTC))
	rec := admin.NewUsageRecorder(e.db, time.Hour, quiet) // flushed by Close
	in := e.usageInstance(rec)
	e.addUsageRoutes(in)
	chunk := bytes.Repeat([]byte("0123456789abcdef"), 2500) // 40,000 bytes
	in.srv.engine.GET("/v1/test/stream", append(in.srv.dataMiddleware(), func(c *gin.Context) {
		c.Header("Content-Type", "application/octet-stream")
		for range 3 {
			_, _ = c.Writer.Write(chunk)
			c.Writer.Flush() // no Content-Length: chunked on the wire
		}
	})...)
	_, p := e.adminKey(in, "P", allPerms...)
	user := e.user(in, p, "u")
	cred, key := e.credential(in, p, user, "")

	srv := httptest.NewServer(in.srv.Handler())
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	var received int64
	for _, path := range []string{"/v1/test/stream", "/v1/test/missing", "/v1/test/stream"} {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if path == "/v1/test/stream" && (n != 3*int64(len(chunk)) || len(resp.TransferEncoding) == 0) {
			t.Fatalf("stream: %d bytes, transfer encoding %v", n, resp.TransferEncoding)
		}
		received += n
	}
	if err := rec.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	var stored int64
	if err := e.db.Get(&stored, `SELECT sum(bytes_sent) FROM syncgate.usage_route_hourly WHERE credential_id = $1`, cred); err != nil {
		t.Fatal(err)
	}
	_, rows := in.export(t, p, "start_date=2026-11-10&end_date=2026-11-10&format=ndjson")
	if len(rows) != 1 || rows[0].BytesSent == nil || rows[0].RouteGroup != admin.RouteGroupOther || rows[0].TotalRequests != 3 {
		t.Fatalf("export rows %+v", rows)
	}
	if stored != received || *rows[0].BytesSent != received {
		t.Fatalf("client received %d body bytes; usage_route_hourly %d, export %d", received, stored, *rows[0].BytesSent)
	}
}
