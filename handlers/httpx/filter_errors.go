package httpx

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/auth"
)

// Messages of credential access filters (docs/DECISIONS.md "Access filters").
var (
	ErrClientIPNotAllowed = NewAPIError(http.StatusForbidden, "Client IP not allowed for this API key")
	ErrOriginNotAllowed   = NewAPIError(http.StatusForbidden, "Origin not allowed for this API key")

	ErrAllowedIPsType     = NewAPIError(http.StatusBadRequest, "allowed_ips must be an array of at most "+strconv.Itoa(auth.MaxFilterEntries)+" IP addresses or CIDR prefixes, or null")
	ErrAllowedOriginsType = NewAPIError(http.StatusBadRequest, "allowed_origins must be an array of at most "+strconv.Itoa(auth.MaxFilterEntries)+" origins (https://app.example.com or https://*.example.com), or null")
	ErrAllowedGroupsType  = NewAPIError(http.StatusBadRequest, "allowed_route_groups must be an array of: "+strings.Join(admin.RouteGroups, ", ")+", or null")
)

// ErrRouteGroupNotAllowed is the 403 for a route group the key's filter leaves out.
func ErrRouteGroupNotAllowed(group string) *APIError {
	return NewAPIError(http.StatusForbidden, "Route group "+group+" not allowed for this API key")
}

// ErrAllowedIP is the 400 for an allowed_ips entry that is no address or CIDR prefix.
func ErrAllowedIP(entry string) *APIError {
	return NewAPIError(http.StatusBadRequest, "allowed_ips entry "+strconv.Quote(clip(entry))+" is not an IP address or CIDR prefix")
}

// ErrAllowedOrigin is the 400 for an allowed_origins entry that is no origin.
func ErrAllowedOrigin(entry string) *APIError {
	return NewAPIError(http.StatusBadRequest, "allowed_origins entry "+strconv.Quote(clip(entry))+
		" is not an origin: scheme http or https and a host (optionally *. and a port), without path")
}

// ErrAllowedGroup is the 400 for an unknown allowed_route_groups entry.
func ErrAllowedGroup(entry string) *APIError {
	return NewAPIError(http.StatusBadRequest, "allowed_route_groups entry "+strconv.Quote(clip(entry))+
		" is not a route group (one of: "+strings.Join(admin.RouteGroups, ", ")+")")
}

// clip shortens an echoed entry so a message stays readable.
func clip(s string) string {
	if len(s) > 100 {
		return s[:100] + "..."
	}
	return s
}
