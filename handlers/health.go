package handlers

import (
	"context"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/dbsync"
)

// healthNetwork is one network's line in /v1/health.
type healthNetwork struct {
	TipSlot    *int64  `json:"tip_slot"`
	TipTime    *string `json:"tip_time"`
	LagSeconds *int64  `json:"lag_seconds"`
	Error      string  `json:"error,omitempty"`
}

type healthData struct {
	Status    string                   `json:"status"`
	Timestamp string                   `json:"timestamp"`
	Networks  map[string]healthNetwork `json:"networks"`
	Redis     string                   `json:"redis"`
}

// healthProbeTimeout keeps /v1/health fast even when a database hangs.
const healthProbeTimeout = 2 * time.Second

// health reports each network's tip and lag and whether Redis answers.
// unhealthy (HTTP 503, so load balancers drain the instance): a chain
// database does not answer. degraded (200): Redis is configured but down,
// or a network lags more than MAX_TIP_LAG. healthy otherwise.
func (s *Server) health(c *gin.Context) error {
	ctx, cancel := context.WithTimeout(c.Request.Context(), healthProbeTimeout)
	defer cancel()
	now := s.deps.Now().UTC()
	data := healthData{Status: "healthy", Timestamp: now.Format(time.RFC3339), Networks: map[string]healthNetwork{}, Redis: "unavailable"}

	names := make([]string, 0, len(s.deps.Networks))
	for name := range s.deps.Networks {
		names = append(names, name)
	}
	sort.Strings(names)
	// Probe every network at once: probed in turn, one hung database
	// would spend the whole timeout and the others would read as down.
	tips := make([]dbsync.Tip, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tips[i], errs[i] = s.deps.Networks[name].Tip(ctx)
		}()
	}
	wg.Wait()
	unhealthy, degraded := false, false
	for i, name := range names {
		tip, err := tips[i], errs[i]
		if err != nil {
			unhealthy = true
			data.Networks[name] = healthNetwork{Error: "unavailable"}
			continue
		}
		slot := tip.SlotNo
		t := tip.BlockTime.UTC().Format(time.RFC3339)
		lag := int64(now.Sub(tip.BlockTime) / time.Second)
		if lag < 0 {
			lag = 0
		}
		if s.deps.Config.MaxTipLag > 0 && time.Duration(lag)*time.Second > s.deps.Config.MaxTipLag {
			degraded = true
		}
		data.Networks[name] = healthNetwork{TipSlot: &slot, TipTime: &t, LagSeconds: &lag}
	}
	if s.deps.Redis != nil {
		if err := s.deps.Redis.Ping(ctx); err == nil {
			data.Redis = "ok"
		} else {
			degraded = true
		}
	}
	status := http.StatusOK
	switch {
	case unhealthy:
		data.Status, status = "unhealthy", http.StatusServiceUnavailable
	case degraded:
		data.Status = "degraded"
	}
	writeJSON(c, status, envelope{Success: true, Data: data})
	return nil
}
