package admin

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

type usageRow struct {
	Credential uuid.UUID `db:"credential_id"`
	Hour       time.Time `db:"hour"`
	Total      int64     `db:"total_requests"`
	OK         int64     `db:"successful_requests"`
	Failed     int64     `db:"failed_requests"`
	RespMs     float64   `db:"response_time_ms_sum"`
}

func TestUsageRecorderTwoInstancesExactCounts(t *testing.T) {
	db := testdb.Open(t, testdb.New(t, "sg_test_usage"))
	if _, err := Migrate(t.Context(), db); err != nil {
		t.Fatal(err)
	}
	a := NewUsageRecorder(db, 20*time.Millisecond, nil)
	b := NewUsageRecorder(db, 20*time.Millisecond, nil)
	a.Start()
	b.Start()
	cred1, cred2 := uuid.New(), uuid.New()
	h1 := time.Date(2026, 11, 20, 23, 59, 59, 0, time.UTC)
	h2 := h1.Add(time.Second) // next hour and next day
	statuses := []int{200, 204, 304, 400, 401, 404, 429, 500, 503}
	groups := []string{GroupChain, GroupHistory, GroupSubmit, GroupWebhooks}

	const perWorker = 500
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		rec := a
		if w%2 == 1 {
			rec = b
		}
		wg.Add(1)
		go func(w int, rec *UsageRecorder) {
			defer wg.Done()
			for i := 0; i < perWorker; i++ {
				cred, at := cred1, h1
				if i%3 == 0 {
					cred = cred2
				}
				if i%2 == 0 {
					at = h2
				}
				rec.Record(cred, groups[i%len(groups)], statuses[(w+i)%len(statuses)], int64(i%7*100), 2*time.Millisecond, at)
			}
		}(w, rec)
	}
	wg.Wait()
	// Graceful shutdown of both: whatever the tickers did not write yet is flushed now.
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(context.Background()); err != nil {
		t.Fatal(err)
	}

	var rows []usageRow
	if err := db.Select(&rows, `SELECT credential_id, hour, total_requests, successful_requests, failed_requests, response_time_ms_sum FROM syncgate.usage_hourly`); err != nil {
		t.Fatal(err)
	}
	want := map[[2]string][3]int64{}
	for w := 0; w < 8; w++ {
		for i := 0; i < perWorker; i++ {
			cred, at := cred1, h1
			if i%3 == 0 {
				cred = cred2
			}
			if i%2 == 0 {
				at = h2
			}
			k := [2]string{cred.String(), at.Truncate(time.Hour).Format(time.RFC3339)}
			v := want[k]
			v[0]++
			if statuses[(w+i)%len(statuses)] < 400 {
				v[1]++
			} else {
				v[2]++
			}
			want[k] = v
		}
	}
	if len(rows) != len(want) {
		t.Fatalf("got %d buckets, want %d: %+v", len(rows), len(want), rows)
	}
	var sum int64
	for _, r := range rows {
		k := [2]string{r.Credential.String(), r.Hour.UTC().Format(time.RFC3339)}
		w, ok := want[k]
		if !ok || r.Total != w[0] || r.OK != w[1] || r.Failed != w[2] {
			t.Errorf("bucket %v = %d/%d/%d, want %v", k, r.Total, r.OK, r.Failed, w)
		}
		if r.RespMs < float64(r.Total)*2-0.001 || r.RespMs > float64(r.Total)*2+0.001 {
			t.Errorf("bucket %v response sum %v, want %v", k, r.RespMs, float64(r.Total)*2)
		}
		sum += r.Total
	}
	if sum != 8*perWorker {
		t.Errorf("total %d, want %d", sum, 8*perWorker)
	}

	// The same requests per route group: status classes and bytes.
	type routeKey struct{ cred, hour, group string }
	wantRoute := map[routeKey][5]int64{}
	for w := 0; w < 8; w++ {
		for i := 0; i < perWorker; i++ {
			cred, at := cred1, h1
			if i%3 == 0 {
				cred = cred2
			}
			if i%2 == 0 {
				at = h2
			}
			k := routeKey{cred.String(), at.Truncate(time.Hour).Format(time.RFC3339), groups[i%len(groups)]}
			v := wantRoute[k]
			v[statuses[(w+i)%len(statuses)]/100-2]++
			v[4] += int64(i % 7 * 100)
			wantRoute[k] = v
		}
	}
	var route []struct {
		Cred  uuid.UUID `db:"credential_id"`
		Hour  time.Time `db:"hour"`
		Group string    `db:"route_group"`
		S2    int64     `db:"requests_2xx"`
		S3    int64     `db:"requests_3xx"`
		S4    int64     `db:"requests_4xx"`
		S5    int64     `db:"requests_5xx"`
		Bytes int64     `db:"bytes_sent"`
	}
	if err := db.Select(&route, `SELECT credential_id, hour, route_group, requests_2xx, requests_3xx, requests_4xx, requests_5xx, bytes_sent
		FROM syncgate.usage_route_hourly`); err != nil {
		t.Fatal(err)
	}
	if len(route) != len(wantRoute) {
		t.Fatalf("got %d route buckets, want %d", len(route), len(wantRoute))
	}
	for _, r := range route {
		k := routeKey{r.Cred.String(), r.Hour.UTC().Format(time.RFC3339), r.Group}
		if got := [5]int64{r.S2, r.S3, r.S4, r.S5, r.Bytes}; got != wantRoute[k] {
			t.Errorf("route bucket %v = %v, want %v", k, got, wantRoute[k])
		}
	}
}

