package events

import (
	"net/netip"
	"testing"
)

func TestForbiddenIP(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1": true, "::1": true, "10.1.2.3": true, "172.16.0.1": true, "192.168.1.1": true,
		"169.254.169.254": true, "fe80::1": true, "0.0.0.0": true, "::": true, "100.64.0.1": true,
		"100.100.100.200": true, "fd00:ec2::254": true, "fc00::1": true, "::ffff:127.0.0.1": true,
		"::ffff:10.0.0.1": true, "64:ff9b::a9fe:a9fe": true, "2002:7f00:1::": true, "224.0.0.1": true,
		"255.255.255.255": true, "168.63.129.16": true, "198.18.0.1": true,
		"93.184.216.34": false, "8.8.8.8": false, "2606:4700::1111": false, "::ffff:8.8.8.8": false,
		"64:ff9b::808:808": false, "100.128.0.1": false,
	} {
		if got := ForbiddenIP(netip.MustParseAddr(addr)); got != want {
			t.Errorf("ForbiddenIP(%s) = %v, want %v", addr, got, want)
		}
	}
	if !ForbiddenIP(netip.Addr{}) {
		t.Error("the zero address is allowed")
	}
}
