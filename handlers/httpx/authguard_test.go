package httpx

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
)

// The guard's blocks are forgotten once expired, even for IPs that never
// come back, so that requests skip it again (no client IP, no mutex).
func TestAuthGuardForgetsExpiredBlocks(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	g := NewAuthGuard(1, nil, func() time.Time { return now })
	for range 3 {
		g.Failed(t.Context(), "192.0.2.7")
	}
	if g.nblocked.Load() != 1 {
		t.Fatalf("%d IPs blocked after the budget was spent, want 1", g.nblocked.Load())
	}
	other, _ := gin.CreateTestContext(httptest.NewRecorder())
	other.Request = httptest.NewRequest(http.MethodGet, "/v1/epochs/latest", nil)
	other.Request.RemoteAddr = "198.51.100.1:1234"
	if g.Refused(other) {
		t.Fatal("another IP was refused")
	}
	blocked, _ := gin.CreateTestContext(httptest.NewRecorder())
	blocked.Request = httptest.NewRequest(http.MethodGet, "/v1/epochs/latest", nil)
	blocked.Request.RemoteAddr = "192.0.2.7:1234"
	if !g.Refused(blocked) {
		t.Fatal("the blocked IP was let through")
	}
	now = now.Add(5 * time.Minute)
	if g.Refused(other) || g.nblocked.Load() != 0 {
		t.Fatalf("after the block expired: %d IPs still counted as blocked", g.nblocked.Load())
	}
}
