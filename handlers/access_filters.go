package handlers

import (
	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/handlers/httpx"
)

// accessFilters answers 403 for a request outside its credential's access
// filters (client IP as derived through TRUSTED_PROXIES, Origin header,
// route group). The filters ride in the credential cache entry, so the
// check costs no round trip. False: refused.
func (s *Server) accessFilters(c *gin.Context, caller auth.Caller) bool {
	f := caller.Filters
	if f == nil {
		return true
	}
	if err := checkFilters(f, c.ClientIP(), c.GetHeader("Origin"), s.groups[c.FullPath()]); err != nil {
		httpx.Fail(c, err)
		return false
	}
	return true
}

// checkFilters is the check itself: nil when ip, origin and route group
// (""; a route of no group) pass f.
func checkFilters(f *auth.Filters, ip, origin, group string) *httpx.APIError {
	if !f.AllowsIP(ip) {
		return httpx.ErrClientIPNotAllowed
	}
	if !f.AllowsOrigin(origin) {
		return httpx.ErrOriginNotAllowed
	}
	if group != "" && !f.AllowsGroup(group) {
		return httpx.ErrRouteGroupNotAllowed(group)
	}
	return nil
}
