// Command syncgate serves a read-only REST API over cardano-db-sync
// databases with multi-tenant API key management on top.
//
//	syncgate [serve]   run the HTTP service (default)
//	syncgate migrate   apply the admin schema migrations and exit
//	syncgate demo      create, seed and serve a local demo (prints keys and curl commands)
//	syncgate seed      load a synthetic db-sync chain into a database
//	syncgate indexes   create syncgate's recommended extra db-sync indexes
//	syncgate admin-key create --name N --permissions p1,p2
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/fixture"
	"github.com/syncgate/syncgate/handlers"
	"github.com/syncgate/syncgate/internal/poolstats"
	"github.com/syncgate/syncgate/internal/registry"
)

func main() {
	args := os.Args[1:]
	cmd := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	var err error
	switch cmd {
	case "serve":
		err = runServe(ctx, os.Environ(), args)
	case "migrate":
		err = runMigrate(ctx, args)
	case "demo":
		err = runDemo(ctx, args)
	case "seed":
		err = runSeed(ctx, args)
	case "indexes":
		err = runIndexes(ctx, args)
	case "admin-key":
		err = runAdminKey(ctx, args)
	case "help", "-h", "--help":
		fmt.Println(usage)
		return
	default:
		err = fmt.Errorf("unknown command %q\n%s", cmd, usage)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "syncgate:", err)
		os.Exit(1)
	}
}

const usage = `usage: syncgate [serve|migrate|demo|seed|indexes|admin-key] [flags]
  serve                      run the HTTP service (configuration: README)
  migrate                    apply admin schema migrations
  demo                       create, seed and serve a local demo database
  seed --db URL --txs N [--seed S] [--mode core|consumed] [--manifest FILE]
  indexes --db URL           create the recommended extra db-sync indexes
  admin-key create --name N --permissions p1,p2 [--db URL]`

func newLogger(level string) *slog.Logger {
	var lv slog.Level
	_ = lv.UnmarshalText([]byte(level))
	return slog.New(slog.NewJSONHandler(os.Stdout, &slog.HandlerOptions{Level: lv}))
}

// runServe loads the configuration, connects everything, serves until a
// signal, then drains in-flight requests before closing the pools.
func runServe(ctx context.Context, environ []string, args []string) error {
	cfg, err := config.Load(environ, args)
	if err != nil {
		return fmt.Errorf("configuration:\n%w", err)
	}
	return serve(ctx, cfg, newLogger(cfg.LogLevel), nil)
}

