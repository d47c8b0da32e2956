// Package metrics defines every Prometheus metric syncgate exports, in one
// registry served on METRICS_ADDR. Other packages only call the small
// functions here; none of them builds a metric or chooses a label.
//
// Labels are bounded: route templates (never raw paths), statement file
// names, network and cache names, status codes. No key, key prefix,
// address or other caller-supplied value ever becomes a label.
package metrics

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

const ns = "syncgate"

// Registry holds syncgate's metrics plus the Go runtime and process
// collectors (the standard go_* and process_* families).
var Registry = prometheus.NewRegistry()

// Latency buckets: requests and queries are mostly single-digit
// milliseconds; the tail reaches the 10 s statement timeout.
var latencyBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

var (
	httpRequests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: ns, Name: "http_requests_total",
		Help: "HTTP requests answered, by route template, method and status code.",
	}, []string{"route", "method", "code"})
	httpDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Namespace: ns, Name: "http_request_duration_seconds",
		Help:    "HTTP request latency by route template and method.",
		Buckets: latencyBuckets,
	}, []string{"route", "method"})
	authFailures = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: ns, Name: "auth_failures_total",
		Help: "Requests refused for authentication (401), by API: data or admin.",
	}, []string{"api"})
	rateLimited = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: ns, Name: "rate_limit_rejections_total",
		Help: "Requests refused by the per-credential rate limiter (429), by API.",
	}, []string{"api"})

	dbQueryDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Namespace: ns, Name: "dbsync_query_duration_seconds",
		Help:    "db-sync statement latency by network and statement (SQL file name), gate wait excluded.",
		Buckets: latencyBuckets,
	}, []string{"network", "statement"})
	dbQueryErrors = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: ns, Name: "dbsync_query_errors_total",
		Help: "db-sync statements that failed (no-rows excluded), by network and statement.",
	}, []string{"network", "statement"})

	gateQueued = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Namespace: ns, Name: "dbsync_gate_queued",
		Help: "Requests waiting at the DBSYNC_MAX_ACTIVE gate, by network and server.",
	}, []string{"network", "server"})
	gateActive = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Namespace: ns, Name: "dbsync_gate_active",
		Help: "Requests admitted by the DBSYNC_MAX_ACTIVE gate and not yet out, by network and server.",
	}, []string{"network", "server"})
	gateWait = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Namespace: ns, Name: "dbsync_gate_wait_seconds",
		Help:    "Time a request waited at the DBSYNC_MAX_ACTIVE gate before admission (or giving up).",
		Buckets: latencyBuckets,
	}, []string{"network", "server"})

	shed = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: ns, Name: "shed_total",
		Help: "Requests refused at once with 503 instead of queued, by reason: gate (a db-sync server's queue is full or too slow for the deadline) or in_flight (MAX_IN_FLIGHT reached).",
	}, []string{"reason"})
	serverUp = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Namespace: ns, Name: "dbsync_server_up",
		Help: "1 while a db-sync server (primary or replica) answers its probes and is in rotation, 0 while it is out.",
	}, []string{"network", "server"})

	cacheRequests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: ns, Name: "cache_requests_total",
		Help: "Cache lookups by cache name and result (hit or miss).",
	}, []string{"cache", "result"})

	listSpoolBytes = prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Namespace: ns, Name: "list_spool_bytes",
		Help: "Bytes of long UTxO lists this instance holds on disk to answer repeats (LIST_SPOOL_MB bounds it).",
	}, func() float64 {
		if f := spoolUsed.Load(); f != nil {
			return float64((*f)())
		}
		return 0
	})

	usageFlushFailures = prometheus.NewCounter(prometheus.CounterOpts{
		Namespace: ns, Name: "usage_flush_failures_total",
		Help: "Usage flushes to the admin database that failed (their counts are retried).",
	})
	usageFlushLastSuccess = prometheus.NewGauge(prometheus.GaugeOpts{
		Namespace: ns, Name: "usage_flush_last_success_timestamp_seconds",
		Help: "Unix time of the last successful usage flush; lag is time() minus this.",
	})

	scannerBlockSeconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Namespace: ns, Name: "scanner_block_seconds",
		Help:    "Event scanner time per new block, by network: reading db-sync, matching the watch sets and committing the decided events, divided among the blocks the step moved the checkpoint by.",
		Buckets: latencyBuckets,
	}, []string{"network"})
	scannerBlocks = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: ns, Name: "scanner_blocks_total",
		Help: "Blocks the event scanner moved its checkpoint over, by network.",
	}, []string{"network"})
	scannerEvents = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: ns, Name: "scanner_events_total",
		Help: "Events the event scanner decided, by network and type (tx.confirmed, tx.rolled_back).",
	}, []string{"network", "type"})
	scannerLeader = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Namespace: ns, Name: "scanner_leader",
		Help: "1 while this instance leads a network's event scanning (holds its advisory lock), 0 otherwise.",
	}, []string{"network"})
)

