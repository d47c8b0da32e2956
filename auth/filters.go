package auth

import (
	"net/netip"
	"net/url"
	"slices"
	"strings"
)

// MaxFilterEntries bounds each access-filter list of a credential.
const MaxFilterEntries = 100

// maxOriginLen bounds one allowed origin (a scheme and a DNS name).
const maxOriginLen = 300

// Filters are a credential's access filters, parsed once when its cache
// entry loads so a request's check costs no allocation and no round trip.
// A nil list is no filter.
type Filters struct {
	Prefixes []netip.Prefix
	// Origins are exact origins, lower case; wildcard entries are kept as
	// scheme "://" and the suffix after "*" (e.g. "https://" + ".example.com").
	Origins     []string
	wildSchemes []string
	wildSuffix  []string
	RouteGroups []string
}

// Empty reports whether no filter is set.
func (f *Filters) Empty() bool {
	return len(f.Prefixes) == 0 && len(f.Origins) == 0 && len(f.wildSuffix) == 0 && len(f.RouteGroups) == 0
}

// AllowsIP reports whether the client address ip (text, as the server
// derived it) passes the IP filter. An address that does not parse fails a
// set filter.
func (f *Filters) AllowsIP(ip string) bool {
	if len(f.Prefixes) == 0 {
		return true
	}
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return false
	}
	a = a.Unmap().WithZone("")
	for _, p := range f.Prefixes {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// AllowsOrigin reports whether the Origin header value passes the origin
// filter. With a filter set, a request without Origin fails it: the filter
// is for keys used from browsers, which always send one cross-origin.
func (f *Filters) AllowsOrigin(origin string) bool {
	if len(f.Origins) == 0 && len(f.wildSuffix) == 0 {
		return true
	}
	if origin == "" {
		return false
	}
	for _, o := range f.Origins {
		if strings.EqualFold(o, origin) {
			return true
		}
	}
	for i, suf := range f.wildSuffix {
		sch := f.wildSchemes[i]
		if len(origin) <= len(sch)+len(suf) || !strings.EqualFold(origin[:len(sch)], sch) {
			continue
		}
		host := origin[len(sch):]
		if !strings.EqualFold(host[len(host)-len(suf):], suf) {
			continue
		}
		// The labels the star stands for: at least one, no port or path.
		if label := host[:len(host)-len(suf)]; !strings.ContainsAny(label, ":/@?#") {
			return true
		}
	}
	return false
}

// AllowsGroup reports whether route group g passes the route-group filter.
func (f *Filters) AllowsGroup(g string) bool {
	return len(f.RouteGroups) == 0 || slices.Contains(f.RouteGroups, g)
}

// ParseAllowedIP reads one allowed-IP entry: an IPv4 or IPv6 address or a
// CIDR prefix. Host bits of a prefix are cleared (10.1.2.3/8 is 10.0.0.0/8).
func ParseAllowedIP(s string) (netip.Prefix, bool) {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return netip.Prefix{}, false
		}
		if p.Addr().Is4In6() {
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
			if p.Bits() < 0 {
				return netip.Prefix{}, false
			}
		}
		return p.Masked(), true
	}
	a, err := netip.ParseAddr(s)
	if err != nil || a.Zone() != "" {
		return netip.Prefix{}, false
	}
	a = a.Unmap()
	return netip.PrefixFrom(a, a.BitLen()), true
}

// ParseAllowedOrigin reads one allowed-origin entry: "scheme://host[:port]"
// with scheme http or https, or a wildcard "https://*.example.com" (the
// star one or more leading labels). No path (not even "/"), query,
// fragment or user info. The result is in lower case.
func ParseAllowedOrigin(s string) (string, bool) {
	if len(s) > maxOriginLen || strings.ContainsAny(s, " \t\r\n") {
		return "", false
	}
	s = strings.ToLower(s)
	sch, rest, ok := strings.Cut(s, "://")
	if !ok || (sch != "http" && sch != "https") || rest == "" || strings.ContainsAny(rest, "/?#@\\") {
		return "", false
	}
	host := rest
	if wild, found := strings.CutPrefix(rest, "*."); found {
		host = wild
	}
	u, err := url.Parse(sch + "://" + host)
	if err != nil || u.Hostname() == "" || strings.Contains(host, "*") || u.Path != "" {
		return "", false
	}
	if p := u.Port(); p == "" && strings.HasSuffix(host, ":") {
		return "", false
	}
	if host != rest && strings.HasPrefix(u.Host, "[") {
		return "", false // no wildcard over an IP literal
	}
	return s, true
}

// NewFilters builds the filters of stored lists (already validated when
// written; an entry that no longer parses is dropped from its list, and a
// list left empty by that refuses everything rather than nothing).
func NewFilters(ips, origins, groups []string) Filters {
	var f Filters
	for _, s := range ips {
		if p, ok := ParseAllowedIP(s); ok {
			f.Prefixes = append(f.Prefixes, p)
		}
	}
	if len(ips) > 0 && len(f.Prefixes) == 0 {
		f.Prefixes = []netip.Prefix{{}} // an invalid prefix contains nothing
	}
	for _, s := range origins {
		o, ok := ParseAllowedOrigin(s)
		if !ok {
			continue
		}
		if sch, host, _ := strings.Cut(o, "://"); strings.HasPrefix(host, "*.") {
			f.wildSchemes = append(f.wildSchemes, sch+"://")
			f.wildSuffix = append(f.wildSuffix, host[1:])
		} else {
			f.Origins = append(f.Origins, o)
		}
	}
	if len(origins) > 0 && len(f.Origins) == 0 && len(f.wildSuffix) == 0 {
		f.Origins = []string{"\x00"} // matches no Origin header
	}
	if len(groups) > 0 {
		f.RouteGroups = slices.Clone(groups)
	}
	return f
}