// serve runs the service with cfg. ready, if set, receives the bound address.
func serve(ctx context.Context, cfg config.Config, log *slog.Logger, ready func(addr string)) error {
	slog.SetDefault(log)
	log.Info("starting", slog.Any("config", cfg.Summary()))

	networks := map[string]*dbsync.DB{}
	defer func() {
		for _, db := range networks {
			db.Close()
		}
	}()
	for _, n := range config.Networks {
		nc, ok := cfg.Networks[n.Name]
		if !ok {
			continue
		}
		db, err := dbsync.Open(ctx, nc, cfg.StatementTimeout)
		if err != nil {
			return err
		}
		if err := db.Caps.Supported(); err != nil {
			db.Close()
			return fmt.Errorf("%s: %w", n.Name, err)
		}
		log.Info("db-sync capabilities", slog.Any("dbsync", db))
		networks[n.Name] = db
	}

	adminDB, err := sqlx.Open("postgres", cfg.AdminDatabaseURL)
	if err != nil {
		return fmt.Errorf("admin database: %w", err)
	}
	defer adminDB.Close()
	applied, err := admin.Migrate(ctx, adminDB)
	if err != nil {
		return fmt.Errorf("admin database: %w", err)
	}
	if len(applied) > 0 {
		log.Info("admin migrations applied", slog.Any("migrations", applied))
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
	store := admin.NewStore(adminDB, admin.Options{BootstrapAdminKey: cfg.BootstrapAdminKey, Log: log})

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
	stats := poolstats.New(adminDB, networks, poolstats.Options{Log: log})
	stats.Start(ctx)
	defer stats.Stop()

	srv := handlers.New(handlers.Deps{
		Config:      cfg,
		Networks:    networks,
		Redis:       rc,
		Credentials: store,
		Registry:    reg,
		PoolStats:   stats,
		Log:         log,
	})
	httpSrv := &http.Server{
		Handler:           srv.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      cfg.StatementTimeout + 20*time.Second,
		IdleTimeout:       120 * time.Second,
	}
	ln, err := net.Listen("tcp", cfg.ListenAddr)
	if err != nil {
		return err
	}
	log.Info("listening", slog.String("addr", ln.Addr().String()))
	if ready != nil {
		ready(ln.Addr().String())
	}
	errCh := make(chan error, 1)
	go func() { errCh <- httpSrv.Serve(ln) }()
	select {
	case err := <-errCh:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: draining in-flight requests", slog.Duration("deadline", cfg.ShutdownTimeout))
	shutdownCtx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if err := httpSrv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	log.Info("stopped")
	return nil
}

func runMigrate(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	dbURL := fs.String("db", os.Getenv("ADMIN_DATABASE_URL"), "admin database URL (ADMIN_DATABASE_URL)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dbURL == "" {
		return errors.New("migrate: --db or ADMIN_DATABASE_URL is required")
	}
	db, err := sqlx.Open("postgres", *dbURL)
	if err != nil {
		return err
	}
	defer db.Close()
	applied, err := admin.Migrate(ctx, db)
	if err != nil {
		return err
	}
	fmt.Printf("applied %d migration(s) %v\n", len(applied), applied)
	return nil
}

func runSeed(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("seed", flag.ContinueOnError)
	dbURL := fs.String("db", "", "target database URL (required)")
	txs := fs.Int("txs", 50_000, "number of transactions")
	seed := fs.Int64("seed", 1, "random seed (same seed, same chain)")
	mode := fs.String("mode", "core", "core (tx_in filled) or consumed (tx_out.consumed_by_tx_id filled)")
	manifest := fs.String("manifest", "manifest.json", "where to write the manifest of notable entities")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dbURL == "" {
		return errors.New("seed: --db is required")
	}
	if *mode != string(fixture.ModeCore) && *mode != string(fixture.ModeConsumed) {
		return fmt.Errorf("seed: --mode must be core or consumed, not %q", *mode)
	}
	if *txs < 1 {
		return errors.New("seed: --txs must be positive")
	}
	start := time.Now()
	m, err := fixture.Seed(ctx, *dbURL, fixture.Options{
		Txs: *txs, Seed: *seed, Mode: fixture.Mode(*mode),
		Logf: func(f string, a ...any) { fmt.Printf(f+"\n", a...) },
	})
	if err != nil {
		return err
	}
	if *manifest != "" {
		if err := m.WriteFile(*manifest); err != nil {
			return err
		}
	}
	fmt.Printf("seeded %d transactions in %s; manifest: %s\n", *txs, time.Since(start).Round(time.Second), *manifest)
	return nil
}

func runIndexes(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("indexes", flag.ContinueOnError)
	dbURL := fs.String("db", "", "db-sync database URL (required)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dbURL == "" {
		return errors.New("indexes: --db is required")
	}
	db, err := sqlx.Open("postgres", *dbURL)
	if err != nil {
		return err
	}
	defer db.Close()
	return dbsync.CreateRecommendedIndexes(ctx, db, func(f string, a ...any) { fmt.Printf(f+"\n", a...) })
}

func runAdminKey(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] != "create" {
		return errors.New("usage: syncgate admin-key create --name N --permissions p1,p2 [--db URL]")
	}
	return errors.New("admin-key: not implemented yet")
}

// demoDatabaseURL is where `syncgate demo` keeps its data unless
// DATABASE_URL says otherwise.
const demoDatabaseURL = "postgres://postgres@127.0.0.1:5432/syncgate_demo?sslmode=disable"

// runDemo creates the demo database if missing, seeds it if empty, prints
// ready-to-use keys and curl commands, and serves it (Redis optional).
func runDemo(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	listen := fs.String("listen-addr", envOr("LISTEN_ADDR", "127.0.0.1:8080"), "HTTP listen address")
	txs := fs.Int("txs", 50_000, "transactions to seed into an empty demo database")
	if err := fs.Parse(args); err != nil {
		return err
	}
	dbURL := envOr("DATABASE_URL", demoDatabaseURL)
	if err := ensureDatabase(ctx, dbURL); err != nil {
		return fmt.Errorf("demo: %w (is PostgreSQL running? see README)", err)
	}
	m, err := fixture.Seed(ctx, dbURL, fixture.Options{Txs: *txs, Seed: 1, Mode: fixture.ModeCore,
		Logf: func(f string, a ...any) { fmt.Printf(f+"\n", a...) }})
	switch {
	case errors.Is(err, fixture.ErrNotEmpty):
		fmt.Println("demo database already seeded; reusing it")
	case err != nil:
		return fmt.Errorf("demo: seed: %w", err)
	default:
		_ = m.WriteFile("demo-manifest.json")
		fmt.Println("seeded demo chain; manifest written to demo-manifest.json")
	}
	environ := append(os.Environ(), "DBSYNC_MAINNET_URL="+dbURL, "LISTEN_ADDR="+*listen)
	cfg, err := config.Load(environ, nil)
	if err != nil {
		return fmt.Errorf("configuration:\n%w", err)
	}
	return serve(ctx, cfg, newLogger(cfg.LogLevel), func(addr string) {
		fmt.Printf("\nsyncgate demo is serving on http://%s\n  curl http://%s/v1/health\n", addr, addr)
	})
}

// ensureDatabase creates the database named in dsn if it does not exist,
// connecting to the server's postgres database to do so.
func ensureDatabase(ctx context.Context, dsn string) error {
	u, err := url.Parse(dsn)
	if err != nil {
		return fmt.Errorf("unparseable database URL")
	}
	name := strings.TrimPrefix(u.Path, "/")
	if name == "" {
		return errors.New("database URL names no database")
	}
	maint := *u
	maint.Path = "/postgres"
	db, err := sqlx.Open("postgres", maint.String())
	if err != nil {
		return err
	}
	defer db.Close()
	var exists bool
	if err := db.GetContext(ctx, &exists, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name); err != nil {
		return err
	}
	if exists {
		return nil
	}
	// Identifiers cannot be parameters; quote it as an identifier.
	_, err = db.ExecContext(ctx, `CREATE DATABASE "`+strings.ReplaceAll(name, `"`, `""`)+`"`)
	return err
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}
