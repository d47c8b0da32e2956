package chaingen

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"
)

// BenchmarkSeed seeds a fresh database per iteration (core mode) and
// reports transactions per second and the database size. The chain size
// comes from SYNCGATE_BENCH_TXS (default 100000), e.g.
//
//	SYNCGATE_BENCH_TXS=1000000 go test -run '^$' -bench Seed -benchtime 1x ./internal/devtools/chaingen/
func BenchmarkSeed(b *testing.B) {
	txs := 100_000
	if s := os.Getenv("SYNCGATE_BENCH_TXS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			b.Fatal(err)
		}
		txs = n
	}
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dsn, db := newTestDB(b)
		b.StartTimer()
		start := time.Now()
		if _, err := Seed(context.Background(), dsn, Options{Txs: txs, Seed: int64(i), TipTime: testTip}); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(txs)/time.Since(start).Seconds(), "txs/s")
		var size int64
		if err := db.QueryRow(sqlDatabaseSize).Scan(&size); err == nil {
			b.ReportMetric(float64(size)/(1<<20), "MB")
		}
	}
}
