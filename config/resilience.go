package config

import (
	"flag"
	"strconv"
	"time"
)

// Resilience knobs (deadlines that hold, load shedding, degraded start,
// drain), read in a function of their own so Load only calls it.

// Defaults of the resilience knobs.
const (
	DefaultShutdownDelay    = 5 * time.Second
	DefaultMaxInFlight      = 1024
	DefaultDBSyncMaxQueue   = 256
	DefaultProbeInterval    = time.Second
	DefaultProbeTimeout     = time.Second
	DefaultDBConnectTimeout = 5 * time.Second
)

// Resilience is the part of Config for failures and load.
type Resilience struct {
	// ShutdownDelay is how long the listener keeps serving after SIGTERM,
	// with /readyz answering 503 and every response closing its
	// connection, before in-flight requests are drained (0: none).
	ShutdownDelay time.Duration
	// MaxInFlight bounds the requests this instance works on at once;
	// beyond it requests are answered 503 at once (0: no bound).
	MaxInFlight int
	// DBSyncMaxQueue bounds the requests waiting at one db-sync server's
	// gate; beyond it they are answered 503 at once (0: no bound).
	DBSyncMaxQueue int
	// ProbeInterval and ProbeTimeout: how often each db-sync server is
	// probed, and how long a probe may take before the server leaves
	// rotation.
	ProbeInterval, ProbeTimeout time.Duration
	// DBConnectTimeout bounds opening one PostgreSQL connection (db-sync
	// and admin databases).
	DBConnectTimeout time.Duration
}

// resilienceFlags declares the flags and returns the function that checks
// them once parsed.
func resilienceFlags(fs *flag.FlagSet, env func(k, def string) string) func(cfg *Config, add func(string, ...any)) {
	delay := fs.String("shutdown-delay", env("SHUTDOWN_DELAY", DefaultShutdownDelay.String()),
		"after SIGTERM, keep serving this long with /readyz 503 and Connection: close before draining; 0s: none (SHUTDOWN_DELAY)")
	inFlight := fs.String("max-in-flight", env("MAX_IN_FLIGHT", strconv.Itoa(DefaultMaxInFlight)),
		"requests in progress at once on this instance, then 503; 0: no bound (MAX_IN_FLIGHT)")
	queue := fs.String("dbsync-max-queue", env("DBSYNC_MAX_QUEUE", strconv.Itoa(DefaultDBSyncMaxQueue)),
		"requests waiting for one db-sync server, then 503; 0: no bound (DBSYNC_MAX_QUEUE)")
	interval := fs.String("dbsync-probe-interval", env("DBSYNC_PROBE_INTERVAL", DefaultProbeInterval.String()),
		"how often each db-sync server is probed (DBSYNC_PROBE_INTERVAL)")
	timeout := fs.String("dbsync-probe-timeout", env("DBSYNC_PROBE_TIMEOUT", DefaultProbeTimeout.String()),
		"a db-sync server not answering its probe within this leaves rotation (DBSYNC_PROBE_TIMEOUT)")
	connect := fs.String("db-connect-timeout", env("DB_CONNECT_TIMEOUT", DefaultDBConnectTimeout.String()),
		"bound on opening one PostgreSQL connection (DB_CONNECT_TIMEOUT)")
	return func(cfg *Config, add func(string, ...any)) {
		if d, err := time.ParseDuration(*delay); err != nil || d < 0 {
			add("SHUTDOWN_DELAY: %q is not a duration (e.g. 5s; 0s: none)", *delay)
		} else {
			cfg.ShutdownDelay = d
		}
		count := func(name, v string, dst *int) {
			if n, err := strconv.Atoi(v); err != nil || n < 0 {
				add("%s: %q is not a whole number of requests (0: no bound)", name, v)
			} else {
				*dst = n
			}
		}
		count("MAX_IN_FLIGHT", *inFlight, &cfg.MaxInFlight)
		count("DBSYNC_MAX_QUEUE", *queue, &cfg.DBSyncMaxQueue)
		positive := func(name, v string, dst *time.Duration) {
			if d, err := time.ParseDuration(v); err != nil || d <= 0 {
				add("%s: %q is not a positive duration (e.g. 1s)", name, v)
			} else {
				*dst = d
			}
		}
		positive("DBSYNC_PROBE_INTERVAL", *interval, &cfg.ProbeInterval)
		positive("DBSYNC_PROBE_TIMEOUT", *timeout, &cfg.ProbeTimeout)
		positive("DB_CONNECT_TIMEOUT", *connect, &cfg.DBConnectTimeout)
	}
}