var (
	descPoolOpen    = prometheus.NewDesc(ns+"_db_pool_connections", "Open connections by database and state (in_use, idle).", []string{"database", "state"}, nil)
	descPoolMax     = prometheus.NewDesc(ns+"_db_pool_max_open_connections", "Pool limit on open connections by database.", []string{"database"}, nil)
	descPoolWaits   = prometheus.NewDesc(ns+"_db_pool_wait_total", "Connection requests that had to wait for a free connection, by database.", []string{"database"}, nil)
	descPoolWaitDur = prometheus.NewDesc(ns+"_db_pool_wait_seconds_total", "Total time spent waiting for a free connection, by database.", []string{"database"}, nil)
	descTipLag      = prometheus.NewDesc(ns+"_dbsync_tip_lag_seconds", "Seconds between now and the time of db-sync's latest block, by network (read at scrape).", []string{"network"}, nil)
	descRedisUp     = prometheus.NewDesc(ns+"_redis_up", "1 when Redis answered a PING at scrape time, 0 when not (absent when Redis is not configured).", nil, nil)
)

func init() {
	Registry.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		httpRequests, httpDuration, authFailures, rateLimited,
		dbQueryDuration, dbQueryErrors,
		gateQueued, gateActive, gateWait, shed, serverUp,
		cacheRequests, listSpoolBytes, usageFlushFailures, usageFlushLastSuccess,
		scannerBlockSeconds, scannerBlocks, scannerEvents, scannerLeader,
		pools, probes,
	)
}

// Handler serves the registry in the Prometheus exposition format.
func Handler() http.Handler {
	return promhttp.HandlerFor(Registry, promhttp.HandlerOpts{Registry: Registry})
}

// ---- HTTP ----

// ObserveRequest counts one answered request. route is the gin route
// template ("/v1/utxos/address/:address"), "(unmatched)" otherwise.
func ObserveRequest(route, method string, status int, elapsed time.Duration) {
	api := "data"
	if len(route) >= 9 && route[:9] == "/v1/admin" {
		api = "admin"
	}
	httpRequests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
	httpDuration.WithLabelValues(route, method).Observe(elapsed.Seconds())
	switch status {
	case http.StatusUnauthorized:
		authFailures.WithLabelValues(api).Inc()
	case http.StatusTooManyRequests:
		rateLimited.WithLabelValues(api).Inc()
	}
}

// ---- db-sync statements ----

// ObserveQuery records one statement run on network's db-sync. statement
// is the statement's SQL file name; sql.ErrNoRows is an answer, not an error.
func ObserveQuery(network, statement string, start time.Time, err error) {
	dbQueryDuration.WithLabelValues(network, statement).Observe(time.Since(start).Seconds())
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		dbQueryErrors.WithLabelValues(network, statement).Inc()
	}
}

// Gate is the instrumentation of one DBSYNC_MAX_ACTIVE gate.
type Gate struct {
	Queued, Active prometheus.Gauge
	Wait           prometheus.Observer
}

// GateOf returns the gate instruments of one db-sync server ("primary",
// "replica1", …) of network.
func GateOf(network, server string) Gate {
	return Gate{
		Queued: gateQueued.WithLabelValues(network, server),
		Active: gateActive.WithLabelValues(network, server),
		Wait:   gateWait.WithLabelValues(network, server),
	}
}

// Shed counts a request refused at once for reason ("gate", "in_flight").
func Shed(reason string) { shed.WithLabelValues(reason).Inc() }

// ServerUp records whether network's db-sync server is in rotation.
func ServerUp(network, server string, up bool) {
	v := 0.0
	if up {
		v = 1
	}
	serverUp.WithLabelValues(network, server).Set(v)
}

// ---- caches ----

// CacheLookup counts a hit or a miss of the named cache.
func CacheLookup(cache string, hit bool) {
	result := "miss"
	if hit {
		result = "hit"
	}
	cacheRequests.WithLabelValues(cache, result).Inc()
}

// spoolUsed reads the list spool's size (serve installs it).
var spoolUsed atomic.Pointer[func() int64]

// WatchSpool makes syncgate_list_spool_bytes report used().
func WatchSpool(used func() int64) { spoolUsed.Store(&used) }

// ---- event scanner ----

// ScannerStep records one committed scanner step on network that moved the
// checkpoint over blocks blocks in elapsed (each block observes its share).
func ScannerStep(network string, blocks int, elapsed time.Duration) {
	if blocks <= 0 {
		return
	}
	per := elapsed.Seconds() / float64(blocks)
	h := scannerBlockSeconds.WithLabelValues(network)
	for range blocks {
		h.Observe(per)
	}
	scannerBlocks.WithLabelValues(network).Add(float64(blocks))
}

// ScannerEvents counts n events of type typ decided on network.
func ScannerEvents(network, typ string, n int) {
	if n > 0 {
		scannerEvents.WithLabelValues(network, typ).Add(float64(n))
	}
}

