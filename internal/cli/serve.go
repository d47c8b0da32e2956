package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/handlers"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/events"
	"github.com/syncgate/syncgate/internal/platform/metrics"
	"github.com/syncgate/syncgate/internal/platform/pgconn"
	"github.com/syncgate/syncgate/internal/platform/spool"
	"github.com/syncgate/syncgate/internal/service/poolstats"
	"github.com/syncgate/syncgate/internal/service/quota"
	"github.com/syncgate/syncgate/internal/service/registry"
	"github.com/syncgate/syncgate/internal/service/utxoindex"
	"github.com/syncgate/syncgate/node"
)

// Serve loads the configuration, connects everything, serves until a
// signal, then drains in-flight requests before closing the pools.
func Serve(ctx context.Context, environ []string, args []string) error {
	cfg, err := config.Load(environ, args)
	if err != nil {
		return fmt.Errorf("configuration:\n%w", err)
	}
	log, flush := newServiceLogger(os.Stdout, cfg.LogLevel)
	defer flush()
	return serve(ctx, cfg, log, nil)
}

// serve runs the service with cfg. ready, if set, receives the bound address.
func serve(ctx context.Context, cfg config.Config, log *slog.Logger, ready func(addr string)) error {
	slog.SetDefault(log)
	cache.RouteLogs(log) // go-redis's own messages as JSON too
	log.Info("starting", slog.Any("config", cfg.Summary()))

	networks := map[string]*dbsync.DB{}
	defer func() {
		for _, db := range networks {
			db.Close()
		}
	}()
	conn := pgconn.Options{ConnectTimeout: cfg.DBConnectTimeout}
	for _, n := range cardano.Networks {
		nc, ok := cfg.Networks[n.Name]
		if !ok {
			continue
		}
		db, err := dbsync.New(nc, dbsync.Options{ServerOptions: dbsync.ServerOptions{StatementTimeout: cfg.StatementTimeout,
			ProbeInterval: cfg.ProbeInterval, ProbeTimeout: cfg.ProbeTimeout, MaxReplicaLag: cfg.MaxReplicaLag, Conn: conn, Log: log},
			HistoryMemoBytes: cfg.HistoryMemoBytes})
		if err != nil {
			return err
		}
		db.SetMaxQueue(cfg.DBSyncMaxQueue)
		db.SetMaxActive(cfg.DBSyncMaxActive)
		networks[n.Name] = db
	}
	// Degraded start: a network whose db-sync cannot be reached yet is
	// served 503 until its watcher gets it ready; only a database this
	// version can never serve stops the start.
	startWait := cfg.DBConnectTimeout + cfg.ProbeTimeout
	if startWait <= 0 { // a Config not made by config.Load
		startWait = pgconn.DefaultConnectTimeout + dbsync.DefaultProbeTimeout
	}
	startCtx, cancelStart := context.WithTimeout(ctx, startWait)
	for name, db := range networks {
		switch err := db.Started(startCtx); {
		case errors.Is(err, dbsync.ErrUnsupported):
			cancelStart()
			return fmt.Errorf("%s: %w", name, err)
		case err != nil:
			log.Warn("db-sync unavailable at start: answering 503 for this network until it is back",
				slog.String("network", name), slog.String("error", err.Error()))
		}
	}
	cancelStart()

	adminDB, err := pgconn.Open(cfg.AdminDatabaseURL, conn)
	if err != nil {
		return fmt.Errorf("admin database: %w", err)
	}
	// database/sql keeps 2 idle connections by default, so under load most
	// requests that touch the admin schema would dial anew.
	adminDB.SetMaxOpenConns(16)
	adminDB.SetMaxIdleConns(16)
	defer adminDB.Close()
	// An unreachable admin database does not stop the start: admin routes
	// answer 503 until the background migration succeeds.
	schema, err := admin.MigrateAtStart(ctx, adminDB, log)
	if err != nil {
		return fmt.Errorf("admin database: %w", err)
	}

	var rc *cache.Client
	if cfg.RedisURL != "" {
		if rc, err = cache.New(cfg.RedisURL, "sg:"); err != nil {
			return err
		}
		defer rc.Close()
		if err := rc.Ping(ctx); err != nil {
			log.Warn("redis unavailable at start; continuing with local fallbacks", slog.String("error", err.Error()))
		}
	}
	// The hot path (auth + rate limit) gets its own Redis pool with tight
	// deadlines and a circuit breaker; nil without Redis.
	fast := cache.NewFastClient(rc, cache.FastOptions{})
	defer fast.Close()
	authFailFast := cache.NewFastClient(rc, cache.FastOptions{Timeout: cache.AuthFailureTimeout})
	defer authFailFast.Close()
	// Small pools of their own for what data requests wait on (credential
	// lookups, stored pool stake), for usage flushes and for the pool-stats
	// refresher, so slow admin queries filling the main pool stall none of
	// them (docs/DECISIONS.md "Admin database isolation").
	authDB, usageDB, refreshDB := adminPool(cfg.AdminDatabaseURL, conn, 4), adminPool(cfg.AdminDatabaseURL, conn, 2), adminPool(cfg.AdminDatabaseURL, conn, 1)
	defer authDB.Close()
	defer usageDB.Close()
	defer refreshDB.Close()
	authn := auth.New(auth.Options{DB: authDB, Redis: fast, ListenURL: cfg.AdminDatabaseURL, Log: log, Ready: schema.Ready})
	defer authn.Close() // before Redis and the pools close: a last retry of unannounced invalidations
	store := admin.NewStore(adminDB, admin.Options{BootstrapAdminKey: cfg.BootstrapAdminKey, Log: log, Invalidator: authn})
	defer store.Close() // before the pools close: writes the last security events
	if cfg.AuditRetention > 0 {
		go store.RunAuditRetention(ctx, cfg.AuditRetention) // ends with the signal context
	}
	go store.RunSubmissionRetention(ctx) // the submission log keeps 30 days
	// Chain events exist only with a secret key to seal signing secrets;
	// the scanner and the delivery service share this store (push
	// delivery installs itself with SetEnqueuer).
	var hookStore *events.Store
	if len(cfg.WebhookSecretKey) > 0 {
		sealer, err := events.NewSealer(cfg.WebhookSecretKey)
		if err != nil {
			return fmt.Errorf("webhook secret key: %w", err)
		}
		hookStore = events.NewStore(adminDB, events.Options{Sealer: sealer})
		stopEvents, err := startChainEvents(ctx, cfg, conn, hookStore, sealer, networks, schema, log)
		if err != nil {
			return fmt.Errorf("chain events: %w", err)
		}
		defer stopEvents(context.Background())
	}
	usageRec := admin.NewUsageRecorder(usageDB, admin.DefaultUsageFlushInterval, log)
	usageRec.Start()

	// One node connection per submission (docs/DECISIONS.md); a network
	// without NODE_SOCKET_<NET> answers 503 on POST /v1/tx/submit.
	submitter := node.NewSubmitter(node.SocketsFromConfig(cfg), node.Options{})
	// The mempool over the same sockets: one snapshot per network shared
	// by every request for a second (LocalTxMonitor).
	mempool := node.NewMempool(node.SocketsFromConfig(cfg), node.MempoolOptions{})

	// Token registry: indexed now (a bad TOKEN_REGISTRY_DIR stops the start),
	// re-indexed in the background until shutdown.
	reg, err := registry.New(registry.Options{URL: cfg.TokenRegistryURL, Dir: cfg.TokenRegistryDir, Redis: rc, Log: log})
	if err != nil {
		return err
	}
	regCtx, stopRegistry := context.WithCancel(ctx)
	defer stopRegistry()
	go reg.Run(regCtx)

	// Pool live stake: refreshed in the background (one instance at a time
	// across the deployment) into the admin database; stopped before the
	// databases close (defers run last-in, first-out).
	stats := poolstats.New(authDB, networks, poolstats.Options{Log: log, RefreshDB: refreshDB})
	stats.Start(ctx)
	defer stats.Stop()

	// Unspent-output index (core-mode db-sync only): built and kept current
	// in the db-sync database by one instance at a time, read by every
	// instance while it is current (docs/DECISIONS.md); each network's
	// maintainer has a small pool of its own on the primary.
	utxoConns := map[string]*sqlx.DB{}
	for name := range networks {
		c, err := pgconn.Open(cfg.Networks[name].DBSyncURL, conn)
		if err != nil {
			return fmt.Errorf("%s: unspent-output index: %w", name, err)
		}
		c.SetMaxOpenConns(2)
		c.SetMaxIdleConns(2)
		defer c.Close()
		utxoConns[name] = c
	}
	indexOpts := utxoindex.DefaultOptions()
	if indexOpts.Keep = cfg.UTxOIndexKeepBlocks; indexOpts.Keep < 0 {
		indexOpts.Keep = utxoindex.KeepAll
	}
	utxoIndex := utxoindex.NewMaintainer(networks, utxoConns, utxoindex.MaintainerOptions{Index: indexOpts, Log: log})
	utxoIndex.Start(ctx)
	defer utxoIndex.Stop()

	// Copies of long UTxO lists on disk: repeats skip Redis (internal/platform/spool).
	var lists *spool.Spool
	if cfg.ListSpoolBytes > 0 {
		switch lists, err = spool.New(cfg.ListSpoolDir, cfg.ListSpoolBytes); {
		case err != nil && cfg.ListSpoolDir != "":
			return fmt.Errorf("LIST_SPOOL_DIR: %w", err)
		case err != nil: // no usable temporary directory: serve without copies
			log.Warn("UTxO lists will not be spooled", slog.String("error", err.Error()))
		default:
			defer lists.Close()
			metrics.WatchSpool(lists.Used)
		}
	}

	var draining atomic.Bool
	srv := handlers.New(handlers.Deps{
		Config:      cfg,
		Networks:    networks,
		Redis:       rc,
		Credentials: authn,
		Admin:       store,
		AdminReady:  schema.Ready,
		Limiter:     cache.NewLimiter(fast, nil).ForInstances(cfg.RateLimitInstances),
		// failed authentications per client IP, shared like the rate limit
		// but through a pool of their own that waits for Redis (exact count)
		AuthFailures: cache.NewLimiter(authFailFast, nil).ForInstances(cfg.RateLimitInstances),
		Usage:        usageRec,
		Quota: quota.New(quota.Options{Counter: cache.NewQuotaCounter(fast), Usage: store, Recorder: usageRec,
			Log: log, Notify: quotaNotices(hookStore, log), Instances: cfg.RateLimitInstances}),
		Spool:      lists,
		Submitter:  submitter,
		Mempool:    mempool,
		Registry:   reg,
		PoolStats:  stats,
		Log:        log,
		Draining:   draining.Load,
		AdminCheck: adminReady(adminDB),
		Events:     hookStore,
	})
	httpSrv := &http.Server{
		Handler:           srv.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		// The event feed may wait events.MaxWait before it answers.
		WriteTimeout: cfg.StatementTimeout + 20*time.Second + events.MaxWait,
		IdleTimeout:  120 * time.Second,
		// net/http's own messages (TLS handshakes, accept errors) as JSON.
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	ln, err := net.Listen("tcp", cfg.ListenAddr)
	if err != nil {
		return err
	}
	log.Info("listening", slog.String("addr", ln.Addr().String()))
	if ready != nil {
		ready(ln.Addr().String())
	}
	if cfg.PprofAddr != "" {
		stopPprof, err := servePprof(cfg.PprofAddr, log)
		if err != nil {
			ln.Close()
			return err
		}
		defer stopPprof()
	}
	if cfg.MetricsAddr != "" {
		stopMetrics, err := serveMetrics(cfg.MetricsAddr, log, networks, adminDB, rc)
		if err != nil {
			ln.Close()
			return err
		}
		defer stopMetrics()
	}
	errCh := make(chan error, 1)
	go func() { errCh <- httpSrv.Serve(ln) }()
	select {
	case err := <-errCh:
		usageRec.Close(context.Background()) //nolint:errcheck // best effort on a failed listener
		return err
	case <-ctx.Done():
	}
	// Drain: /readyz turns 503 at once and every response asks its client
	// to close the connection, while the listener keeps serving for
	// SHUTDOWN_DELAY (the time a load balancer needs to notice); then the
	// listener closes and in-flight requests get SHUTDOWN_TIMEOUT.
	draining.Store(true)
	log.Info("shutting down: not ready, serving with Connection: close", slog.Duration("delay", cfg.ShutdownDelay))
	select {
	case <-time.After(cfg.ShutdownDelay):
	case err := <-errCh:
		usageRec.Close(context.Background()) //nolint:errcheck // best effort on a failed listener
		return err
	}
	log.Info("shutting down: draining in-flight requests", slog.Duration("deadline", cfg.ShutdownTimeout))
	shutdownCtx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	shutdownErr := httpSrv.Shutdown(shutdownCtx)
	// Usage last: every drained request has been recorded by now. The
	// final flush has its own timeout (admin.FinalFlushTimeout), so a drain
	// that used all of SHUTDOWN_TIMEOUT does not cost the last counts.
	if err := usageRec.Close(shutdownCtx); err != nil {
		log.Error("final usage flush failed", slog.String("error", err.Error()))
	}
	if shutdownErr != nil {
		return fmt.Errorf("shutdown: %w", shutdownErr)
	}
	log.Info("stopped")
	return nil
}

// adminPool opens a pool of at most n connections to the admin database,
// all kept idle (it does not dial; errors show on first use).
func adminPool(url string, conn pgconn.Options, n int) *sqlx.DB {
	db := pgconn.MustOpen(url, conn)
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	return db
}

// servePprof serves net/http/pprof on addr (PPROF_ADDR, loopback only,
// off by default) on its own mux and listener, so the profiler is never
// reachable through the API port. The returned function closes it.
func servePprof(addr string, log *slog.Logger) (func(), error) {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("pprof: %w", err)
	}
	// No WriteTimeout: a CPU profile or trace streams for its ?seconds=.
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	log.Warn("pprof listening: profiling endpoints are exposed on this address", slog.String("addr", ln.Addr().String()))
	return func() { srv.Close() }, nil
}
