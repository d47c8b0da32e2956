package delivery

import (
	"net/netip"
	"testing"
	"time"
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

func TestRefuseForbiddenAtConnect(t *testing.T) {
	if err := refuseForbidden("tcp", "127.0.0.1:443", nil); err == nil {
		t.Error("loopback allowed")
	}
	if err := refuseForbidden("tcp", "[2606:4700::1111]:443", nil); err != nil {
		t.Error(err)
	}
	if err := refuseForbidden("tcp", "not an address", nil); err == nil {
		t.Error("an unparsable address allowed")
	}
}

// The default retries back off exponentially to an hour and outlast the
// failure window, so a webhook is disabled before its events give up.
func TestDefaultRetryOutlastsFailureWindow(t *testing.T) {
	p := defaultRetry
	if p.delay(1) != 5*time.Second || p.delay(2) != 10*time.Second || p.delay(3) != 20*time.Second || p.delay(50) != time.Hour {
		t.Fatalf("delays %v %v %v %v", p.delay(1), p.delay(2), p.delay(3), p.delay(50))
	}
	if p.span() < FailureWindow+2*time.Hour {
		t.Fatalf("retries last %v", p.span())
	}
}

func TestSignatureFormat(t *testing.T) {
	key := make([]byte, 32)
	// Reference value computed independently (Python hmac) for this input.
	got := signature([][]byte{key}, "msg_1", 1700000000, []byte(`{"a":1}`))
	if got != "v1,HA9nSvEEuynF+mEPWgOAUWbrVA21G6kMzfOt+yEvB3I=" {
		t.Fatalf("signature %q", got)
	}
	two := signature([][]byte{key, {1}}, "msg_1", 1700000000, []byte(`{"a":1}`))
	if two[:len(got)] != got || two[len(got)] != ' ' {
		t.Fatalf("two signatures %q", two)
	}
}
