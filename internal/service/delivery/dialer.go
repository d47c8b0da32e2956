package delivery

import (
	"errors"
	"fmt"
	"net/netip"
	"syscall"
)

// errForbiddenAddress is the refusal of a connection to an address a
// webhook may not reach.
var errForbiddenAddress = errors.New("address not allowed for webhooks (private, loopback, link-local or metadata)")

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

// refuseForbidden is a net.Dialer Control function: it runs once the name
// is resolved, on the address about to be connected to, so a DNS answer
// that changes after any earlier check cannot lead a webhook inside.
func refuseForbidden(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: %s", errForbiddenAddress, address)
	}
	if ForbiddenIP(ap.Addr()) {
		return fmt.Errorf("%w: %s", errForbiddenAddress, ap.Addr())
	}
	return nil
}
