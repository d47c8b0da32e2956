package events

import (
	"errors"
	"net/netip"
	"net/url"
	"strings"
)

// MaxURLLength bounds a webhook URL (the schema's CHECK).
const MaxURLLength = 2048

// URL errors (CheckURL); the handler turns each into its message.
var (
	ErrURLInvalid  = errors.New("events: not an absolute URL")
	ErrURLScheme   = errors.New("events: URL scheme not allowed")
	ErrURLUserinfo = errors.New("events: URL carries credentials")
	ErrURLPrivate  = errors.New("events: URL names a private address")
	ErrURLTooLong  = errors.New("events: URL too long")
)

// forbidden lists the ranges a webhook URL may not reach unless
// WEBHOOK_ALLOW_PRIVATE, beside what netip classifies (loopback, private,
// link-local, multicast, unspecified).
var forbidden = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),         // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),     // carrier-grade NAT (also Alibaba's metadata)
	netip.MustParsePrefix("192.0.0.0/24"),      // IETF protocol assignments
	netip.MustParsePrefix("198.18.0.0/15"),     // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),       // reserved, broadcast
	netip.MustParsePrefix("168.63.129.16/32"),  // Azure's platform endpoint (metadata)
	netip.MustParsePrefix("100::/64"),          // discard
	netip.MustParsePrefix("2001:db8::/32"),     // documentation
	netip.MustParsePrefix("fd00:ec2::254/128"), // AWS metadata over IPv6 (in fc00::/7 too)
	netip.MustParsePrefix("64:ff9b:1::/48"),    // local NAT64
}

// ForbiddenIP reports whether a webhook may not connect to ip: private,
// loopback, link-local (cloud metadata at 169.254.169.254 included),
// unspecified, multicast, carrier-grade NAT, reserved or metadata
// addresses, and IPv6 forms that embed such an IPv4 address.
func ForbiddenIP(ip netip.Addr) bool {
	if !ip.IsValid() {
		return true
	}
	ip = ip.Unmap()
	if ip.IsLoopback() || ip.IsPrivate() || ip.IsUnspecified() || ip.IsLinkLocalUnicast() ||
		ip.IsLinkLocalMulticast() || ip.IsInterfaceLocalMulticast() || ip.IsMulticast() {
		return true
	}
	for _, p := range forbidden {
		if p.Contains(ip) {
			return true
		}
	}
	if ip.Is6() {
		b := ip.As16()
		// NAT64 (64:ff9b::/96) and 6to4 (2002::/16) carry an IPv4 address
		// a gateway would connect to.
		if nat64.Contains(ip) {
			return ForbiddenIP(netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}))
		}
		if sixToFour.Contains(ip) {
			return ForbiddenIP(netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}))
		}
	}
	return false
}

var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour = netip.MustParsePrefix("2002::/16")
)

// CheckURL validates a webhook URL when it is set: absolute, https (http
// too when allowPrivate), no user information, at most MaxURLLength, and a
// host that is not a literal forbidden IP (unless allowPrivate). Host names
// are checked when they are resolved, at connect time.
func CheckURL(raw string, allowPrivate bool) error {
	if len(raw) > MaxURLLength {
		return ErrURLTooLong
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Opaque != "" {
		return ErrURLInvalid
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
	case "http":
		if !allowPrivate {
			return ErrURLScheme
		}
	default:
		return ErrURLScheme
	}
	if u.User != nil {
		return ErrURLUserinfo
	}
	host := u.Hostname()
	if host == "" {
		return ErrURLInvalid
	}
	if allowPrivate {
		return nil
	}
	if a, err := netip.ParseAddr(host); err == nil && ForbiddenIP(a.WithZone("")) {
		return ErrURLPrivate
	}
	if h := strings.TrimSuffix(strings.ToLower(host), "."); h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return ErrURLPrivate
	}
	return nil
}
