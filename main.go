// Command syncgate serves a read-only REST API over cardano-db-sync
// databases with multi-tenant API key management on top.
//
//	syncgate [serve]   run the HTTP service (default)
//	syncgate migrate   apply the admin schema migrations and exit
//	syncgate demo      create, seed and serve a local demo (prints keys and curl commands)
//	syncgate seed      load a synthetic db-sync chain into a database
//	syncgate indexes   create syncgate's recommended extra db-sync indexes
//	syncgate admin-key create|roll|revoke   manage admin keys from the command line
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/fixture"
	"github.com/syncgate/syncgate/handlers"
	"github.com/syncgate/syncgate/internal/pgdb"
	"github.com/syncgate/syncgate/internal/poolstats"
	"github.com/syncgate/syncgate/internal/registry"
	"github.com/syncgate/syncgate/node"
	sqlfiles "github.com/syncgate/syncgate/sql"
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
  seed --db URL --txs N [--seed S] [--mode core|consumed] [--manifest FILE]  (creates the database if missing)
  indexes --db URL           create the recommended extra db-sync indexes
  admin-key create --name N --permissions p1,p2 [--db URL]
  admin-key roll --id ID [--expires-in SECONDS] [--db URL]
  admin-key revoke --id ID [--db URL]`

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
		db.SetMaxActive(cfg.DBSyncMaxActive)
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
	// database/sql keeps 2 idle connections by default, so under load most
	// requests that touch the admin schema would dial anew.
	adminDB.SetMaxOpenConns(16)
	adminDB.SetMaxIdleConns(16)
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
	// The hot path (auth + rate limit) gets its own Redis pool with tight
	// deadlines and a circuit breaker; nil without Redis.
	fast := cache.NewFastClient(rc, cache.FastOptions{})
	defer fast.Close()
	store := admin.NewStore(adminDB, admin.Options{BootstrapAdminKey: cfg.BootstrapAdminKey, Log: log, Redis: fast})
	defer store.Close() // runs first: flushes last_used_at while the pools are open
	usageRec := admin.NewUsageRecorder(adminDB, admin.DefaultUsageFlushInterval, log)
	usageRec.Start()

	// One node connection per submission (docs/DECISIONS.md); a network
	// without NODE_SOCKET_<NET> answers 503 on POST /v1/tx/submit.
	submitter := node.NewSubmitter(node.SocketsFromConfig(cfg), node.Options{})

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
		Admin:       store,
		Limiter:     cache.NewLimiter(fast, nil),
		Usage:       usageRec,
		Submitter:   submitter,
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
	if cfg.PprofAddr != "" {
		stopPprof, err := servePprof(cfg.PprofAddr, log)
		if err != nil {
			ln.Close()
			return err
		}
		defer stopPprof()
	}
	errCh := make(chan error, 1)
	go func() { errCh <- httpSrv.Serve(ln) }()
	select {
	case err := <-errCh:
		usageRec.Close(context.Background()) //nolint:errcheck // best effort on a failed listener
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: draining in-flight requests", slog.Duration("deadline", cfg.ShutdownTimeout))
	shutdownCtx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	shutdownErr := httpSrv.Shutdown(shutdownCtx)
	// Usage last: every drained request has been recorded by now.
	if err := usageRec.Close(shutdownCtx); err != nil {
		log.Error("final usage flush failed", slog.String("error", err.Error()))
	}
	if shutdownErr != nil {
		return fmt.Errorf("shutdown: %w", shutdownErr)
	}
	log.Info("stopped")
	return nil
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
	if err := pgdb.EnsureDatabase(ctx, *dbURL); err != nil {
		return fmt.Errorf("seed: %w", err)
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

// adminKeyUsage is the usage of `syncgate admin-key`.
const adminKeyUsage = `usage: syncgate admin-key create --name N --permissions p1,p2 [--db URL]
       syncgate admin-key roll --id ID [--expires-in SECONDS] [--db URL]
       syncgate admin-key revoke --id ID [--db URL]`

// runAdminKey manages admin keys from the command line (no bootstrap key
// needed: shell access to the admin database is the credential). A new
// key is printed once; the audit log records each action as the bootstrap
// key's.
func runAdminKey(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return errors.New(adminKeyUsage)
	}
	fs := flag.NewFlagSet("admin-key "+args[0], flag.ContinueOnError)
	dbURL := fs.String("db", os.Getenv("ADMIN_DATABASE_URL"), "admin database URL (ADMIN_DATABASE_URL)")
	redisURL := fs.String("redis", os.Getenv("REDIS_URL"), "the service's Redis (REDIS_URL), so a revocation reaches every instance at once")
	var run func(*admin.Store) error
	switch args[0] {
	case "create":
		name := fs.String("name", "", "admin_entity_name (required)")
		permList := fs.String("permissions", "", "comma-separated: "+strings.Join(admin.Permissions, ","))
		run = func(store *admin.Store) error {
			if strings.TrimSpace(*name) == "" || len(*name) > 255 {
				return errors.New(adminKeyUsage + "\n(--name 1 to 255 characters)")
			}
			perms := []string{}
			for _, p := range strings.Split(*permList, ",") {
				if p = strings.TrimSpace(p); p == "" {
					continue
				}
				if !admin.ValidPermission(p) {
					return fmt.Errorf("admin-key: unknown permission %q (known: %s)", p, strings.Join(admin.Permissions, ", "))
				}
				perms = append(perms, p)
			}
			k, key, err := store.CreateAdminKey(ctx, admin.Bootstrap(""), *name, perms)
			if err != nil {
				return err
			}
			fmt.Printf("admin key %s (%s) created with permissions [%s]\n", k.ID, k.EntityName, strings.Join(perms, ","))
			fmt.Printf("key (shown once, store it now): %s\n", key)
			return nil
		}
	case "roll":
		id := fs.String("id", "", "admin key id (required)")
		expiresIn := fs.Int("expires-in", 0, "seconds the old key keeps working, 0 to 604800")
		run = func(store *admin.Store) error {
			kid, err := uuid.Parse(*id)
			if err != nil {
				return errors.New(adminKeyUsage + "\n(--id must be an admin key id)")
			}
			overlap := time.Duration(*expiresIn) * time.Second
			if *expiresIn < 0 || overlap > admin.MaxRollOverlap {
				return errors.New("admin-key roll: --expires-in must be from 0 to 604800 seconds (7 days)")
			}
			r, err := store.RollAdminKey(ctx, admin.Bootstrap(""), kid, overlap)
			if errors.Is(err, admin.ErrNotFound) {
				return errors.New("admin-key roll: admin key not found or already revoked")
			}
			if err != nil {
				return err
			}
			if r.Previous.Revoked {
				fmt.Printf("admin key %s revoked\n", r.Previous.ID)
			} else {
				fmt.Printf("admin key %s keeps working until %s\n", r.Previous.ID, r.Previous.ExpiresAt.UTC().Format(time.RFC3339))
			}
			fmt.Printf("new admin key %s (%s) of the same partner, permissions [%s]\n", r.New.ID, r.New.EntityName, strings.Join(r.New.Permissions, ","))
			fmt.Printf("key (shown once, store it now): %s\n", r.Key)
			return nil
		}
	case "revoke":
		id := fs.String("id", "", "admin key id (required)")
		run = func(store *admin.Store) error {
			kid, err := uuid.Parse(*id)
			if err != nil {
				return errors.New(adminKeyUsage + "\n(--id must be an admin key id)")
			}
			r, err := store.RevokeAdminKey(ctx, admin.Bootstrap(""), kid)
			if errors.Is(err, admin.ErrNotFound) {
				return errors.New("admin-key revoke: admin key not found or already revoked")
			}
			if err != nil {
				return err
			}
			fmt.Printf("admin key %s (%s) revoked\n", r.ID, r.EntityName)
			if r.LastOfPartner {
				fmt.Printf("it was its partner's last active key: %d credentials revoked\n", r.CredentialsRevoked)
			}
			return nil
		}
	default:
		return errors.New(adminKeyUsage)
	}
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *dbURL == "" {
		return errors.New(adminKeyUsage + "\n(--db or ADMIN_DATABASE_URL required)")
	}
	db, err := sqlx.Open("postgres", *dbURL)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := admin.Migrate(ctx, db); err != nil {
		return err
	}
	// Through the service's Redis a revocation or roll reaches every
	// instance's credential cache on its next request; without it, within
	// the cache's TTL (60 s).
	var rc *cache.Client
	if *redisURL != "" {
		if rc, err = cache.New(*redisURL, "sg:"); err != nil {
			return err
		}
		defer rc.Close()
	}
	fast := cache.NewFastClient(rc, cache.FastOptions{})
	defer fast.Close()
	store := admin.NewStore(db, admin.Options{Redis: fast})
	defer store.Close()
	return run(store)
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
	if err := pgdb.EnsureDatabase(ctx, dbURL); err != nil {
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
	if os.Getenv("REDIS_URL") == "" && localRedisAnswers(ctx) {
		// The demo works without Redis; with the local one it shows the
		// shared rate limiter and caches as a real deployment runs them.
		environ = append(environ, "REDIS_URL="+localRedisURL)
	}
	cfg, err := config.Load(environ, nil)
	if err != nil {
		return fmt.Errorf("configuration:\n%w", err)
	}
	access, err := demoAccess(ctx, cfg.AdminDatabaseURL)
	if err != nil {
		return fmt.Errorf("demo: keys: %w", err)
	}
	address := demoAddressFrom(ctx, dbURL)
	return serve(ctx, cfg, newLogger(cfg.LogLevel), func(addr string) {
		base := "http://" + addr
		fmt.Printf(`
