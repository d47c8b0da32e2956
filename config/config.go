// Package config reads syncgate's configuration from the environment and
// command-line flags, validates it and reports every problem at once.
// It never exits the process and never prints a secret.
package config

import (
	"errors"
	"flag"
	"fmt"
	"github.com/syncgate/syncgate/internal/cardano"
	"net"
	"net/url"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
)

// NetworkConfig is what one served network needs.
type NetworkConfig struct {
	cardano.Network
	DBSyncURL   string
	ReplicaURLs []string
	NodeSocket  string
}

// Config is the whole service configuration.
type Config struct {
	ListenAddr        string
	Networks          map[string]NetworkConfig // keyed by network name
	AdminDatabaseURL  string
	RedisURL          string
	BootstrapAdminKey string
	TokenRegistryURL  string
	TokenRegistryDir  string
	// StatementTimeout bounds every db-sync statement; a query that runs
	// longer is answered 504 instead of holding a connection.
	StatementTimeout time.Duration
	// DBSyncMaxActive is how many requests at a time may query one db-sync
	// server; the rest wait in arrival order (0: no limit). The default,
	// two per core of this host (the usual PostgreSQL pool rule) up to 32,
	// suits PostgreSQL on the same machine; raise it for a bigger database
	// server. Each db-sync pool holds this many connections plus 20.
	DBSyncMaxActive int
	// ShutdownTimeout is how long in-flight requests get to finish on SIGTERM.
	ShutdownTimeout time.Duration
	// MaxTipLag is the db-sync lag above which /v1/health says degraded.
	MaxTipLag time.Duration
	LogLevel  string
	// PprofAddr, when set, serves net/http/pprof on its own listener for
	// profiling under load. Off by default; loopback addresses only, since
	// profiles expose memory contents and cost CPU to take.
	PprofAddr string
	// MetricsAddr, when set, serves Prometheus metrics at /metrics on its
	// own listener (any interface: a scraper usually runs elsewhere; the
	// API port never exposes them). Off by default.
	MetricsAddr string
	// TrustedProxies are the CIDRs (or IPs) whose X-Forwarded-For is
	// believed for the client IP recorded in the audit log. Empty: the TCP
	// peer is the client, so nobody can forge the audited address.
	TrustedProxies []string
	// AdminRateLimitPerMinute is each admin key's budget of admin API
	// requests per minute (the bootstrap key's too).
	AdminRateLimitPerMinute int
	// RateLimitInstances is how many instances share the rate limits in
	// Redis: each leases at most limit × 5 % / RateLimitInstances tokens
	// of a credential at a time, so together they overshoot a limit by at
	// most 5 % (more instances than configured: proportionally more).
	RateLimitInstances int
	// HistoryMemoBytes bounds each network's memo of final history pages
	// and transaction details (dbsync/history_memo.go); below 0: off.
	HistoryMemoBytes int
	// ListSpoolBytes bounds the disk space of this instance's copies of
	// long UTxO lists (internal/platform/spool) in ListSpoolDir (empty: the system's
	// temporary directory); 0: no copies, every repeat is read from Redis.
	ListSpoolBytes int64
	ListSpoolDir   string
	// UTxOIndexKeepBlocks is how many blocks the unspent-output index
	// (core-mode db-sync) keeps each spend marked; -1: for ever. See
	// ParseKeepBlocks.
	UTxOIndexKeepBlocks int
	Hardening
	Resilience
}

