package events

import (
	"errors"
	"net"
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

// metadataIPs are cloud instance-metadata endpoints (the IPv4 one is
// link-local anyway; the AWS IPv6 one sits in fc00::/7, listed for clarity).
var metadataIPs = []netip.Addr{netip.MustParseAddr("169.254.169.254"), netip.MustParseAddr("fd00:ec2::254")}

// sharedSpace is RFC 6598 carrier-grade NAT space, private in practice.
var sharedSpace = netip.MustParsePrefix("100.64.0.0/10")

// ForbiddenIP reports whether a webhook may not reach ip unless private
// targets are allowed (WEBHOOK_ALLOW_PRIVATE): loopback, private, shared
// (CGNAT), link-local, multicast, unspecified and metadata addresses. The
// delivery dialer checks every resolved address with it at connect time.
func ForbiddenIP(ip net.IP) bool {
	a, ok := netip.AddrFromSlice(ip)
	if !ok {
		return true
	}
	a = a.Unmap()
	for _, m := range metadataIPs {
		if a == m {
			return true
		}
	}
	return a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() || sharedSpace.Contains(a)
}

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
	if a, err := netip.ParseAddr(host); err == nil && ForbiddenIP(net.IP(a.WithZone("").AsSlice())) {
		return ErrURLPrivate
	}
	if h := strings.TrimSuffix(strings.ToLower(host), "."); h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return ErrURLPrivate
	}
	return nil
}
