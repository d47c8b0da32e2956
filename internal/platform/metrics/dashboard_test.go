package metrics

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// metricRef finds metric names in PromQL: identifiers followed by a label
// matcher or a range/closing bracket, which excludes functions (followed by
// "(") and label names (inside "by (...)").
var metricRef = regexp.MustCompile(`\b([a-z_][a-z0-9_]*)\s*[{\[]`)

// TestDashboardMetricsExist: every metric the Grafana dashboard queries is
// one the registry exports, so renaming a metric breaks this test, not the
// operator's dashboard.
func TestDashboardMetricsExist(t *testing.T) {
	b, err := os.ReadFile("../../../docs/grafana/syncgate.json")
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, n := range Names() {
		known[n] = true
	}
	queried := 0
	for _, p := range d.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("panel %q queries nothing", p.Title)
		}
		for _, tg := range p.Targets {
			refs := metricRef.FindAllStringSubmatch(tg.Expr, -1)
			if len(refs) == 0 {
				t.Errorf("panel %q: no metric found in %q", p.Title, tg.Expr)
			}
			for _, m := range refs {
				name := m[1]
				base := name
				for _, suf := range []string{"_bucket", "_count", "_sum"} {
					if b, ok := strings.CutSuffix(name, suf); ok && known[b] {
						base = b
					}
				}
				if !known[base] {
					t.Errorf("panel %q queries %s, which the registry does not export", p.Title, name)
				}
				queried++
			}
		}
	}
	// Every syncgate metric is on the dashboard.
	onBoard := map[string]bool{}
	for _, p := range d.Panels {
		for _, tg := range p.Targets {
			for _, m := range metricRef.FindAllStringSubmatch(tg.Expr, -1) {
				n := m[1]
				for _, suf := range []string{"_bucket", "_count", "_sum"} {
					n = strings.TrimSuffix(n, suf)
				}
				onBoard[n] = true
			}
		}
	}
	for n := range known {
		if strings.HasPrefix(n, ns+"_") && !onBoard[n] {
			t.Errorf("metric %s is on no dashboard panel", n)
		}
	}
	if queried < 20 {
		t.Fatalf("only %d metric references found: the parser is broken", queried)
	}
}

// TestNamesWithoutSamples: Names lists metrics that have not been touched
// yet (vectors without children, scrape-time probes not installed).
func TestNamesWithoutSamples(t *testing.T) {
	names := strings.Join(Names(), " ")
	for _, want := range []string{"syncgate_dbsync_tip_lag_seconds", "syncgate_redis_up", "syncgate_dbsync_gate_wait_seconds", "go_goroutines", "process_cpu_seconds_total"} {
		if !strings.Contains(" "+names+" ", " "+want+" ") {
			t.Errorf("Names() lacks %s: %s", want, names)
		}
	}
}
