// Command bench drives every syncgate data endpoint with a realistic mix of
// identifiers taken from the generator's manifest, at several concurrency
// levels for a fixed duration, and prints requests/s and latency
// percentiles per endpoint. With --raw-sql it also runs each endpoint's
// store method (the dbsync call the handler makes, so the same SQL)
// directly against PostgreSQL at the same concurrency and prints the
// gateway/raw throughput ratio. Raw measures PostgreSQL, the driver and
// the store's scanning: every raw call runs its statements (the store's
// history memo is off and the chain position is read, not remembered);
// the gateway's caches, Redis and in-process, are on the gateway side,
// as what it adds (raw.go says what raw keeps in process and why).
// POST /v1/tx/submit is not driven: it needs a cardano-node.
//
//	go run ./bench --setup --admin-db postgres://…/sg_bench_admin --key-file keys.txt
//	go run ./bench --teardown --admin-db postgres://…/sg_bench_admin --key-file keys.txt
//	go run ./bench --url http://127.0.0.1:18080 --key-file keys.txt --db postgres://… --manifest manifest.json --raw-sql
//	go run ./bench --add-wide 100000 --db postgres://… --manifest manifest.json --wide-manifest manifest-wide.json
//	go run ./bench --add-big --db postgres://… --manifest manifest.json --big-manifest manifest-big.json
//
// `make bench` does both around a freshly started server (bench/run.sh).
// Traffic goes only where --url points; every run is bounded by --duration
// and --max-requests. --add-wide gives a seeded chain an address and a
// stake key with that many unspent outputs (wide.go), which the *_wide
// scenarios then aim at.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
)

