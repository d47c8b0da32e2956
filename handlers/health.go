package handlers

import (
	"context"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/handlers/httpx"
)

// healthNetwork is one network's line in /v1/health.
type healthNetwork struct {
	TipSlot    *int64  `json:"tip_slot"`
	TipTime    *string `json:"tip_time"`
	LagSeconds *int64  `json:"lag_seconds"`
	// Layout is the detected db-sync layout (core, consumed, +address,
	// prune, disable: docs/DECISIONS.md "db-sync layouts"); absent until
	// detection has run.
	Layout string `json:"layout,omitempty"`
	Error  string `json:"error,omitempty"`
}

type healthData struct {
	Status    string                   `json:"status"`
	Timestamp string                   `json:"timestamp"`
	Networks  map[string]healthNetwork `json:"networks"`
	Redis     string                   `json:"redis"`
}

// Each dependency is probed at once and on its own clock, so one that
// hangs costs its own timeout and is reported as what is down, never
// another (a Redis ping waiting behind a frozen database read as "Redis
// down").
const (
	healthProbeTimeout = 2 * time.Second
	redisProbeTimeout  = time.Second
)

// health reports each network's tip and lag and whether Redis answers
// (redis: ok, degraded for a Redis Cluster that answers but fails, or
// unavailable). unhealthy (HTTP 503, so load balancers drain the
// instance): a chain database does not answer. degraded (200): Redis is
// configured but down or its cluster fails, or a network lags more than
// MAX_TIP_LAG. healthy otherwise.
func (s *Server) health(c *gin.Context) error {
	ctx := c.Request.Context()
	now := s.deps.Now().UTC()
	data := healthData{Status: "healthy", Timestamp: now.Format(time.RFC3339), Networks: map[string]healthNetwork{}, Redis: "unavailable"}

	names := make([]string, 0, len(s.deps.Networks))
	for name := range s.deps.Networks {
		names = append(names, name)
	}
	sort.Strings(names)
	tips := make([]dbsync.Tip, len(names))
	errs := make([]error, len(names))
	var redisErr error
	redisAnswers := false
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(ctx, healthProbeTimeout)
			defer cancel()
			tips[i], errs[i] = s.deps.Networks[name].Tip(ctx)
		})
	}
	if s.deps.Redis != nil {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(ctx, redisProbeTimeout)
			defer cancel()
			redisAnswers, redisErr = s.deps.Redis.Health(ctx)
		})
	}
	wg.Wait()
	unhealthy, degraded := false, false
	for i, name := range names {
		tip, err := tips[i], errs[i]
		layout := ""
		if caps, known := s.deps.Networks[name].Capabilities(); known {
			layout = caps.LayoutName()
		}
		if err != nil {
			unhealthy = true
			data.Networks[name] = healthNetwork{Layout: layout, Error: "unavailable"}
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
		data.Networks[name] = healthNetwork{TipSlot: &slot, TipTime: &t, LagSeconds: &lag, Layout: layout}
	}
	if s.deps.Redis != nil {
		switch {
		case redisErr == nil:
			data.Redis = "ok"
		case redisAnswers:
			// A Redis Cluster with a master down (cluster_state:fail):
			// it answers, but not for every key.
			data.Redis, degraded = "degraded", true
		default:
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
	httpx.WriteJSON(c, status, httpx.Envelope{Success: true, Data: data})
	return nil
}
