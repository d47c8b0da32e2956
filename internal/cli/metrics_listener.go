package cli

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/platform/metrics"
)

// serveMetrics serves Prometheus /metrics on addr (METRICS_ADDR) on its own
// mux and listener, so the API port never exposes it, and installs the
// scrape-time probes (tip lag per network, Redis). The returned function
// closes the listener.
func serveMetrics(addr string, log *slog.Logger, networks map[string]*dbsync.DB, adminDB *sqlx.DB, rc *cache.Client) (func(), error) {
	untrackAdmin := metrics.TrackPool("admin", adminDB.DB)
	probes := metrics.Probes{TipLag: func(ctx context.Context) map[string]time.Duration {
		out := map[string]time.Duration{}
		for name, db := range networks {
			if tip, err := db.Tip(ctx); err == nil {
				out[name] = max(time.Since(tip.BlockTime), 0)
			}
		}
		return out
	}}
	if rc != nil {
		probes.RedisPing = rc.Ping
	}
	metrics.SetProbes(probes)

	mux := http.NewServeMux()
	mux.Handle("/metrics", metrics.Handler())
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		untrackAdmin()
		return nil, fmt.Errorf("metrics: %w", err)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, WriteTimeout: 30 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	log.Info("metrics listening", slog.String("addr", ln.Addr().String()), slog.String("path", "/metrics"))
	return func() {
		srv.Close()
		metrics.SetProbes(metrics.Probes{})
		untrackAdmin()
	}, nil
}
