package answer

import (
	"testing"
	"time"
)

func TestSyncProgress(t *testing.T) {
	start := time.Date(2017, 9, 23, 21, 44, 51, 0, time.UTC)
	for _, tc := range []struct {
		tip, now time.Time
		lag      time.Duration
		want     float64
	}{
		{start.Add(999 * time.Hour), start.Add(1000 * time.Hour), 0, 99.9},
		{start.Add(2 * time.Hour), start.Add(3 * time.Hour), 0, 66.66}, // rounded down
		{start.Add(2 * time.Hour), start.Add(2*time.Hour + time.Minute), 10 * time.Minute, 100},
		{start, start, 0, 100},                              // a network that has just started
		{start.Add(time.Hour), start, 0, 100},               // a clock behind the chain
		{start.Add(-time.Hour), start.Add(time.Hour), 0, 0}, // never negative
	} {
		if got := syncProgress(start, tc.tip, tc.now, tc.lag); got != tc.want {
			t.Errorf("syncProgress(tip %s, now %s, lag %s) = %v, want %v", tc.tip, tc.now, tc.lag, got, tc.want)
		}
	}
}