func TestUsageRecorderKeepsCountsWhenFlushFails(t *testing.T) {
	db := testdb.Open(t, testdb.New(t, "sg_test_usage"))
	rec := NewUsageRecorder(db, time.Hour, nil)
	cred := uuid.New()
	at := time.Date(2026, 11, 21, 8, 30, 0, 0, time.UTC)
	for i := 0; i < 7; i++ {
		rec.Record(cred, GroupChain, 200, 10, time.Millisecond, at)
	}
	// The table does not exist yet: the flush fails and must keep the counts.
	if err := rec.Flush(t.Context()); err == nil {
		t.Fatal("flush into a missing table succeeded")
	}
	rec.Record(cred, GroupChain, 500, 10, time.Millisecond, at)
	if _, err := Migrate(t.Context(), db); err != nil {
		t.Fatal(err)
	}
	if err := rec.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	var r usageRow
	if err := db.Get(&r, `SELECT credential_id, hour, total_requests, successful_requests, failed_requests, response_time_ms_sum FROM syncgate.usage_hourly`); err != nil {
		t.Fatal(err)
	}
	if r.Total != 8 || r.OK != 7 || r.Failed != 1 {
		t.Errorf("after retry: %+v, want 8 total, 7 ok, 1 failed", r)
	}
	if !r.Hour.Equal(at.Truncate(time.Hour)) {
		t.Errorf("hour %s", r.Hour)
	}
}

// BenchmarkUsageRecord is the request-path cost of usage accounting.
func BenchmarkUsageRecord(b *testing.B) {
	rec := NewUsageRecorder(nil, time.Hour, nil)
	creds := make([]uuid.UUID, 64)
	for i := range creds {
		creds[i] = uuid.New()
	}
	now := time.Now()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			rec.Record(creds[i%len(creds)], GroupChain, 200, 1200, time.Millisecond, now)
			i++
		}
	})
}

