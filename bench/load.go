package main

import (
	"context"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Request is one call a scenario makes: an HTTP request for the gateway
// run, or a direct function for the raw-SQL run.
type Request struct {
	Method string
	Path   string
	Body   string
}

// Scenario is one endpoint with a mix of identifiers to aim at.
type Scenario struct {
	Name string
	// Paths lists every request the mix draws from (for the report).
	Paths []string
	// Next picks the next request (identifier mix) for the HTTP run.
	Next func(r *rand.Rand) Request
	// Raw runs the endpoint's own SQL directly (nil: no raw comparison).
	Raw func(ctx context.Context, r *rand.Rand) error
	// RawAt runs the raw call of Paths[i] (for priming).
	RawAt func(ctx context.Context, i int) error
	// Population, when set, is how many targets Next draws from (wide
	// scenarios: Paths then lists only a sample).
	Population int
}

// Result is what one scenario did at one concurrency.
type Result struct {
	Scenario    string `json:"scenario"`
	Mode        string `json:"mode"` // gateway or raw
	Concurrency int    `json:"concurrency"`
	Requests    int    `json:"requests"` // completed (answered or failed)
	Errors      int    `json:"errors"`
	// Incomplete counts requests still running when the run ended. Their
	// time so far is in the percentiles (as a lower bound), so a run whose
	// every request outlasts it still shows its latency.
	Incomplete int     `json:"incomplete,omitempty"`
	RPS        float64 `json:"rps"`
	P50ms      float64 `json:"p50_ms"`
	P95ms      float64 `json:"p95_ms"`
	P99ms      float64 `json:"p99_ms"`
	MaxMs      float64 `json:"max_ms"`
	// FirstByteP99ms is the gateway's time to an answer's first byte (its
	// headers, sent with the first bytes of the body): what a client of a
	// long, streamed answer waits before it can start reading.
	FirstByteP50ms float64 `json:"first_byte_p50_ms,omitempty"`
	FirstByteP99ms float64 `json:"first_byte_p99_ms,omitempty"`
	FirstByteMaxMs float64 `json:"first_byte_max_ms,omitempty"` // a cold answer's, in a short run
	// FirstError is a sample of what failed, for the report.
	FirstError string `json:"first_error,omitempty"`
	usage
	runCost
}

// drawSeed is worker w's seed of its draws. A measured run's workers draw
// the same sequence in the gateway and the raw run (the same targets);
// a warm-up's draw another, or a wide scenario's run began by asking again
// for the targets its warm-up had just asked for (at 2,600 req/s, the
// first 40 % of a 5 s run), answered from the caches that filled.
func drawSeed(mode string, w int) uint64 {
	if mode == "warmup" {
		return uint64(w+1) | 1<<32
	}
	return uint64(w + 1)
}

// run drives call with `concurrency` workers for d (bounded: it also stops
// after maxRequests) and summarises latencies.
func run(ctx context.Context, name, mode string, concurrency int, d time.Duration, maxRequests int,
	call func(ctx context.Context, r *rand.Rand) error) Result {
	// The run ends by cancelling, not by a deadline: pgconn does not send a
	// statement within its cancel timeout (250 ms) of a deadline, so with one
	// every raw call of a run's last 250 ms failed at once, in a tight loop,
	// and those failures were counted as requests.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := time.AfterFunc(d, cancel)
	defer stop.Stop()
	var (
		mu        sync.Mutex
		latencies []time.Duration
		firsts    []time.Duration
		errs      int
		cut       int
		firstErr  string
		count     atomic.Int64
	)
	start := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < concurrency; w++ {
		wg.Add(1)
		go func(seed uint64) {
			defer wg.Done()
			r := rand.New(rand.NewPCG(seed, 0x5eed))
			local := make([]time.Duration, 0, 1024)
			var localFirsts []time.Duration
			firstByte := time.Duration(-1)
			wctx := context.WithValue(ctx, firstByteKey{}, &firstByte)
			localErrs, localCut := 0, 0
			var localFirst string
			for ctx.Err() == nil {
				if count.Add(1) > int64(maxRequests) {
					break
				}
				t0 := time.Now()
				firstByte = -1
				err := call(wctx, r)
				if firstByte >= 0 && err == nil && ctx.Err() == nil {
					localFirsts = append(localFirsts, firstByte)
				}
				if ctx.Err() != nil {
					// The run ended mid-call: not a completed request, but
					// its time so far is a lower bound of its latency.
					local = append(local, time.Since(t0))
					localCut++
					break
				}
				local = append(local, time.Since(t0))
				if err != nil {
					localErrs++
					if localFirst == "" {
						localFirst = err.Error()
					}
				}
			}
			mu.Lock()
			latencies = append(latencies, local...)
			firsts = append(firsts, localFirsts...)
			errs += localErrs
			cut += localCut
			if firstErr == "" {
				firstErr = localFirst
			}
			mu.Unlock()
		}(drawSeed(mode, w))
	}
	wg.Wait()
	elapsed := time.Since(start)
	res := Result{Scenario: name, Mode: mode, Concurrency: concurrency, Requests: len(latencies) - cut, Errors: errs,
		Incomplete: cut, FirstError: firstErr}
	if len(latencies) == 0 {
		return res
	}
	slices.Sort(latencies)
	res.RPS = float64(res.Requests) / elapsed.Seconds()
	res.P50ms, res.P95ms = percentileMs(latencies, 0.50), percentileMs(latencies, 0.95)
	res.P99ms, res.MaxMs = percentileMs(latencies, 0.99), percentileMs(latencies, 1)
	slices.Sort(firsts)
	res.FirstByteP50ms, res.FirstByteP99ms = percentileMs(firsts, 0.50), percentileMs(firsts, 0.99)
	res.FirstByteMaxMs = percentileMs(firsts, 1)
	return res
}

// firstByteKey carries, in a call's context, where an HTTP call records
// its time to the answer's first byte.
type firstByteKey struct{}

// percentileMs is the nearest-rank p-quantile (0 < p <= 1) of sorted
// latencies, in milliseconds: the smallest value with at least p of the
// samples at or below it. Empty input gives 0.
func percentileMs(sorted []time.Duration, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p * float64(len(sorted))))
	rank = min(max(rank, 1), len(sorted))
	return float64(sorted[rank-1]) / float64(time.Millisecond)
}

