package config

import (
	"encoding/hex"
	"net"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/syncgate/syncgate/internal/cardano"
)

// setting is one configuration variable. Its flag is the variable in
// lower case with dashes (LISTEN_ADDR: --listen-addr); "<NET>" in a
// variable makes one variable per network (DBSYNC_MAINNET_URL, …).
type setting struct {
	group string // the subsystem it tunes (groups lists their order)
	env   string
	// def is the value when neither the environment nor a flag sets one;
	// defFunc, when set, computes it at Load instead.
	def     string
	defFunc func() string
	// help says what the setting does (markdown): README's meaning column
	// and the flag's usage. defHelp is README's default column when more
	// than def in backticks ("none" for an empty def) needs saying.
	help, defHelp string
	// read sets the Config from the value, reporting what is wrong.
	read func(f *field)
}

// The subsystems, in README order.
const (
	groupListen    = "Listen & HTTP"
	groupDatabases = "Databases"
	groupUpstreams = "Transaction submission & token registry"
	groupRedis     = "Redis & rate limits"
	groupDeadlines = "Resilience & deadlines"
	groupCaches    = "Caches & memory"
	groupSecurity  = "Security"
	groupEvents    = "Chain events (webhooks)"
	groupObserve   = "Observability"
)

var groups = []string{groupListen, groupDatabases, groupUpstreams, groupRedis, groupDeadlines, groupCaches, groupSecurity, groupEvents, groupObserve}

