package handlers

import (
	"net/http"
	"slices"
	"strings"

	"github.com/gin-gonic/gin"
)

// securityHeaders sets what every response carries: no MIME sniffing of
// our JSON, and no caching of anything under /v1/admin (lists of users and
// keys, and the one response that carries a new key in full). Neither Go
// nor gin sends a Server header, so no version leaks.
func securityHeaders() gin.HandlerFunc {
	return func(c *gin.Context) {
		hd := c.Writer.Header()
		hd.Set("X-Content-Type-Options", "nosniff")
		if p := c.Request.URL.Path; p == "/v1/admin" || strings.HasPrefix(p, "/v1/admin/") {
			hd.Set("Cache-Control", "no-store")
		}
		c.Next()
	}
}

// CORS (CORS_ALLOWED_ORIGINS; none by default, so browsers get no
// cross-origin access unless an operator opts in).
const (
	corsAllowMethods  = "GET, POST, PATCH, DELETE, OPTIONS"
	corsAllowHeaders  = "Authorization, Content-Type, X-Request-Id"
	corsExposeHeaders = "X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit-Policy, RateLimit, Retry-After"
	corsMaxAge        = "600"
)

// cors answers preflights from allowed origins with 204 (before auth: a
// preflight never carries the key) and marks other responses to them as
// readable. Requests from other origins pass untouched.
func cors(allowed []string) gin.HandlerFunc {
	anyOrigin := slices.Contains(allowed, "*")
	return func(c *gin.Context) {
		if len(allowed) == 0 {
			c.Next()
			return
		}
		origin := c.GetHeader("Origin")
		hd := c.Writer.Header()
		hd.Add("Vary", "Origin")
		if origin == "" || !(anyOrigin || slices.Contains(allowed, origin)) {
			c.Next()
			return
		}
		hd.Set("Access-Control-Allow-Origin", origin)
		if c.Request.Method == http.MethodOptions && c.GetHeader("Access-Control-Request-Method") != "" {
			hd.Set("Access-Control-Allow-Methods", corsAllowMethods)
			hd.Set("Access-Control-Allow-Headers", corsAllowHeaders)
			hd.Set("Access-Control-Max-Age", corsMaxAge)
			c.AbortWithStatus(http.StatusNoContent)
			return
		}
		hd.Set("Access-Control-Expose-Headers", corsExposeHeaders)
		c.Next()
	}
}