// Load reads the configuration from environ (os.Environ's form, "K=V") and
// then the flags in args (flags win). It returns every problem found, one
// line each.
func Load(environ []string, args []string) (Config, error) {
	vars := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			vars[k] = v
		}
	}
	getenv := func(k string) string { return vars[k] }
	var cfg Config
	var problems []string
	add := func(format string, a ...any) { problems = append(problems, fmt.Sprintf(format, a...)) }

	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(new(strings.Builder))
	env := func(k, def string) string {
		if v := strings.TrimSpace(getenv(k)); v != "" {
			return v
		}
		return def
	}
	listen := fs.String("listen-addr", env("LISTEN_ADDR", ":8080"), "HTTP listen address (LISTEN_ADDR)")
	adminURL := fs.String("admin-database-url", env("ADMIN_DATABASE_URL", ""), "admin database (ADMIN_DATABASE_URL)")
	redisURL := fs.String("redis-url", env("REDIS_URL", ""), "Redis URL (REDIS_URL)")
	bootstrap := fs.String("bootstrap-admin-key", env("BOOTSTRAP_ADMIN_KEY", ""), "bootstrap admin key (BOOTSTRAP_ADMIN_KEY)")
	regURL := fs.String("token-registry-url", env("TOKEN_REGISTRY_URL", ""), "token registry server (TOKEN_REGISTRY_URL)")
	regDir := fs.String("token-registry-dir", env("TOKEN_REGISTRY_DIR", ""), "local clone of registry mappings/ (TOKEN_REGISTRY_DIR)")
	stmt := fs.String("statement-timeout", env("STATEMENT_TIMEOUT", "10s"), "db-sync statement timeout (STATEMENT_TIMEOUT)")
	maxActive := fs.String("dbsync-max-active", env("DBSYNC_MAX_ACTIVE", strconv.Itoa(min(2*runtime.GOMAXPROCS(0), 32))),
		"requests querying one db-sync server at a time; 0: no limit (DBSYNC_MAX_ACTIVE)")
	shutdown := fs.String("shutdown-timeout", env("SHUTDOWN_TIMEOUT", "20s"), "graceful shutdown deadline (SHUTDOWN_TIMEOUT)")
	maxLag := fs.String("max-tip-lag", env("MAX_TIP_LAG", "10m"), "db-sync lag that makes health degraded (MAX_TIP_LAG)")
	logLevel := fs.String("log-level", env("LOG_LEVEL", "info"), "debug, info, warn or error (LOG_LEVEL)")
	metricsAddr := fs.String("metrics-addr", env("METRICS_ADDR", ""), "address for Prometheus /metrics, e.g. :9090 (METRICS_ADDR; off when empty)")
	pprofAddr := fs.String("pprof-addr", env("PPROF_ADDR", ""), "loopback address for net/http/pprof, e.g. 127.0.0.1:6060 (PPROF_ADDR; off when empty)")
	adminRate := fs.String("admin-rate-limit-per-minute", env("ADMIN_RATE_LIMIT_PER_MINUTE", "600"), "admin API requests per minute per admin key (ADMIN_RATE_LIMIT_PER_MINUTE)")
	rlInstances := fs.String("rate-limit-instances", env("RATE_LIMIT_INSTANCES", "4"), "instances sharing the rate limits; sizes the leased slices (RATE_LIMIT_INSTANCES)")
	memoMB := fs.String("history-memo-mb", env("HISTORY_MEMO_MB", "32"), "MB per network for final history pages and transaction details; 0: off (HISTORY_MEMO_MB)")
	spoolMB := fs.String("list-spool-mb", env("LIST_SPOOL_MB", "256"), "disk MB for this instance's copies of long UTxO lists; 0: off (LIST_SPOOL_MB)")
	spoolDir := fs.String("list-spool-dir", env("LIST_SPOOL_DIR", ""), "directory for those copies (LIST_SPOOL_DIR; empty: the system temporary directory)")
	keepBlocks := fs.String("utxo-index-keep-blocks", env("UTXO_INDEX_KEEP_BLOCKS", strconv.Itoa(MinKeepBlocks)), "blocks the unspent-output index keeps spends for (core-mode db-sync), or all (UTXO_INDEX_KEEP_BLOCKS)")
	proxies := fs.String("trusted-proxies", env("TRUSTED_PROXIES", ""), "comma-separated proxy CIDRs/IPs whose X-Forwarded-For is trusted (TRUSTED_PROXIES)")
	checkHardening := hardeningFlags(fs, env)
	checkResilience := resilienceFlags(fs, env)
	dbURL := map[string]*string{}
	replicas := map[string]*string{}
	sockets := map[string]*string{}
	for _, n := range cardano.Networks {
		up := strings.ToUpper(n.Name)
		dbURL[n.Name] = fs.String("dbsync-"+n.Name+"-url", env("DBSYNC_"+up+"_URL", ""), "db-sync database (DBSYNC_"+up+"_URL)")
		replicas[n.Name] = fs.String("dbsync-"+n.Name+"-replica-urls", env("DBSYNC_"+up+"_REPLICA_URLS", ""), "comma-separated read replicas")
		sockets[n.Name] = fs.String("node-socket-"+n.Name, env("NODE_SOCKET_"+up, ""), "cardano-node socket (NODE_SOCKET_"+up+")")
	}
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		add("unexpected argument %q", fs.Arg(0))
	}
	// DBSYNC_<NET>_URL for an unknown network is almost always a typo.
	keys := make([]string, 0, len(vars))
	for k := range vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if strings.HasPrefix(k, "DBSYNC_") && strings.HasSuffix(k, "_URL") && !strings.HasSuffix(k, "_REPLICA_URLS") {
			name := strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(k, "DBSYNC_"), "_URL"))
			if _, ok := cardano.NetworkByName(name); !ok {
				add("%s: unknown network %q (known: mainnet, preview, preprod)", k, name)
			}
		}
	}

	cfg.ListenAddr = *listen
	cfg.AdminDatabaseURL = *adminURL
	cfg.RedisURL = *redisURL
	cfg.BootstrapAdminKey = *bootstrap
	cfg.TokenRegistryURL = *regURL
	cfg.TokenRegistryDir = *regDir
	cfg.LogLevel = *logLevel
	cfg.Networks = map[string]NetworkConfig{}
	for _, n := range cardano.Networks {
		u := strings.TrimSpace(*dbURL[n.Name])
		if u == "" {
			if *replicas[n.Name] != "" {
				add("DBSYNC_%s_REPLICA_URLS is set but DBSYNC_%s_URL is not", strings.ToUpper(n.Name), strings.ToUpper(n.Name))
			}
			continue
		}
		if err := checkPostgresURL(u); err != nil {
			add("DBSYNC_%s_URL: %v", strings.ToUpper(n.Name), err)
		}
		nc := NetworkConfig{Network: n, DBSyncURL: u, NodeSocket: strings.TrimSpace(*sockets[n.Name])}
		for _, r := range strings.Split(*replicas[n.Name], ",") {
			if r = strings.TrimSpace(r); r == "" {
				continue
			}
			if err := checkPostgresURL(r); err != nil {
				add("DBSYNC_%s_REPLICA_URLS: %v", strings.ToUpper(n.Name), err)
			}
			nc.ReplicaURLs = append(nc.ReplicaURLs, r)
		}
		cfg.Networks[n.Name] = nc
	}
	if len(cfg.Networks) == 0 {
		add("no db-sync configured: set at least one of DBSYNC_MAINNET_URL, DBSYNC_PREVIEW_URL, DBSYNC_PREPROD_URL")
	}
	if cfg.AdminDatabaseURL == "" {
		if first, ok := cfg.FirstNetwork(); ok {
			cfg.AdminDatabaseURL = first.DBSyncURL
		}
	} else if err := checkPostgresURL(cfg.AdminDatabaseURL); err != nil {
		add("ADMIN_DATABASE_URL: %v", err)
	}
	if cfg.RedisURL != "" {
		for _, r := range strings.Split(cfg.RedisURL, ",") {
			if err := checkRedisURL(strings.TrimSpace(r)); err != nil {
				add("REDIS_URL: %v", err)
			}
		}
	}
	if cfg.TokenRegistryURL != "" {
		if u, err := url.Parse(cfg.TokenRegistryURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			add("TOKEN_REGISTRY_URL: not an http(s) URL")
		}
	}
	if k := cfg.BootstrapAdminKey; k != "" && len(k) < 32 {
		add("BOOTSTRAP_ADMIN_KEY: must be at least 32 characters")
	}
	parseDur := func(name, v string, dst *time.Duration) {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			add("%s: %q is not a positive duration (e.g. 10s)", name, v)
			return
		}
		*dst = d
	}
	parseDur("STATEMENT_TIMEOUT", *stmt, &cfg.StatementTimeout)
	parseDur("SHUTDOWN_TIMEOUT", *shutdown, &cfg.ShutdownTimeout)
	if n, err := strconv.Atoi(*maxActive); err != nil || n < 0 {
		add("DBSYNC_MAX_ACTIVE: %q is not a whole number of requests (0: no limit)", *maxActive)
	} else {
		cfg.DBSyncMaxActive = n
	}
	parseDur("MAX_TIP_LAG", *maxLag, &cfg.MaxTipLag)
	if n, err := strconv.Atoi(*adminRate); err != nil || n < 1 || n > 1_000_000 {
		add("ADMIN_RATE_LIMIT_PER_MINUTE: %q is not a whole number from 1 to 1000000", *adminRate)
	} else {
		cfg.AdminRateLimitPerMinute = n
	}
	if n, err := strconv.Atoi(*rlInstances); err != nil || n < 1 || n > 1000 {
		add("RATE_LIMIT_INSTANCES: %q is not a whole number from 1 to 1000", *rlInstances)
	} else {
		cfg.RateLimitInstances = n
	}
	if n, err := strconv.Atoi(*memoMB); err != nil || n < 0 || n > 65536 {
		add("HISTORY_MEMO_MB: %q is not a whole number from 0 to 65536", *memoMB)
	} else if cfg.HistoryMemoBytes = n << 20; n == 0 {
		cfg.HistoryMemoBytes = -1
	}
	if n, err := strconv.Atoi(*spoolMB); err != nil || n < 0 || n > 1<<20 {
		add("LIST_SPOOL_MB: %q is not a whole number from 0 to 1048576", *spoolMB)
	} else {
		cfg.ListSpoolBytes = int64(n) << 20
	}
	cfg.ListSpoolDir = strings.TrimSpace(*spoolDir)
	if n, err := ParseKeepBlocks(*keepBlocks); err != nil {
		add("UTXO_INDEX_KEEP_BLOCKS: %v", err)
	} else {
		cfg.UTxOIndexKeepBlocks = n
	}
	for _, p := range strings.Split(*proxies, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if _, _, err := net.ParseCIDR(p); err != nil && net.ParseIP(p) == nil {
			add("TRUSTED_PROXIES: %q is not an IP or CIDR", p)
			continue
		}
		cfg.TrustedProxies = append(cfg.TrustedProxies, p)
	}
	checkHardening(&cfg, add)
	checkResilience(&cfg, add)
	if *metricsAddr != "" {
		if _, _, err := net.SplitHostPort(*metricsAddr); err != nil {
			add("METRICS_ADDR: %q is not host:port", *metricsAddr)
		}
		cfg.MetricsAddr = *metricsAddr
	}
	if *pprofAddr != "" {
		if err := checkLoopback(*pprofAddr); err != nil {
			add("PPROF_ADDR: %v", err)
		}
		cfg.PprofAddr = *pprofAddr
	}
	switch cfg.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		add("LOG_LEVEL: %q is not one of debug, info, warn, error", cfg.LogLevel)
	}
	if len(problems) > 0 {
		return cfg, errors.New(strings.Join(problems, "\n"))
	}
	return cfg, nil
}