// usageOf sums a credential's usage rows and reads its last_used_at, in
// one statement (one snapshot).
func usageOf(t *testing.T, db *sqlx.DB, id uuid.UUID) (total, ok, failed int64, lastUsed *time.Time) {
	t.Helper()
	var r struct {
		Total, OK, Failed int64
		LastUsed          *time.Time `db:"last_used"`
	}
	err := db.Get(&r, `SELECT COALESCE(sum(total_requests), 0) AS total, COALESCE(sum(successful_requests), 0) AS ok,
	  COALESCE(sum(failed_requests), 0) AS failed, (SELECT last_used_at FROM syncgate.credentials WHERE id = $1) AS last_used
	  FROM syncgate.usage_hourly WHERE credential_id = $1`, id)
	if err != nil {
		t.Fatal(err)
	}
	return r.Total, r.OK, r.Failed, r.LastUsed
}

// TestUsageFlushIdempotent: a flush whose commit went through but whose
// answer was lost is retried under the same batch id and adds nothing
// twice; last_used_at moves with the counts.
func TestUsageFlushIdempotent(t *testing.T) {
	db := migrated(t)
	s := newTestStore(t, db, nil, &clock{t: time.Now()})
	_, c, _ := fixture(t, s)
	rec := NewUsageRecorder(db, time.Hour, nil)
	at := time.Date(2026, 11, 21, 8, 30, 0, 0, time.UTC)
	for i := range 5 {
		rec.Record(c.ID, GroupChain, 200, 100, time.Millisecond, at.Add(time.Duration(i)*time.Second))
	}
	lost := true
	rec.afterCommit = func() error {
		if lost {
			lost = false
			return errors.New("connection reset after commit")
		}
		return nil
	}
	if err := rec.Flush(t.Context()); err == nil {
		t.Fatal("want the lost answer reported")
	}
	if total, _, _, last := usageOf(t, db, c.ID); total != 5 || last == nil || !last.Equal(at.Add(4*time.Second)) {
		t.Fatalf("after the committed flush: total %d last_used_at %v", total, last)
	}
	rec.Record(c.ID, GroupHistory, 429, 100, time.Millisecond, at.Add(time.Minute))
	if err := rec.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	total, ok, failed, last := usageOf(t, db, c.ID)
	if total != 6 || ok != 5 || failed != 1 || last == nil || !last.Equal(at.Add(time.Minute)) {
		t.Fatalf("after the retry: %d/%d/%d last_used_at %v, want 6/5/1 and %v", total, ok, failed, last, at.Add(time.Minute))
	}
	// The route-group rows were in the claimed batch too: not doubled either.
	var route struct {
		N, S2, S4, Bytes int64
	}
	if err := db.Get(&route, `SELECT count(*) AS n, sum(requests_2xx) AS s2, sum(requests_4xx) AS s4, sum(bytes_sent) AS bytes
		FROM syncgate.usage_route_hourly WHERE credential_id = $1`, c.ID); err != nil {
		t.Fatal(err)
	}
	if route != (struct{ N, S2, S4, Bytes int64 }{2, 5, 1, 600}) {
		t.Fatalf("route-group rows after the retry: %+v, want 2 rows, 5 2xx, 1 4xx, 600 bytes", route)
	}
	// last_used_at never moves backwards.
	rec.Record(c.ID, GroupChain, 200, 100, time.Millisecond, at)
	if err := rec.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, _, _, last := usageOf(t, db, c.ID); !last.Equal(at.Add(time.Minute)) {
		t.Fatalf("last_used_at moved back to %v", last)
	}
}

// TestUsageFinalFlushOwnTimeout: the shutdown drain used the whole
// deadline, yet Close still writes the last counts.
func TestUsageFinalFlushOwnTimeout(t *testing.T) {
	db := migrated(t)
	rec := NewUsageRecorder(db, time.Hour, nil)
	rec.Start()
	cred := uuid.New()
	for range 3 {
		rec.Record(cred, GroupChain, 200, 0, time.Millisecond, time.Now())
	}
	exhausted, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-exhausted.Done()
	if err := rec.Close(exhausted); err != nil {
		t.Fatal(err)
	}
	if total, _, _, _ := usageOf(t, db, cred); total != 3 {
		t.Fatalf("total %d, want 3", total)
	}
}
