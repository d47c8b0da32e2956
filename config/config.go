// Package config reads syncgate's configuration from the environment and
// command-line flags, validates it and reports every problem at once.
// It never exits the process and never prints a secret.
//
// Every setting is one row of the table in settings.go: its variable (the
// flag is the same name in lower case with dashes), default, reader and
// help text, grouped by subsystem. The same table parses the environment
// and the flags (Load) and prints README.md's Configuration table
// (Markdown, `syncgate config --markdown`).
package config

import (
	"errors"
	"flag"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/syncgate/syncgate/internal/cardano"
)

// NetworkConfig is what one served network needs.
type NetworkConfig struct {
	cardano.Network
	DBSyncURL   string
	ReplicaURLs []string
	NodeSocket  string
}

// Config is the whole service configuration, in the groups of the
// settings table (settings.go: each variable's row says what it does).
type Config struct {
	// Listen & HTTP
	ListenAddr string
	// MaxInFlight bounds the requests this instance works on at once;
	// beyond it requests are answered 503 at once (0: no bound).
	MaxInFlight int
	// ShutdownDelay is how long the listener keeps serving after SIGTERM,
	// with /readyz answering 503 and every response closing its
	// connection, before in-flight requests are drained (0: none).
	ShutdownDelay time.Duration
	// ShutdownTimeout is how long in-flight requests get to finish on SIGTERM.
	ShutdownTimeout time.Duration

	// Databases
	Networks         map[string]NetworkConfig // keyed by network name
	AdminDatabaseURL string
	// UTxOIndexKeepBlocks is how many blocks the unspent-output index
	// (core-mode db-sync) keeps each spend marked; -1: for ever. See
	// ParseKeepBlocks.
	UTxOIndexKeepBlocks int

	// Transaction submission & token registry (node sockets: Networks)
	TokenRegistryURL string
	TokenRegistryDir string

	// Redis & rate limits
	RedisURL string
	// RateLimitInstances is how many instances share the rate limits in
	// Redis: each leases at most limit × 5 % / RateLimitInstances tokens
	// of a credential at a time, so together they overshoot a limit by at
	// most 5 % (more instances than configured: proportionally more).
	// While an instance cannot reach Redis in time it grants only 1 /
	// RateLimitInstances of a rate limit or of what is left of a quota.
	RateLimitInstances int
	// AdminRateLimitPerMinute is each admin key's budget of admin API
	// requests per minute (the bootstrap key's too).
	AdminRateLimitPerMinute int
	// AuthFailuresPerMinute is the per-client-IP budget of failed
	// authentications (0: no limit).
	AuthFailuresPerMinute int

	// Resilience & deadlines
	// StatementTimeout bounds every db-sync statement; a query that runs
	// longer is answered 504 instead of holding a connection.
	StatementTimeout time.Duration
	// DBSyncMaxActive is how many requests at a time may query one db-sync
	// server; the rest wait in arrival order (0: no limit). The default,
	// two per core of this host (the usual PostgreSQL pool rule) up to 32,
	// suits PostgreSQL on the same machine; raise it for a bigger database
	// server. Each db-sync pool holds this many connections plus 20.
	DBSyncMaxActive int
	// DBSyncMaxQueue bounds the requests waiting at one db-sync server's
	// gate; beyond it they are answered 503 at once (0: no bound).
	DBSyncMaxQueue int
	// ProbeInterval and ProbeTimeout: how often each db-sync server is
	// probed, and how long a probe may take before the server leaves
	// rotation.
	ProbeInterval, ProbeTimeout time.Duration
	// MaxReplicaLag: a replica further behind the primary's tip leaves
	// rotation until it has caught up.
	MaxReplicaLag time.Duration
	// DBConnectTimeout bounds opening one PostgreSQL connection (db-sync
	// and admin databases).
	DBConnectTimeout time.Duration

	// Caches & memory
	// HistoryMemoBytes bounds each network's memo of final history pages
	// and transaction details (dbsync/history_memo.go); below 0: off.
	HistoryMemoBytes int
	// ListSpoolBytes bounds the disk space of this instance's copies of
	// long UTxO lists (internal/platform/spool) in ListSpoolDir (empty: the system's
	// temporary directory); 0: no copies, every repeat is read from Redis.
	ListSpoolBytes int64
	ListSpoolDir   string

	// Security
	BootstrapAdminKey string
	// TrustedProxies are the CIDRs (or IPs) whose X-Forwarded-For is
	// believed for the client IP recorded in the audit log. Empty: the TCP
	// peer is the client, so nobody can forge the audited address.
	TrustedProxies []string
	// CORSAllowedOrigins are the browser origins allowed to call the API
	// ("*": any). Empty: no CORS headers at all.
	CORSAllowedOrigins []string
	// AuditRetention prunes audit entries older than this in the
	// background (0: keep forever).
	AuditRetention time.Duration

	// Chain events (webhooks)
	// WebhookSecretKey seals webhook signing secrets at rest (32 bytes;
	// nil: webhooks are off).
	WebhookSecretKey []byte
	// WebhooksPerUser bounds the webhooks one user may hold.
	WebhooksPerUser int
	// WebhookAllowPrivate lets webhook URLs be plain http and reach
	// private, loopback and link-local addresses (tests and demos).
	WebhookAllowPrivate bool
	// EventRetention is how long decided events stay in the pull feed.
	EventRetention time.Duration

	// Observability
	LogLevel string
	// MaxTipLag is the db-sync lag above which /v1/health says degraded.
	MaxTipLag time.Duration
	// MetricsAddr, when set, serves Prometheus metrics at /metrics on its
	// own listener (any interface: a scraper usually runs elsewhere; the
	// API port never exposes them). Off by default.
	MetricsAddr string
	// PprofAddr, when set, serves net/http/pprof on its own listener for
	// profiling under load. Off by default; loopback addresses only, since
	// profiles expose memory contents and cost CPU to take.
	PprofAddr string
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
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(new(strings.Builder))
	type bound struct {
		s     *setting
		net   cardano.Network
		name  string
		value *string
	}
	var all []bound
	for i := range settings {
		s := &settings[i]
		for _, n := range s.networks() {
			name := s.variable(n)
			// An empty or blank variable means the default; a flag
			// given, even empty, wins.
			def := s.defaultValue()
			if v := strings.TrimSpace(vars[name]); v != "" {
				def = v
			}
			all = append(all, bound{s, n, name, fs.String(flagName(name), def, s.help)})
		}
	}
	if err := fs.Parse(args); err != nil {
		return Config{}, err
	}
	cfg := Config{Networks: map[string]NetworkConfig{}}
	var problems []string
	if fs.NArg() > 0 {
		problems = append(problems, fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	problems = append(problems, unknownNetworks(vars)...)
	for _, b := range all {
		b.s.read(&field{cfg: &cfg, net: b.net, name: b.name, v: *b.value, problems: &problems})
	}
	if len(cfg.Networks) == 0 {
		problems = append(problems, "no db-sync configured: set at least one of DBSYNC_MAINNET_URL, DBSYNC_PREVIEW_URL, DBSYNC_PREPROD_URL")
	}
	if cfg.AdminDatabaseURL == "" {
		if first, ok := cfg.FirstNetwork(); ok {
			cfg.AdminDatabaseURL = first.DBSyncURL
		}
	}
	if len(problems) > 0 {
		return cfg, errors.New(strings.Join(problems, "\n"))
	}
	return cfg, nil
}

// unknownNetworks reports DBSYNC_<NET>_URL for a network syncgate does not
// know: almost always a typo.
func unknownNetworks(vars map[string]string) []string {
	keys := make([]string, 0, len(vars))
	for k := range vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		if strings.HasPrefix(k, "DBSYNC_") && strings.HasSuffix(k, "_URL") && !strings.HasSuffix(k, "_REPLICA_URLS") {
			name := strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(k, "DBSYNC_"), "_URL"))
			if _, ok := cardano.NetworkByName(name); !ok {
				out = append(out, fmt.Sprintf("%s: unknown network %q (known: mainnet, preview, preprod)", k, name))
			}
		}
	}
	return out
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