// settings is every configuration variable, in README order, which is
// also the order Load reads them in: a network's replicas and node socket
// after its DBSYNC_<NET>_URL.
var settings = []setting{
	// Listen & HTTP
	{group: groupListen, env: "LISTEN_ADDR", def: ":8080",
		help: "HTTP listen address",
		read: func(f *field) { f.cfg.ListenAddr = f.v }},
	{group: groupListen, env: "MAX_IN_FLIGHT", def: "1024", defHelp: "`1024`; `0`: no bound",
		help: "requests this instance works on at once; beyond it 503 `Service temporarily unavailable` with `Retry-After` at once (`/livez`, `/readyz`, `/v1/health` are never refused)",
		read: func(f *field) { f.cfg.MaxInFlight = f.count(" of requests", "no bound") }},
	{group: groupListen, env: "SHUTDOWN_DELAY", def: "5s", defHelp: "`5s`; `0s`: none",
		help: "after SIGTERM/SIGINT, how long the listener keeps serving with `/readyz` at 503 and `Connection: close` on every response (the time a load balancer needs to stop sending), before in-flight requests are drained",
		read: func(f *field) {
			if d, err := time.ParseDuration(f.v); err != nil || d < 0 {
				f.bad("%q is not a duration (e.g. 5s; 0s: none)", f.v)
			} else {
				f.cfg.ShutdownDelay = d
			}
		}},
	{group: groupListen, env: "SHUTDOWN_TIMEOUT", def: "20s",
		help: "how long in-flight requests get once the listener closes",
		read: func(f *field) { f.cfg.ShutdownTimeout = f.duration("10s") }},

	// Databases
	{group: groupDatabases, env: "DBSYNC_<NET>_URL", defHelp: "demo database for mainnet in `demo`",
		help: "db-sync database of each served network (`<NET>`: `MAINNET`, `PREVIEW`, `PREPROD`; at least one)",
		read: func(f *field) {
			if u := strings.TrimSpace(f.v); u != "" {
				f.cfg.Networks[f.net.Name] = NetworkConfig{Network: f.net, DBSyncURL: f.postgresURL(u)}
			}
		}},
	{group: groupDatabases, env: "DBSYNC_<NET>_REPLICA_URLS",
		help: "comma-separated read replicas; reads spread across those in rotation. A replica that fails its probe leaves rotation (its requests move to the primary within their deadline) and is probed back in",
		read: func(f *field) {
			nc, ok := f.cfg.Networks[f.net.Name]
			if !ok {
				if f.v != "" {
					up := strings.ToUpper(f.net.Name)
					*f.problems = append(*f.problems, "DBSYNC_"+up+"_REPLICA_URLS is set but DBSYNC_"+up+"_URL is not")
				}
				return
			}
			for _, r := range f.list() {
				nc.ReplicaURLs = append(nc.ReplicaURLs, f.postgresURL(r))
			}
			f.cfg.Networks[f.net.Name] = nc
		}},
	{group: groupDatabases, env: "ADMIN_DATABASE_URL", defHelp: "the first configured db-sync URL",
		help: "database holding the admin schema (schema `syncgate`)",
		read: func(f *field) { f.cfg.AdminDatabaseURL = f.postgresURL(f.v) }}, // empty: Load picks the first network's
	{group: groupDatabases, env: "UTXO_INDEX_KEEP_BLOCKS", def: strconv.Itoa(MinKeepBlocks),
		help: "core-mode db-sync only: how many blocks the unspent-output index keeps each spend (at least 2160, Cardano's k, for rollbacks), or `all`. " +
			"Core history pages whose items are that recent are read from the index instead of walking `tx_in`; `all` serves every page that way for about 1.2 × `tx_out`'s size on disk (docs/DECISIONS.md). " +
			"Raising it takes effect as the chain moves on; for a longer window at once rebuild the index (`DROP SCHEMA syncgate_utxo CASCADE`, then `syncgate utxo-index --keep-blocks all --db URL`). " +
			"Lowering it sweeps over the next steps, a chunk each, and whichever instance maintains the index applies its own value, so give every instance (and `utxo-index`) the same one",
		read: func(f *field) {
			if n, err := ParseKeepBlocks(f.v); err != nil {
				f.bad("%v", err)
			} else {
				f.cfg.UTxOIndexKeepBlocks = n
			}
		}},

	// Transaction submission & token registry
	{group: groupUpstreams, env: "NODE_SOCKET_<NET>", defHelp: "none: submit answers 503",
		help: "cardano-node socket (unix path or host:port) for submission",
		read: func(f *field) {
			if nc, ok := f.cfg.Networks[f.net.Name]; ok {
				nc.NodeSocket = strings.TrimSpace(f.v)
				f.cfg.Networks[f.net.Name] = nc
			}
		}},
	{group: groupUpstreams, env: "TOKEN_REGISTRY_URL",
		help: "token registry server",
		read: func(f *field) {
			if f.cfg.TokenRegistryURL = f.v; f.v != "" {
				if u, err := url.Parse(f.v); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
					f.bad("not an http(s) URL")
				}
			}
		}},
	{group: groupUpstreams, env: "TOKEN_REGISTRY_DIR",
		help: "a local clone of the token registry's `mappings/` (instead of its server)",
		read: func(f *field) { f.cfg.TokenRegistryDir = f.v }},

	// Redis & rate limits
	{group: groupRedis, env: "REDIS_URL", defHelp: "none: in-process fallbacks",
		help: "`redis://` or `rediss://`; several comma-separated for Cluster",
		read: func(f *field) {
			if f.cfg.RedisURL = f.v; f.v != "" {
				for _, r := range strings.Split(f.v, ",") {
					if err := checkRedisURL(strings.TrimSpace(r)); err != nil {
						f.bad("%v", err)
					}
				}
			}
		}},
	{group: groupRedis, env: "RATE_LIMIT_INSTANCES", def: "4",
		help: "instances sharing the rate limits and quotas through Redis; each leases at most 5 % / this of a credential's limit at a time (overshoot ≤ 5 % with up to this many instances), and grants only 1 / this of a budget while it cannot reach Redis in time",
		read: func(f *field) { f.cfg.RateLimitInstances, _ = f.intIn(1, 1000) }},
	{group: groupRedis, env: "ADMIN_RATE_LIMIT_PER_MINUTE", def: "600",
		help: "admin API requests per minute per admin key (bootstrap key included); 429 beyond",
		read: func(f *field) { f.cfg.AdminRateLimitPerMinute, _ = f.intIn(1, 1_000_000) }},
	{group: groupRedis, env: "AUTH_FAILURES_PER_MINUTE", def: "30", defHelp: "`30`; `0`: no limit",
		help: "failed authentications (unknown or malformed key) a client IP may make a minute, shared across instances through Redis; then 429 with `Retry-After` for every request of that IP needing a key (docs/DECISIONS.md)",
		read: func(f *field) { f.cfg.AuthFailuresPerMinute = f.count("", "no limit") }},

	// Resilience & deadlines
	{group: groupDeadlines, env: "STATEMENT_TIMEOUT", def: "10s",
		help: "per-statement db-sync timeout (answered 504 `Query timed out`); a request's deadline is this + 2 s, and it is answered by then whatever the databases do",
		read: func(f *field) { f.cfg.StatementTimeout = f.duration("10s") }},
	{group: groupDeadlines, env: "DBSYNC_MAX_ACTIVE", defFunc: func() string { return strconv.Itoa(min(2*runtime.GOMAXPROCS(0), 32)) },
		defHelp: "2 × this host's cores, at most 32; `0`: no limit (each db-sync pool then holds up to this + 20 connections)",
		help: "requests querying one db-sync server (primary or replica) at a time; the rest wait in arrival order within their deadline. " +
			"Raise it for a database server with more cores than this host, or one larger than its memory (I/O-bound requests want more in flight; docs/DECISIONS.md)",
		read: func(f *field) { f.cfg.DBSyncMaxActive = f.count(" of requests", "no limit") }},
	{group: groupDeadlines, env: "DBSYNC_MAX_QUEUE", def: "256", defHelp: "`256`; `0`: no bound",
		help: "requests waiting for one db-sync server; beyond it, or when the expected wait would not fit a request's deadline, 503 `Service temporarily unavailable` with `Retry-After` at once",
		read: func(f *field) { f.cfg.DBSyncMaxQueue = f.count(" of requests", "no bound") }},
	{group: groupDeadlines, env: "DBSYNC_PROBE_INTERVAL", def: "1s",
		help: "how often each db-sync server (primary, replicas) is probed",
		read: func(f *field) { f.cfg.ProbeInterval = f.duration("1s") }},
	{group: groupDeadlines, env: "DBSYNC_PROBE_TIMEOUT", def: "1s",
		help: "how long a probe may take before the server leaves rotation (a primary out of rotation answers 503 `Chain database unavailable` at once)",
		read: func(f *field) { f.cfg.ProbeTimeout = f.duration("1s") }},
	{group: groupDeadlines, env: "DBSYNC_MAX_REPLICA_LAG", def: "30s",
		help: "a db-sync replica whose tip is further behind the primary's leaves rotation until it has caught up (within the bound, an instance still never answers from a server behind a tip it has already served)",
		read: func(f *field) { f.cfg.MaxReplicaLag = f.duration("30s") }},
	{group: groupDeadlines, env: "DB_CONNECT_TIMEOUT", def: "5s",
		help: "bound on opening one PostgreSQL connection (db-sync and admin databases)",
		read: func(f *field) { f.cfg.DBConnectTimeout = f.duration("1s") }},

	// Caches & memory
	{group: groupCaches, env: "HISTORY_MEMO_MB", def: "32", defHelp: "`32`; `0`: off",
		help: "memory per network for history pages and transaction details that no rollback can change any more (deeper than 2160 blocks), kept in process so repeated deep and cursor pages skip the database (docs/DECISIONS.md)",
		read: func(f *field) {
			if n, ok := f.intIn(0, 65536); ok {
				if f.cfg.HistoryMemoBytes = n << 20; n == 0 {
					f.cfg.HistoryMemoBytes = -1
				}
			}
		}},
	{group: groupCaches, env: "LIST_SPOOL_MB", def: "256", defHelp: "`256`; `0`: off",
		help: "disk space for this instance's copies of UTxO lists too long for one cache segment (plain and gzip); repeats of such a list under the same tip are read from there instead of Redis, 256 kB at a time (docs/DECISIONS.md)",
		read: func(f *field) {
			if n, ok := f.intIn(0, 1<<20); ok {
				f.cfg.ListSpoolBytes = int64(n) << 20
			}
		}},
	{group: groupCaches, env: "LIST_SPOOL_DIR", defHelp: "the system's temporary directory",
		help: "where those copies go (a private directory is made and removed inside it)",
		read: func(f *field) { f.cfg.ListSpoolDir = strings.TrimSpace(f.v) }},

	// Security
	{group: groupSecurity, env: "BOOTSTRAP_ADMIN_KEY",
		help: "bootstrap admin key (≥ 32 characters)",
		read: func(f *field) {
			if f.cfg.BootstrapAdminKey = f.v; f.v != "" && len(f.v) < 32 {
				f.bad("must be at least 32 characters") // never the key itself
			}
		}},
	{group: groupSecurity, env: "TRUSTED_PROXIES", defHelp: "none: the TCP peer is the client",
		help: "comma-separated proxy IPs/CIDRs whose `X-Forwarded-For` sets the client IP (audit log, failed-authentication limit)",
		read: func(f *field) {
			for _, p := range f.list() {
				if _, _, err := net.ParseCIDR(p); err != nil && net.ParseIP(p) == nil {
					f.bad("%q is not an IP or CIDR", p)
					continue
				}
				f.cfg.TrustedProxies = append(f.cfg.TrustedProxies, p)
			}
		}},
	{group: groupSecurity, env: "CORS_ALLOWED_ORIGINS", defHelp: "none: no CORS headers",
		help: "comma-separated browser origins (`https://app.example.com`) allowed by CORS, or `*`; preflights answered 204",
		read: func(f *field) {
			for _, o := range f.list() {
				if n, ok := origin(o); ok {
					f.cfg.CORSAllowedOrigins = append(f.cfg.CORSAllowedOrigins, n)
				} else {
					f.bad("%q is not an origin like https://app.example.com (or *)", o)
				}
			}
		}},
	{group: groupSecurity, env: "AUDIT_RETENTION", defHelp: "keep forever",
		help: "delete audit entries older than this (`2160h`, `90d`; at least 1 h), hourly in the background",
		read: func(f *field) {
			if r := strings.TrimSpace(f.v); r != "" {
				if d, ok := parseRetention(r); ok {
					f.cfg.AuditRetention = d
				} else {
					f.bad("%q is not a duration of at least 1h (e.g. 2160h or 90d)", r)
				}
			}
		}},

	// Chain events (webhooks)
	{group: groupEvents, env: "WEBHOOK_SECRET_KEY", defHelp: "none: the webhook routes answer 503",
		help: "server key (64 hex digits: 32 bytes) that seals every webhook signing secret at rest (AES-256-GCM); changing it makes the stored secrets unreadable",
		read: func(f *field) {
			if f.v == "" {
				return
			}
			k, err := hex.DecodeString(f.v)
			if err != nil || len(k) != 32 {
				f.bad("must be 64 hex digits (32 bytes)") // never the key itself
				return
			}
			f.cfg.WebhookSecretKey = k
		}},
	{group: groupEvents, env: "WEBHOOKS_PER_USER", def: "20",
		help: "how many webhooks one user may hold",
		read: func(f *field) {
			if n, ok := f.intIn(1, 1000); ok {
				f.cfg.WebhooksPerUser = n
			}
		}},
	{group: groupEvents, env: "WEBHOOK_ALLOW_PRIVATE", def: "false",
		help: "`true` lets webhook URLs use plain `http` and private, loopback and link-local addresses (local tests and demos only; never on a shared service)",
		read: func(f *field) {
			switch f.v {
			case "true":
				f.cfg.WebhookAllowPrivate = true
			case "false":
			default:
				f.bad("%q is not true or false", f.v)
			}
		}},
	{group: groupEvents, env: "EVENT_RETENTION", def: "168h",
		help: "how long decided events stay in the pull feed (at least 7 days)",
		read: func(f *field) {
			if d := f.duration("168h"); d != 0 {
				if d < 168*time.Hour {
					f.bad("%q is shorter than 168h (7 days)", f.v)
					return
				}
				f.cfg.EventRetention = d
			}
		}},

	// Observability
	{group: groupObserve, env: "LOG_LEVEL", def: "info",
		help: "`debug`, `info`, `warn`, `error` (JSON logs on stdout)",
		read: func(f *field) {
			switch f.cfg.LogLevel = f.v; f.v {
			case "debug", "info", "warn", "error":
			default:
				f.bad("%q is not one of debug, info, warn, error", f.v)
			}
		}},
	{group: groupObserve, env: "MAX_TIP_LAG", def: "10m",
		help: "db-sync lag above which `/v1/health` says `degraded`",
		read: func(f *field) { f.cfg.MaxTipLag = f.duration("10s") }},
	{group: groupObserve, env: "METRICS_ADDR", defHelp: "off",
		help: "address of a separate listener serving Prometheus metrics at `/metrics` (e.g. `:9090`; metric list and Grafana dashboard: [docs/grafana/syncgate.json](docs/grafana/syncgate.json))",
		read: func(f *field) {
			if f.cfg.MetricsAddr = f.v; f.v != "" {
				if _, _, err := net.SplitHostPort(f.v); err != nil {
					f.bad("%q is not host:port", f.v)
				}
			}
		}},
	{group: groupObserve, env: "PPROF_ADDR", defHelp: "off",
		help: "loopback address for Go's pprof endpoints (profiling under load; refused if not loopback)",
		read: func(f *field) {
			if f.cfg.PprofAddr = f.v; f.v != "" {
				if err := checkLoopback(f.v); err != nil {
					f.bad("%v", err)
				}
			}
		}},
}

// perNetwork is the placeholder of a per-network variable.
const perNetwork = "<NET>"

// networks is what the setting is read for: every network for a
// per-network setting, else once.
func (s *setting) networks() []cardano.Network {
	if strings.Contains(s.env, perNetwork) {
		return cardano.Networks
	}
	return []cardano.Network{{}}
}

// variable is the setting's environment variable for network n.
func (s *setting) variable(n cardano.Network) string {
	return strings.ReplaceAll(s.env, perNetwork, strings.ToUpper(n.Name))
}

func (s *setting) defaultValue() string {
	if s.defFunc != nil {
		return s.defFunc()
	}
	return s.def
}

// flagName is a variable's flag: LISTEN_ADDR is --listen-addr.
func flagName(variable string) string {
	return strings.ToLower(strings.ReplaceAll(variable, "_", "-"))
}