// FirstNetwork returns the served network with the lowest network_id.
func (c Config) FirstNetwork() (NetworkConfig, bool) {
	for _, n := range cardano.Networks {
		if nc, ok := c.Networks[n.Name]; ok {
			return nc, true
		}
	}
	return NetworkConfig{}, false
}

// Summary describes the configuration for the start-up log with every
// password and key removed.
func (c Config) Summary() map[string]any {
	nets := map[string]any{}
	for name, n := range c.Networks {
		reps := make([]string, len(n.ReplicaURLs))
		for i, r := range n.ReplicaURLs {
			reps[i] = Redact(r)
		}
		nets[name] = map[string]any{"dbsync": Redact(n.DBSyncURL), "replicas": reps, "node_socket": n.NodeSocket}
	}
	return map[string]any{
		"listen_addr":         c.ListenAddr,
		"networks":            nets,
		"admin_database":      Redact(c.AdminDatabaseURL),
		"redis":               Redact(c.RedisURL),
		"bootstrap_admin_key": c.BootstrapAdminKey != "",
		"token_registry_url":  c.TokenRegistryURL,
		"token_registry_dir":  c.TokenRegistryDir,
		"statement_timeout":   c.StatementTimeout.String(),
		"dbsync_max_active":   c.DBSyncMaxActive,
		"dbsync_max_queue":    c.DBSyncMaxQueue,
		"max_in_flight":       c.MaxInFlight,
		"shutdown_delay":      c.ShutdownDelay.String(),
		"pprof_addr":          c.PprofAddr,
		"metrics_addr":        c.MetricsAddr,
	}
}

