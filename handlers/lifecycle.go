package handlers

import (
	"context"
	"net/http"
	"sort"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/platform/metrics"
)

// Liveness, readiness, drain and the in-flight bound: what a load
// balancer or an orchestrator needs to route around an instance that
// cannot serve, is shutting down, or is full.

// readyProbeTimeout bounds /readyz's admin database check.
const readyProbeTimeout = time.Second

// livez: GET /livez. The process answers HTTP; nothing else is checked
// (a restart would not fix a database that is down).
func (s *Server) livez(c *gin.Context) error {
	httpx.OK(c, gin.H{"status": "ok"})
	return nil
}

// readinessData is /readyz's data.
type readinessData struct {
	// Status: ready, not_ready, or draining (SIGTERM received).
	Status string `json:"status"`
	// AdminDatabase: ok, unavailable (unreachable or not migrated), or
	// unchecked (no admin database wired, tests).
	AdminDatabase string `json:"admin_database"`
	// Networks: each served network's db-sync, ok or unavailable.
	Networks map[string]string `json:"networks"`
}

// readyz: GET /readyz. Ready (200): not draining, the admin database
// answers and carries every migration, and at least one network's db-sync
// serves reads. Otherwise 503 with the same body, saying what is missing.
func (s *Server) readyz(c *gin.Context) error {
	d := readinessData{Status: "ready", AdminDatabase: "unchecked", Networks: map[string]string{}}
	if s.deps.AdminReady != nil || s.deps.AdminCheck != nil {
		d.AdminDatabase = "ok"
		if s.deps.AdminReady != nil && !s.deps.AdminReady() {
			d.AdminDatabase = "unavailable" // not migrated yet (started without it)
		} else if s.deps.AdminCheck != nil {
			ctx, cancel := context.WithTimeout(c.Request.Context(), readyProbeTimeout)
			if s.deps.AdminCheck(ctx) != nil {
				d.AdminDatabase = "unavailable"
			}
			cancel()
		}
		if d.AdminDatabase != "ok" {
			d.Status = "not_ready"
		}
	}
	names := make([]string, 0, len(s.deps.Networks))
	for name := range s.deps.Networks {
		names = append(names, name)
	}
	sort.Strings(names)
	serving := 0
	for _, name := range names {
		d.Networks[name] = "unavailable"
		if s.deps.Networks[name].Serving() {
			d.Networks[name] = "ok"
			serving++
		}
	}
	if serving == 0 {
		d.Status = "not_ready"
	}
	if s.draining() {
		d.Status = "draining"
	}
	status := http.StatusOK
	if d.Status != "ready" {
		status = http.StatusServiceUnavailable
	}
	httpx.WriteJSON(c, status, httpx.Envelope{Success: true, Data: d})
	return nil
}

func (s *Server) draining() bool { return s.deps.Draining != nil && s.deps.Draining() }

// closeWhileDraining asks every client to close its connection once the
// instance drains, so keep-alive clients move to another instance
// between requests instead of meeting a closed listener mid-request.
func (s *Server) closeWhileDraining() gin.HandlerFunc {
	return func(c *gin.Context) {
		if s.draining() {
			c.Header("Connection", "close")
		}
		c.Next()
	}
}

// probeRoutes are answered whatever the load: they are how an instance
// says it is full or down.
var probeRoutes = map[string]bool{"/livez": true, "/readyz": true, "/v1/health": true}

// limitInFlight answers 503 at once, with Retry-After, while n requests
// are already in progress (MAX_IN_FLIGHT; n <= 0: no bound). Refusing
// costs microseconds; queueing past the point the databases can serve
// only turns every answer into a timeout.
func limitInFlight(n int) gin.HandlerFunc {
	if n <= 0 {
		return func(c *gin.Context) { c.Next() }
	}
	slots := make(chan struct{}, n)
	return func(c *gin.Context) {
		if probeRoutes[c.FullPath()] {
			c.Next()
			return
		}
		select {
		case slots <- struct{}{}:
		default:
			metrics.Shed("in_flight")
			httpx.Fail(c, httpx.ErrOverloaded(time.Second))
			return
		}
		defer func() { <-slots }()
		c.Next()
	}
}