func main() {
	if err := mainErr(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// report is the --json document.
type report struct {
	Label       string            `json:"label,omitempty"`
	Started     time.Time         `json:"started"`
	Duration    string            `json:"duration_per_run"`
	Concurrency []int             `json:"concurrency"`
	Machine     machine           `json:"machine"`
	DataSet     chaingen.Counts   `json:"data_set"`
	Mode        chaingen.Mode     `json:"utxo_mode"`
	Scenarios   map[string]string `json:"scenarios"`      // name → one sample path
	Gzip        string            `json:"gzip,omitempty"` // --gzip: decode or wire
	Notes       []string          `json:"notes,omitempty"`
	// Population and Follow describe the wide scenarios' targets and the
	// moving tip (widework.go); PGCPU is --pg-cpu.
	Population *population `json:"wide_population,omitempty"`
	Follow     *follower   `json:"follow,omitempty"`
	PGCPU      string      `json:"pg_cpu,omitempty"`
	Results    []Result    `json:"results"`
}

type machine struct {
	CPUs       int    `json:"cpus"`
	MemTotalMB int64  `json:"mem_total_mb"`
	LoadAvg    string `json:"load_avg_at_start"`
	GoVersion  string `json:"go_version"`
}

func mainErr() error {
	base := flag.String("url", "http://127.0.0.1:8080", "gateway base URL (loopback only)")
	key := flag.String("key", os.Getenv("SYNCGATE_API_KEY"), "API key (or SYNCGATE_API_KEY); --key-file for several")
	keyFile := flag.String("key-file", "", "API keys, one per line, used in turn (written by --setup)")
	dbURL := flag.String("db", "", "db-sync database URL (needed for --raw-sql; also finds cursors without the API)")
	manifestPath := flag.String("manifest", "manifest.json", "generator manifest (notable entities)")
	duration := flag.Duration("duration", 10*time.Second, "duration per scenario, concurrency and mode")
	warmup := flag.Duration("warmup", 2*time.Second, "unmeasured run at the highest concurrency before each scenario")
	levels := flag.String("concurrency", "1,16,64", "comma-separated concurrency levels")
	rawSQL := flag.Bool("raw-sql", false, "also run each endpoint's store method directly and print gateway/raw")
	only := flag.String("only", "", "comma-separated scenario names to run (default all)")
	list := flag.Bool("list", false, "print the scenarios and a sample request of each, then exit")
	jsonOut := flag.String("json", "", "also write the results as JSON to this file")
	label := flag.String("label", "", "free text stored in the JSON (what this run measures)")
	maxReq := flag.Int("max-requests", 1_000_000, "upper bound of requests per run")
	serverPID := flag.Int("server-pid", 0, "the server's pid: report its CPU and resident memory per run")
	doSetup := flag.Bool("setup", false, "create API keys for a bench run (with --admin-db, --key-file, --keys) and exit")
	doTeardown := flag.Bool("teardown", false, "revoke the keys --setup wrote to --key-file (with --admin-db) and exit")
	adminDB := flag.String("admin-db", "", "admin database URL: --setup creates keys there; raw pool runs read the stored pool stake from it")
	nKeys := flag.Int("keys", 64, "--setup: how many API keys to create")
	keyLimit := flag.Int("rate-limit", benchRateLimit, "--setup: the keys' rate limit a minute (1 to 10000)")
	network := flag.String("network", "mainnet", "--setup: the keys' network")
	auditRows := flag.Int("audit-rows", 0, "with --admin-db: give one admin key this many audit entries and time the audit-log list, then exit")
	authFlood := flag.Int("auth-flood", 0, "send this many unknown-key requests (as client 198.51.100.66 via X-Forwarded-For; the server must trust 127.0.0.1) while one legitimate client (--key) runs, print its latency, then exit")
	limitCheckN := flag.Int("limit-check", 0, "the key's rate limit a minute: drive every instance in --url (comma-separated) with --key for --duration, --workers each, and count 200s and 429s against the limit, then exit")
	workers := flag.Int("workers", 4, "--limit-check: workers per instance")
	pace := flag.Duration("pace", 5*time.Millisecond, "--limit-check: pause between a worker's requests")
	gzipMode := flag.String("gzip", "", "accept gzip answers: decode (the client decompresses, as Go's and Node's clients do) or wire (read the compressed bytes, as sent); default: ask for none")
	markdown := flag.String("markdown", "", "print this --json result file as a Markdown table and exit")
	before := flag.String("before", "", "with --markdown: an earlier result file whose figures go beside")
	addWideN := flag.Int("add-wide", 0, "append to the seeded db-sync at --db new blocks paying this many outputs (one a transaction by default, --wide-per-tx, --wide-per-block) to one new address and stake key (the wide address), write a copy of --manifest naming them to --wide-manifest, and exit; does nothing when the database already holds it")
	fakeNode := flag.String("fake-node", "", "run a fake cardano-node (node/nodetest) on this unix socket for the run, its mempool holding --fake-node-txs transactions; give the server NODE_SOCKET_<NET> = the same path. Adds the scenarios mempool, tx_status_mempool and utxos_by_address_pending")
	fakeNodeTxs := flag.Int("fake-node-txs", 1000, "--fake-node: transactions in its mempool")
	vectors := flag.String("vectors", "node/testdata/tx-cbor.json", "--fake-node: the transaction vectors its mempool is made of")
	addBigFlag := flag.Bool("add-big", false, "append to the seeded db-sync at --db the Blockfrost targets' big entities (a policy of 100,000 assets, a DRep with 50,000 delegators, an account with 500 reward rows: big.go), write a copy of --manifest naming them to --big-manifest, and exit; does nothing when the database already holds them")
	bigOut := flag.String("big-manifest", "", "--add-big: where the manifest copy goes (default: --manifest's name with -big)")
	wideOut := flag.String("wide-manifest", "", "--add-wide: where the manifest copy goes (default: --manifest's name with -wide<N>)")
	flag.Parse()

	if *gzipMode != "" && *gzipMode != "decode" && *gzipMode != "wire" {
		return fmt.Errorf("--gzip %q: want decode or wire", *gzipMode)
	}
	if *markdown != "" {
		after, err := readReport(*markdown)
		if err != nil {
			return err
		}
		var old *report
		if *before != "" {
			if old, err = readReport(*before); err != nil {
				return err
			}
		}
		writeMarkdown(os.Stdout, old, after)
		return nil
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *addWideN != 0 {
		out := *wideOut
		if out == "" {
			out = wideManifestPath(*manifestPath, *addWideN)
		}
		return addWide(ctx, *dbURL, *manifestPath, out, *addWideN)
	}
	if *addBigFlag {
		out := *bigOut
		if out == "" {
			out = strings.TrimSuffix(*manifestPath, ".json") + "-big.json"
		}
		return addBig(ctx, *dbURL, *manifestPath, out, bigTargetSizes)
	}
	if *auditRows > 0 {
		return auditBench(ctx, *adminDB, *auditRows, 500)
	}
	if *limitCheckN > 0 {
		bases := strings.Split(*base, ",")
		for _, b := range bases {
			if err := loopbackOnly(b); err != nil {
				return err
			}
		}
		return limitCheck(ctx, bases, *key, *limitCheckN, *workers, *pace, *duration)
	}
	if *authFlood > 0 {
		return authFloodBench(ctx, *base, *key, *authFlood)
	}
	if *doSetup {
		return setup(ctx, *adminDB, *network, *nKeys, *keyLimit, *keyFile)
	}
	if *doTeardown {
		return teardown(ctx, *adminDB, *keyFile)
	}

	var conc []int
	for _, s := range strings.Split(*levels, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 || n > 1024 {
			return fmt.Errorf("--concurrency: %q is not an integer from 1 to 1024", s)
		}
		conc = append(conc, n)
	}
	if err := loopbackOnly(*base); err != nil {
		return err
	}
	var keys []string
	switch {
	case *keyFile != "":
		var err error
		if keys, err = readKeys(*keyFile); err != nil {
			return err
		}
	case *key != "":
		keys = []string{*key}
	default:
		return errors.New("--key-file or --key (or SYNCGATE_API_KEY) is required")
	}
	m, err := loadManifest(*manifestPath)
	if err != nil {
		return err
	}

	var raw *rawRunner
	if *rawSQL && *dbURL == "" {
		return errors.New("--raw-sql needs --db")
	}
	if *dbURL != "" {
		if raw, err = openRaw(ctx, *dbURL, *adminDB, m.Network); err != nil {
			return err
		}
		defer raw.Close()
	}
	client := &http.Client{
		Transport: &http.Transport{MaxIdleConns: 1024, MaxIdleConnsPerHost: 1024, DisableCompression: *gzipMode != "decode"},
		Timeout:   30 * time.Second,
	}
	if *gzipMode == "wire" {
		client.Transport = acceptGzip{client.Transport}
	}
	gw := strings.TrimRight(*base, "/")
	pager := httpPager(client, gw, keys[0])
	if raw != nil {
		pager = storePager(raw.db)
	}
	prep, err := prepare(ctx, m, pager, 10, 256)
	if err != nil {
		return fmt.Errorf("preparing cursors: %w", err)
	}
	if *fakeNode != "" {
		fn, hashes, err := startFakeNode(*fakeNode, *vectors, m.Network, *fakeNodeTxs)
		if err != nil {
			return err
		}
		defer fn.Close()
		prep.Node, prep.MempoolTxs = true, hashes
	}
	if prep.Big, err = readBigRefs(*manifestPath); err != nil {
		return err
	}
	if n := bfNote(m); n != "" {
		prep.Notes = append(prep.Notes, n)
	}
	for _, n := range prep.Notes {
		fmt.Fprintf(os.Stderr, "bench: left out of the cursor mix: %s\n", n)
	}
	scenarios, skipped, err := buildScenarios(m, prep, raw)
	if err != nil {
		return err
	}
	var pop *population
	if *wideWorkload && raw != nil && wideWanted(*only) {
		var wide []Scenario
		if wide, pop, err = buildWide(ctx, *dbURL, m, raw); err != nil {
			return err
		}
		scenarios = append(scenarios, wide...) // last: the follower starts with the first of them
	}
	if len(skipped) > 0 {
		fmt.Fprintf(os.Stderr, "bench: nothing to aim at in this chain for %s; skipped\n", strings.Join(skipped, ", "))
	}
	if !*rawSQL {
		for i := range scenarios {
			scenarios[i].Raw = nil
		}
	}
	if *only != "" {
		if scenarios, err = onlyScenarios(scenarios, *only); err != nil {
			return err
		}
	}
	if *list {
		for _, s := range scenarios {
			fmt.Printf("%-26s %6d requests in the mix, e.g. GET %s\n", s.Name, max(len(s.Paths), s.Population), s.Paths[0])
		}
		return nil
	}

	rep := report{Label: *label, Gzip: *gzipMode, Started: time.Now().UTC(), Duration: duration.String(), Concurrency: conc,
		Machine: machineInfo(), DataSet: m.Counts, Mode: m.Mode, Scenarios: map[string]string{}, Notes: prep.Notes, Population: pop}
	var pgCPU func() (map[int]float64, error)
	if *dbURL != "" {
		if pgCPU, err = pgCPUReader(*pgCPUMode, *dbURL); err != nil {
			return err
		}
		rep.PGCPU = *pgCPUMode
	}
	var follow *follower
	defer func() { follow.stop() }()
	for _, s := range scenarios {
		rep.Scenarios[s.Name] = s.Paths[0]
	}
	top := conc[0]
	for _, c := range conc {
		top = max(top, c)
	}
	for _, s := range scenarios {
		if ctx.Err() != nil {
			break
		}
		if s.Population > 0 && follow == nil && *followEvery > 0 {
			if follow, err = startFollower(ctx, *dbURL, m, *followEvery); err != nil {
				return fmt.Errorf("starting the follower: %w", err)
			}
			rep.Follow = follow
		}
		call := httpCaller(client, gw, keys, s.Next)
		if err := prime(ctx, s, client, gw, keys); err != nil {
			fmt.Fprintf(os.Stderr, "warning: %s: priming: %v\n", s.Name, err)
		}
		if *warmup > 0 {
			// Unmeasured: fills caches (history totals, the credential
			// cache, PostgreSQL's buffers) on both sides. The gateway's
			// comes last, right before its run: the raw warm-up's calls
			// cut at its end (100 k-output listings) leave PostgreSQL busy
			// for a moment, which showed in the gateway's first bytes.
			warm := map[string]func(context.Context, *rand.Rand) error{"gateway": call, "raw": s.Raw}
			for _, mode := range []string{"raw", "gateway"} {
				if warm[mode] == nil {
					continue
				}
				w := run(ctx, s.Name, "warmup", top, *warmup, *maxReq, warm[mode])
				if w.Errors > 0 {
					fmt.Fprintf(os.Stderr, "warning: %s %s warm-up: %d of %d requests failed: %s\n", s.Name, mode, w.Errors, w.Requests, w.FirstError)
				}
			}
		}
		for _, c := range conc {
			if ctx.Err() != nil {
				break
			}
			obs, cost := observe(*serverPID), observeCost(*serverPID, pgCPU, follow)
			g := run(ctx, s.Name, "gateway", c, *duration, *maxReq, call)
			g.usage, g.runCost = obs(), cost(g.Requests)
			rep.Results = append(rep.Results, g)
			if s.Raw != nil {
				obs, cost := observe(0), observeCost(0, pgCPU, follow)
				r := run(ctx, s.Name, "raw", c, *duration, *maxReq, s.Raw)
				r.usage, r.runCost = obs(), cost(r.Requests)
				rep.Results = append(rep.Results, r)
			}
			fmt.Fprintf(os.Stderr, "done %-26s c=%-3d %8.0f req/s p99 %6.1f ms errors %d\n", s.Name, c, g.RPS, g.P99ms, g.Errors)
		}
	}
	follow.stop()
	printTable(os.Stdout, rep.Results)
	if *jsonOut != "" {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(*jsonOut, append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// primeTimeout bounds priming one scenario. Priming is sequential and
// generous because a whale's history total, counted once per tip and then
// cached, can take seconds: a short warm-up would cancel it every time.
const primeTimeout = 3 * time.Minute

// prime sends every request of the mix once, in turn, through the gateway
// and the store, so caches hold what they would in steady state.
func prime(ctx context.Context, s Scenario, client *http.Client, base string, keys []string) error {
	ctx, cancel := context.WithTimeout(ctx, primeTimeout)
	defer cancel()
	var firstErr error
	keep := func(err error) {
		if err != nil && firstErr == nil {
			firstErr = err
		}
	}
	r := rand.New(rand.NewPCG(1, 1))
	for i, p := range s.Paths {
		keep(httpCaller(client, base, keys, func(*rand.Rand) Request { return Request{Method: "GET", Path: p} })(ctx, r))
		if s.RawAt != nil {
			keep(s.RawAt(ctx, i))
		}
	}
	return firstErr
}

// onlyScenarios keeps the scenarios --only names, in its order and as
// often as it names them, so `--only a,b,a,b` runs two scenarios in turn
// (a comparison under a load that changes hits both sides alike). The
// wide ones stay after the others: the follower starts with the first.
func onlyScenarios(scenarios []Scenario, only string) ([]Scenario, error) {
	byName := map[string]Scenario{}
	for _, s := range scenarios {
		byName[s.Name] = s
	}
	var kept, wide []Scenario
	for _, n := range strings.Split(only, ",") {
		s, ok := byName[strings.TrimSpace(n)]
		switch {
		case !ok:
			return nil, fmt.Errorf("--only: no scenario %q (see --list)", strings.TrimSpace(n))
		case s.Population > 0:
			wide = append(wide, s)
		default:
			kept = append(kept, s)
		}
	}
	return append(kept, wide...), nil
}

// loopbackOnly refuses to aim load anywhere but this machine.
func loopbackOnly(base string) error {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return fmt.Errorf("--url %q is not a URL", base)
	}
	switch u.Hostname() {
	case "127.0.0.1", "localhost", "::1":
		return nil
	}
	return fmt.Errorf("--url %q: the bench only sends traffic to 127.0.0.1", base)
}

// httpPager pages the light history through the API.
func httpPager(client *http.Client, base, key string) historyPager {
	return func(ctx context.Context, addr string, a pageArgs) ([]string, *int64, error) {
		q := url.Values{"limit": {strconv.Itoa(a.limit)}}
		if a.offset > 0 {
			q.Set("offset", strconv.Itoa(a.offset))
		}
		if a.fromSlot != nil {
			q.Set("fromSlot", strconv.FormatInt(*a.fromSlot, 10))
		}
		if a.asc {
			q.Set("order", "asc")
		}
		req, err := http.NewRequestWithContext(ctx, "GET", base+"/v1/tx/history/"+url.PathEscape(addr)+"?"+q.Encode(), nil)
		if err != nil {
			return nil, nil, err
		}
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := client.Do(req)
		if err != nil {
			return nil, nil, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
			return nil, nil, fmt.Errorf("%s: %s", resp.Status, b)
		}
		var body struct {
			Data []struct {
				TxHash string `json:"tx_hash"`
			} `json:"data"`
			Pagination struct {
				NextCursor *int64 `json:"next_cursor"`
			} `json:"pagination"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
			return nil, nil, err
		}
		hashes := make([]string, len(body.Data))
		for i, d := range body.Data {
			hashes[i] = d.TxHash
		}
		return hashes, body.Pagination.NextCursor, nil
	}
}

func machineInfo() machine {
	m := machine{CPUs: runtime.NumCPU(), GoVersion: runtime.Version()}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		m.LoadAvg = strings.Join(strings.Fields(string(b))[:3], " ")
	}
	if kb, err := procStatusKBFile("/proc/meminfo", "MemTotal"); err == nil {
		m.MemTotalMB = kb / 1024
	}
	return m
}

// printTable prints one row per scenario and concurrency, with the
// gateway/raw throughput ratio when a raw run exists.
func printTable(w io.Writer, results []Result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scenario\tconc\treq/s\tp50 ms\tp95 ms\tp99 ms\t1st byte p99\terrors\tcut\traw req/s\traw p99\tgw/raw\tclient cpu\tserver cpu\tserver MB\tsrv µs/req\tpg µs/req\traw pg µs/req\tblocks\t")
	rawBy := map[string]Result{}
	for _, r := range results {
		if r.Mode == "raw" {
			rawBy[r.Scenario+"/"+strconv.Itoa(r.Concurrency)] = r
		}
	}
	for _, r := range results {
		if r.Mode != "gateway" {
			continue
		}
		rawRPS, rawP99, ratio, rawPG := "-", "-", "-", "-"
		if rr, ok := rawBy[r.Scenario+"/"+strconv.Itoa(r.Concurrency)]; ok && rr.RPS > 0 {
			rawRPS = fmt.Sprintf("%.1f", rr.RPS)
			rawPG = usPerReq(rr.PGCPUus)
			rawP99 = fmt.Sprintf("%.1f", rr.P99ms)
			ratio = fmt.Sprintf("%.0f%%", 100*r.RPS/rr.RPS)
		}
		fmt.Fprintf(tw, "%s\t%d\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%d\t%d\t%s\t%s\t%s\t%.2f\t%.2f\t%.0f\t%s\t%s\t%s\t%d\t\n", r.Scenario, r.Concurrency, r.RPS,
			r.P50ms, r.P95ms, r.P99ms, r.FirstByteP99ms, r.Errors, r.Incomplete, rawRPS, rawP99, ratio, r.ClientCores, r.ServerCores, r.ServerRSSMB,
			usPerReq(r.ServerCPUus), usPerReq(r.PGCPUus), rawPG, r.Blocks)
	}
	tw.Flush()
}

// usPerReq prints a per-request CPU figure ("-" when not measured).
func usPerReq(us float64) string {
	if us <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f", us)
}

// pick returns a random element.
func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }
