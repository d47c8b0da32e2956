package delivery

import (
	"testing"
	"time"
)

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