// httpCaller sends a scenario's requests to the gateway, taking the API
// keys in turn (many keys, like many customers: each credential's rate
// limit is at most 10 000/min, which one busy client would exceed).
// A non-2xx answer is an error (the bench aims only at valid identifiers).
func httpCaller(client *http.Client, base string, keys []string, next func(r *rand.Rand) Request) func(ctx context.Context, r *rand.Rand) error {
	var turn atomic.Uint64
	return func(ctx context.Context, r *rand.Rand) error {
		q := next(r)
		key := keys[turn.Add(1)%uint64(len(keys))]
		var body io.Reader
		if q.Body != "" {
			body = strings.NewReader(q.Body)
		}
		req, err := http.NewRequestWithContext(ctx, q.Method, base+q.Path, body)
		if err != nil {
			return err
		}
		authorize(req, q.Path, key)
		if q.Body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		sent := time.Now()
		resp, err := client.Do(req) // returns once the headers are in
		if err != nil {
			return err
		}
		if fb, ok := ctx.Value(firstByteKey{}).(*time.Duration); ok {
			*fb = time.Since(sent)
		}
		drain(resp.Body)
		resp.Body.Close()
		if resp.StatusCode >= 300 {
			return &statusError{code: resp.StatusCode, path: q.Path}
		}
		return nil
	}
}

// blockfrostPrefix is where the Blockfrost dialect is served.
const blockfrostPrefix = "/api/v0/"

// authorize sends key as each dialect's clients do: Blockfrost's SDKs in
// the project_id header, /v1's clients as a bearer token.
func authorize(req *http.Request, path, key string) {
	if strings.HasPrefix(path, blockfrostPrefix) {
		req.Header.Set("project_id", key)
		return
	}
	req.Header.Set("Authorization", "Bearer "+key)
}

// drainBuffers are what drain reads into.
var drainBuffers = sync.Pool{New: func() any {
	b := make([]byte, 256<<10)
	return &b
}}

// drain reads a body to its end, 256 kB at a time. io.Copy to io.Discard
// reads 8 kB at a time: for a 41 MB list that is 5,000 reads, and the
// bench client, on the same two cores, took that CPU from the server it
// measures (0.73 cores at 80 answers a second).
func drain(r io.Reader) {
	b := drainBuffers.Get().(*[]byte)
	defer drainBuffers.Put(b)
	for {
		if _, err := r.Read(*b); err != nil {
			return
		}
	}
}

type statusError struct {
	code int
	path string
}

func (e *statusError) Error() string { return http.StatusText(e.code) + " on " + e.path }

// acceptGzip asks for gzip answers and leaves them compressed (--gzip
// wire): what the server sends, without the client's decompression, which
// on a shared box would take CPU from the server being measured.
type acceptGzip struct{ next http.RoundTripper }

func (a acceptGzip) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Accept-Encoding", "gzip")
	return a.next.RoundTrip(r)
}