// ScannerLeader records whether this instance leads network's scanning.
func ScannerLeader(network string, leader bool) {
	v := 0.0
	if leader {
		v = 1
	}
	scannerLeader.WithLabelValues(network).Set(v)
}

// ---- usage flush ----

// UsageFlushed records the outcome of one usage flush.
func UsageFlushed(at time.Time, err error) {
	if err != nil {
		usageFlushFailures.Inc()
		return
	}
	usageFlushLastSuccess.Set(float64(at.UnixNano()) / 1e9)
}

// ---- connection pools (database/sql stats, read at scrape) ----

type poolSet struct {
	mu  sync.Mutex
	dbs map[string]*sql.DB
}

var pools = &poolSet{dbs: map[string]*sql.DB{}}

// TrackPool exports db's pool statistics under name ("mainnet/primary",
// "admin"); the returned function stops it (call it when db closes). A
// later pool of the same name replaces an earlier one.
func TrackPool(name string, db *sql.DB) (untrack func()) {
	pools.mu.Lock()
	pools.dbs[name] = db
	pools.mu.Unlock()
	return func() {
		pools.mu.Lock()
		if pools.dbs[name] == db {
			delete(pools.dbs, name)
		}
		pools.mu.Unlock()
	}
}

func (p *poolSet) Describe(ch chan<- *prometheus.Desc) {
	ch <- descPoolOpen
	ch <- descPoolMax
	ch <- descPoolWaits
	ch <- descPoolWaitDur
}

func (p *poolSet) Collect(ch chan<- prometheus.Metric) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for name, db := range p.dbs {
		s := db.Stats()
		ch <- prometheus.MustNewConstMetric(descPoolOpen, prometheus.GaugeValue, float64(s.InUse), name, "in_use")
		ch <- prometheus.MustNewConstMetric(descPoolOpen, prometheus.GaugeValue, float64(s.Idle), name, "idle")
		ch <- prometheus.MustNewConstMetric(descPoolMax, prometheus.GaugeValue, float64(s.MaxOpenConnections), name)
		ch <- prometheus.MustNewConstMetric(descPoolWaits, prometheus.CounterValue, float64(s.WaitCount), name)
		ch <- prometheus.MustNewConstMetric(descPoolWaitDur, prometheus.CounterValue, s.WaitDuration.Seconds(), name)
	}
}

// ---- probes read at scrape: db-sync tip lag, Redis ----

// Probes are the values syncgate reads when scraped. Either may be nil.
type Probes struct {
	// TipLag returns, per served network, how far db-sync's tip is behind
	// now; a network whose tip cannot be read is left out.
	TipLag func(ctx context.Context) map[string]time.Duration
	// RedisPing pings Redis; nil when Redis is not configured.
	RedisPing func(ctx context.Context) error
}

type probeSet struct {
	mu sync.Mutex
	p  Probes
}

var probes = &probeSet{}

// probeTimeout keeps a scrape short when a database or Redis hangs.
const probeTimeout = 2 * time.Second

// SetProbes installs the scrape-time probes (serve calls it once).
func SetProbes(p Probes) {
	probes.mu.Lock()
	probes.p = p
	probes.mu.Unlock()
}

func (p *probeSet) Describe(ch chan<- *prometheus.Desc) {
	ch <- descTipLag
	ch <- descRedisUp
}

func (p *probeSet) Collect(ch chan<- prometheus.Metric) {
	p.mu.Lock()
	pr := p.p
	p.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	if pr.TipLag != nil {
		for network, lag := range pr.TipLag(ctx) {
			ch <- prometheus.MustNewConstMetric(descTipLag, prometheus.GaugeValue, lag.Seconds(), network)
		}
	}
	if pr.RedisPing != nil {
		up := 0.0
		if pr.RedisPing(ctx) == nil {
			up = 1
		}
		ch <- prometheus.MustNewConstMetric(descRedisUp, prometheus.GaugeValue, up)
	}
}

// ---- names (for the dashboard test) ----

var fqName = regexp.MustCompile(`fqName: "([^"]+)"`)

// Names lists every metric family name the registry can export, whether
// or not it has samples yet.
func Names() []string {
	ch := make(chan *prometheus.Desc, 64)
	go func() {
		for _, c := range []prometheus.Collector{
			httpRequests, httpDuration, authFailures, rateLimited,
			dbQueryDuration, dbQueryErrors, gateQueued, gateActive, gateWait, shed, serverUp,
			cacheRequests, listSpoolBytes, usageFlushFailures, usageFlushLastSuccess, pools, probes,
		} {
			c.Describe(ch)
		}
		close(ch)
	}()
	seen := map[string]bool{}
	for d := range ch {
		if m := fqName.FindStringSubmatch(d.String()); m != nil {
			seen[m[1]] = true
		}
	}
	// The runtime collectors' families, as gathered.
	if mfs, err := Registry.Gather(); err == nil {
		for _, mf := range mfs {
			seen[mf.GetName()] = true
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
