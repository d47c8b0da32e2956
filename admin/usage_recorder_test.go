package admin

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/syncgate/syncgate/internal/testdb"
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
				rec.Record(cred, statuses[(w+i)%len(statuses)], 2*time.Millisecond, at)
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
}

func TestUsageRecorderKeepsCountsWhenFlushFails(t *testing.T) {
	db := testdb.Open(t, testdb.New(t, "sg_test_usage"))
	rec := NewUsageRecorder(db, time.Hour, nil)
	cred := uuid.New()
	at := time.Date(2026, 11, 21, 8, 30, 0, 0, time.UTC)
	for i := 0; i < 7; i++ {
		rec.Record(cred, 200, time.Millisecond, at)
	}
	// The table does not exist yet: the flush fails and must keep the counts.
	if err := rec.Flush(t.Context()); err == nil {
		t.Fatal("flush into a missing table succeeded")
	}
	rec.Record(cred, 500, time.Millisecond, at)
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
			rec.Record(creds[i%len(creds)], 200, time.Millisecond, now)
			i++
		}
	})
}
