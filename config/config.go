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

// Config is the whole service configuration. Each field is documented
// where it is read: the row of its variable in settings.go.
type Config struct {
	// Listen & HTTP
	ListenAddr      string
	MaxInFlight     int
	ShutdownDelay   time.Duration
	ShutdownTimeout time.Duration

	// Databases
	Networks            map[string]NetworkConfig // keyed by network name
	AdminDatabaseURL    string
	UTxOIndexKeepBlocks int // -1: for ever (ParseKeepBlocks)

	// Transaction submission & token registry (node sockets: Networks)
	TokenRegistryURL string
	TokenRegistryDir string

	// Redis & rate limits
	RedisURL                string
	RateLimitInstances      int
	AdminRateLimitPerMinute int
	AuthFailuresPerMinute   int // 0: no limit

	// Resilience & deadlines
	StatementTimeout            time.Duration
	DBSyncMaxActive             int // 0: no limit
	DBSyncMaxQueue              int // 0: no bound
	ProbeInterval, ProbeTimeout time.Duration
	DBConnectTimeout            time.Duration

	// Caches & memory
	HistoryMemoBytes int   // below 0: off
	ListSpoolBytes   int64 // 0: off
	ListSpoolDir     string

	// Security
	BootstrapAdminKey  string
	TrustedProxies     []string
	CORSAllowedOrigins []string      // "*": any; empty: no CORS headers
	AuditRetention     time.Duration // 0: keep forever

	// Observability
	LogLevel    string
	MaxTipLag   time.Duration
	MetricsAddr string
	PprofAddr   string
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
