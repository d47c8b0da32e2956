package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// authFloodBench (--auth-flood N --key K): a legitimate client (one
// request at a time, X-Forwarded-For 198.51.100.10) looks up transaction
// hashes that do not exist (an index probe, 404) first alone for 3 s, then
// while 32 workers send N requests with random unknown keys as another
// client (X-Forwarded-For 198.51.100.66). Start the server with
// TRUSTED_PROXIES=127.0.0.1 so the two clients are told apart.
func authFloodBench(ctx context.Context, base, key string, n int) error {
	if key == "" {
		return fmt.Errorf("--auth-flood needs --key (a valid API key)")
	}
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	send := func(ip, k string) (int, error) {
		b := make([]byte, 32)
		_, _ = rand.Read(b)
		req, _ := http.NewRequestWithContext(ctx, "GET", base+"/v1/tx/hash/"+hex.EncodeToString(b), nil)
		req.Header.Set("Authorization", "Bearer "+k)
		req.Header.Set("X-Forwarded-For", ip)
		resp, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	legit := func(stop <-chan struct{}, d time.Duration) ([]time.Duration, map[int]int) {
		var lat []time.Duration
		codes := map[int]int{}
		end := time.Now().Add(d)
		for {
			select {
			case <-stop:
				return lat, codes
			default:
			}
			if d > 0 && time.Now().After(end) {
				return lat, codes
			}
			t0 := time.Now()
			code, err := send("198.51.100.10", key)
			if err == nil {
				lat = append(lat, time.Since(t0))
				codes[code]++
			}
		}
	}
	report := func(name string, lat []time.Duration, codes map[int]int) {
		slices.Sort(lat)
		if len(lat) == 0 {
			fmt.Printf("%s: no responses\n", name)
			return
		}
		pct := func(p float64) time.Duration { return lat[min(len(lat)-1, int(p*float64(len(lat))))] }
		fmt.Printf("%-28s %6d requests  p50 %-9s p99 %-9s max %-9s statuses %v\n", name, len(lat),
			pct(0.5).Round(10*time.Microsecond), pct(0.99).Round(10*time.Microsecond), lat[len(lat)-1].Round(10*time.Microsecond), codes)
	}
	lat, codes := legit(nil, 3*time.Second)
	report("legitimate client, alone", lat, codes)

	stop := make(chan struct{})
	var legitLat []time.Duration
	var legitCodes map[int]int
	done := make(chan struct{})
	go func() { legitLat, legitCodes = legit(stop, 0); close(done) }()
	var next atomic.Int64
	var mu sync.Mutex
	flood := map[int]int{}
	var wg sync.WaitGroup
	t0 := time.Now()
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(n) {
				b := make([]byte, 24)
				_, _ = rand.Read(b)
				code, err := send("198.51.100.66", "sgk1_"+hex.EncodeToString(b))
				mu.Lock()
				if err != nil {
					flood[-1]++
				} else {
					flood[code]++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	took := time.Since(t0)
	close(stop)
	<-done
	report("legitimate client, flooded", legitLat, legitCodes)
	fmt.Printf("flood: %d unknown-key requests in %s (%.0f/s), statuses %v\n", n, took.Round(time.Millisecond), float64(n)/took.Seconds(), flood)
	return nil
}
