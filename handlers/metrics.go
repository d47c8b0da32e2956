package handlers

import (
	"time"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/internal/platform/metrics"
)

// observeMetrics counts every answered request by its route template (the
// raw path would put addresses into labels) and final status, like
// accessLog; 401s and 429s also count as failed authentications and
// rate-limit rejections.
func observeMetrics() gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		metrics.ObserveRequest(routeLabel(c), c.Request.Method, c.Writer.Status(), time.Since(start))
	}
}

// routeLabel names a request's route in metrics and the access log: its
// template, or "(unmatched)".
func routeLabel(c *gin.Context) string {
	if route := c.FullPath(); route != "" {
		return route
	}
	return "(unmatched)"
}