// Redact removes the password from a URL (or a comma-separated list of them).
func Redact(raw string) string {
	if raw == "" {
		return ""
	}
	parts := strings.Split(raw, ",")
	for i, p := range parts {
		u, err := url.Parse(strings.TrimSpace(p))
		if err != nil {
			parts[i] = "(unparseable)"
			continue
		}
		if u.User != nil {
			if _, has := u.User.Password(); has {
				u.User = url.UserPassword(u.User.Username(), "xxxxx")
			}
		}
		q := u.Query()
		if q.Has("password") {
			q.Set("password", "xxxxx")
			u.RawQuery = q.Encode()
		}
		parts[i] = u.String()
	}
	return strings.Join(parts, ",")
}

func checkPostgresURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("unparseable URL")
	}
	if u.Scheme != "postgres" && u.Scheme != "postgresql" {
		return fmt.Errorf("scheme must be postgres:// or postgresql://")
	}
	return nil
}

func checkRedisURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("unparseable URL")
	}
	if u.Scheme != "redis" && u.Scheme != "rediss" {
		return fmt.Errorf("scheme must be redis:// or rediss://")
	}
	if u.Host == "" {
		return fmt.Errorf("missing host")
	}
	return nil
}

// checkLoopback accepts host:port whose host is a loopback address or
// localhost.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%q is not host:port", addr)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%q: only a loopback address (127.0.0.1, ::1, localhost) is allowed", addr)
	}
	return nil
}

// MinKeepBlocks is the fewest blocks the unspent-output index may keep a
// spend marked: Cardano's security parameter k, the deepest rollback it
// must be able to undo.
const MinKeepBlocks = 2160

// maxKeepBlocks bounds a number of blocks (mainnet has about 13 M).
const maxKeepBlocks = 1 << 30

// ParseKeepBlocks reads how long the unspent-output index keeps spends:
// a whole number of blocks from MinKeepBlocks, or "all" (-1). The marks
// also serve history pages without a tx_in walk, so keeping more trades
// disk for history pages (docs/DECISIONS.md).
func ParseKeepBlocks(v string) (int, error) {
	v = strings.TrimSpace(v)
	if strings.EqualFold(v, "all") {
		return -1, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < MinKeepBlocks || n > maxKeepBlocks {
		return 0, fmt.Errorf("%q is not all or a whole number of blocks from %d to %d", v, MinKeepBlocks, maxKeepBlocks)
	}
	return n, nil
}
