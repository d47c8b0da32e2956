package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// limitCheck (--limit-check N --url a,b,… --key K): workers per instance
// send GET /v1/epochs/latest with one key to every instance at once (all
// sharing one Redis), each pausing pace between requests, for duration,
// and count what was allowed (200) and refused (429). The key's limit of
// N a minute, with the GCRA's burst of N, allows N + N × minutes over the
// run at most; the busiest 60 s window that starts once the first burst
// is spent allows N. Both are printed beside what was allowed.
func limitCheck(ctx context.Context, bases []string, key string, limit, workers int, pace, duration time.Duration) error {
	if key == "" || len(bases) == 0 || limit < 1 {
		return fmt.Errorf("--limit-check needs --url (comma-separated instances), --key and the key's limit a minute")
	}
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	type hit struct {
		at   time.Duration
		code int
	}
	var (
		mu   sync.Mutex
		hits = make([][]hit, len(bases))
		wg   sync.WaitGroup
	)
	start := time.Now()
	end := start.Add(duration)
	for i, base := range bases {
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var mine []hit
				for time.Now().Before(end) && ctx.Err() == nil {
					req, _ := http.NewRequestWithContext(ctx, "GET", strings.TrimRight(base, "/")+"/v1/epochs/latest", nil)
					req.Header.Set("Authorization", "Bearer "+key)
					at := time.Since(start)
					resp, err := client.Do(req)
					if err == nil {
						_, _ = io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
						mine = append(mine, hit{at, resp.StatusCode})
					}
					time.Sleep(pace)
				}
				mu.Lock()
				hits[i] = append(hits[i], mine...)
				mu.Unlock()
			}()
		}
	}
	wg.Wait()
	elapsed := time.Since(start)

	var allowed []time.Duration
	for i, hs := range hits {
		codes := map[int]int{}
		for _, h := range hs {
			codes[h.code]++
			if h.code == http.StatusOK {
				allowed = append(allowed, h.at)
			}
		}
		fmt.Printf("instance %d (%s): %d requests, 200: %d, 429: %d, other: %d\n",
			i+1, bases[i], len(hs), codes[200], codes[429], len(hs)-codes[200]-codes[429])
	}
	slices.Sort(allowed)
	exact := limit + int(float64(limit)*elapsed.Minutes())
	fmt.Printf("allowed %d in %s; the exact GCRA allows at most %d (burst %d + %d/min): %+.2f %%\n",
		len(allowed), elapsed.Round(time.Millisecond), exact, limit, limit, 100*float64(len(allowed)-exact)/float64(limit))
	// The busiest 60 s window starting once the burst is spent (the
	// limit-th allowed request), while the run lasts a full window.
	if len(allowed) > limit {
		from := allowed[limit-1]
		best, at := 0, time.Duration(0)
		j := 0
		for i := limit - 1; i < len(allowed) && allowed[i]+time.Minute <= elapsed; i++ {
			for j < len(allowed) && allowed[j] < allowed[i]+time.Minute {
				j++
			}
			if j-i > best {
				best, at = j-i, allowed[i]
			}
		}
		if best > 0 {
			fmt.Printf("busiest 60 s after the burst (spent at %s): %d allowed from %s; limit %d: %+.2f %%\n",
				from.Round(time.Millisecond), best, at.Round(time.Millisecond), limit, 100*float64(best-limit)/float64(limit))
		}
	}
	for m := time.Duration(0); m < elapsed; m += 10 * time.Second {
		lo, _ := slices.BinarySearch(allowed, m)
		hi, _ := slices.BinarySearch(allowed, m+10*time.Second)
		fmt.Printf("  %3.0f-%3.0f s: %d allowed\n", m.Seconds(), (m + 10*time.Second).Seconds(), hi-lo)
	}
	return nil
}
