package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
)

// readReport loads a --json result file.
func readReport(path string) (*report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &r, nil
}

// writeMarkdown prints after's gateway results as a Markdown table (the
// form docs/PERFORMANCE.md quotes), with its gateway/raw ratio when it has
// raw runs and, when before is not nil, before's figures for the same
// scenario and concurrency beside them. The p99 column is marked against
// the 50 ms target at concurrency 16 and the ratio against 70 %.
func writeMarkdown(w io.Writer, before, after *report) {
	key := func(r Result) string { return r.Scenario + "/" + strconv.Itoa(r.Concurrency) }
	raw, old := map[string]Result{}, map[string]Result{}
	for _, r := range after.Results {
		if r.Mode == "raw" {
			raw[key(r)] = r
		}
	}
	if before != nil {
		for _, r := range before.Results {
			if r.Mode == "gateway" {
				old[key(r)] = r
			}
		}
	}
	header := "| scenario | conc | req/s | p50 ms | p99 ms | errors | raw req/s | gw/raw |"
	rule := "|---|---:|---:|---:|---:|---:|---:|---:|"
	// Results taken since the bench records it show the time to first byte.
	firstBytes := slices.ContainsFunc(after.Results, func(r Result) bool { return r.FirstByteP99ms > 0 })
	if firstBytes {
		header += " first byte p99 ms |"
		rule += "---:|"
	}
	// Results taken since the bench records them show the CPU per request.
	costs := slices.ContainsFunc(after.Results, func(r Result) bool { return r.ServerCPUus > 0 || r.PGCPUus > 0 })
	if costs {
		header += " server µs/req | pg µs/req | raw pg µs/req |"
		rule += "---:|---:|---:|"
	}
	if before != nil {
		header += " before req/s | before p99 ms |"
		rule += "---:|---:|"
	}
	fmt.Fprintln(w, header)
	fmt.Fprintln(w, rule)
	for _, r := range after.Results {
		if r.Mode != "gateway" {
			continue
		}
		p99 := fmt.Sprintf("%.1f", r.P99ms)
		if r.Concurrency == 16 && r.P99ms >= 50 {
			p99 = "**" + p99 + "**" // over the target
		}
		rawRPS, ratio, rawPG := "-", "-", "-"
		if rr, ok := raw[key(r)]; ok && rr.RPS > 0 {
			rawPG = usPerReq(rr.PGCPUus)
			rawRPS = fmt.Sprintf("%.0f", rr.RPS)
			ratio = fmt.Sprintf("%.0f%%", 100*r.RPS/rr.RPS)
			if r.Concurrency == 16 && r.RPS < 0.7*rr.RPS {
				ratio = "**" + ratio + "**"
			}
		}
		errs := strconv.Itoa(r.Errors)
		if r.Incomplete > 0 && r.Requests == 0 {
			errs += fmt.Sprintf(" (%d cut)", r.Incomplete)
		}
		fmt.Fprintf(w, "| %s | %d | %.0f | %.1f | %s | %s | %s | %s |", r.Scenario, r.Concurrency, r.RPS, r.P50ms, p99, errs, rawRPS, ratio)
		if firstBytes {
			fmt.Fprintf(w, " %.1f |", r.FirstByteP99ms)
		}
		if costs {
			fmt.Fprintf(w, " %s | %s | %s |", usPerReq(r.ServerCPUus), usPerReq(r.PGCPUus), rawPG)
		}
		if before != nil {
			if o, ok := old[key(r)]; ok {
				fmt.Fprintf(w, " %.0f | %.1f |", o.RPS, o.P99ms)
			} else {
				fmt.Fprint(w, " - | - |")
			}
		}
		fmt.Fprintln(w)
	}
}