syncgate demo is serving on %[1]s

  admin key (all permissions): %[2]s
  user account:                %[3]s
  API key (mainnet):           %[4]s
  (keys are stored only as hashes: each demo run revokes the previous demo keys and prints new ones)

  curl %[1]s/v1/health
  curl -H 'Authorization: Bearer %[4]s' %[1]s/v1/utxos/address/%[5]s
  curl -H 'Authorization: Bearer %[2]s' %[1]s/v1/admin/users
`, base, access.AdminKey, access.UserID, access.APIKey, address)
	})
}

// demoAccess migrates the admin schema and issues the demo's admin key,
// user and API key (admin.EnsureDemoAccess).
func demoAccess(ctx context.Context, dbURL string) (admin.DemoAccess, error) {
	db, err := sqlx.Open("postgres", dbURL)
	if err != nil {
		return admin.DemoAccess{}, err
	}
	defer db.Close()
	if _, err := admin.Migrate(ctx, db); err != nil {
		return admin.DemoAccess{}, err
	}
	store := admin.NewStore(db, admin.Options{})
	defer store.Close()
	mainnet, _ := config.NetworkByName("mainnet")
	return store.EnsureDemoAccess(ctx, mainnet.ID)
}

// fallbackDemoAddress is a real mainnet base address (CIP-19 test vector),
// used when no manifest names a busier one.
const fallbackDemoAddress = "addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3x"

// demoAddress picks the address for the demo's UTxO query from the
// generator's manifest: the whale, else an ordinary address. With no
// manifest (the database was seeded by an earlier run elsewhere) it asks
// the demo database (db, when not nil) for an address holding unspent
// outputs, and only then falls back to a fixed address.
func demoAddress(ctx context.Context, manifestPath string, db *sqlx.DB) string {
	m, err := fixture.ReadManifest(manifestPath)
	switch {
	case err != nil:
		var addr string
		if db != nil && db.GetContext(ctx, &addr, sqlDemoAddress) == nil {
			return addr
		}
		return fallbackDemoAddress
	case m.Whale.Address != "":
		return m.Whale.Address
	case len(m.Addresses) > 0:
		return m.Addresses[0].Address
	}
	return fallbackDemoAddress
}

var sqlDemoAddress = sqlfiles.Must("dbsync/fixture/demo_address.sql")

// demoAddressFrom is demoAddress for the demo: its manifest file, its
// database.
func demoAddressFrom(ctx context.Context, dbURL string) string {
	db, err := sqlx.Open("postgres", dbURL)
	if err != nil {
		return demoAddress(ctx, "demo-manifest.json", nil)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return demoAddress(ctx, "demo-manifest.json", db)
}

// localRedisURL is where `make demo` starts Redis when it can.
const localRedisURL = "redis://127.0.0.1:6379/0"

// localRedisAnswers reports whether a Redis answers at localRedisURL
// within a fraction of a second.
func localRedisAnswers(ctx context.Context) bool {
	c, err := cache.New(localRedisURL, "")
	if err != nil {
		return false
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	return c.Ping(ctx) == nil
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}
