package httpx

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/internal/answer"
)

// Failed-authentication limiter (AUTH_FAILURES_PER_MINUTE, docs/DECISIONS.md
// "Authentication under attack"). Each failed authentication (an unknown
// or malformed key) of a client IP (TRUSTED_PROXIES decides which) counts
// against a GCRA budget shared by all instances through Redis, per
// instance while Redis is unavailable. Once the budget is spent, the
// instance that saw it refuses every request of that IP that needs a key
// with 429 and Retry-After, from memory, before looking at the key: a
// flood costs neither Redis nor PostgreSQL. Successful authentications
// cost nothing here.

var ErrAuthFailures = NewAPIError(http.StatusTooManyRequests, "Too many failed authentication attempts")

// blockedSweepAt bounds the map of blocked IPs: past it, expired blocks
// are dropped on the next insert.
const blockedSweepAt = 10_000

type AuthGuard struct {
	perMinute int // 0: off
	limiter   *answer.Limiter
	now       func() time.Time

	mu      sync.Mutex
	blocked map[string]time.Time // client IP → refused until
	// nblocked is len(blocked), read without the lock: while no IP is
	// blocked (nearly always), a request costs neither the shared mutex nor
	// working out its client IP.
	nblocked atomic.Int32
	sweptAt  time.Time // last drop of expired blocks (under mu)
}

func NewAuthGuard(perMinute int, limiter *answer.Limiter, now func() time.Time) *AuthGuard {
	if limiter == nil {
		limiter = answer.NewLocalLimiter(now)
	}
	return &AuthGuard{perMinute: perMinute, limiter: limiter, now: now, blocked: map[string]time.Time{}}
}

// Refused answers 429 when the client's IP is blocked and reports whether
// it did.
func (g *AuthGuard) Refused(c *gin.Context) bool {
	if g.perMinute <= 0 || g.nblocked.Load() == 0 {
		return false
	}
	ip := c.ClientIP()
	now := g.now()
	g.mu.Lock()
	if now.After(g.sweptAt.Add(time.Second)) {
		// Blocks of IPs that never came back would keep the fast path
		// above off for good: drop the expired ones now and then.
		g.sweptAt = now
		g.dropExpired(now)
	}
	until, ok := g.blocked[ip]
	g.mu.Unlock()
	left := until.Sub(now)
	if !ok || left <= 0 {
		return false
	}
	c.Header("Retry-After", strconv.Itoa(max(1, CeilSeconds(left))))
	Fail(c, ErrAuthFailures)
	return true
}

// Failed counts one failed authentication of ip; when that spends the
// budget, ip is blocked for the limiter's retry-after and the wait is
// returned.
func (g *AuthGuard) Failed(ctx context.Context, ip string) (time.Duration, bool) {
	if g.perMinute <= 0 {
		return 0, false
	}
	d := g.limiter.Allow(ctx, "authfail:"+ip, g.perMinute, "")
	if d.Allowed {
		return 0, false
	}
	wait := max(d.RetryAfter, time.Second)
	now := g.now()
	g.mu.Lock()
	if len(g.blocked) >= blockedSweepAt {
		g.dropExpired(now)
	}
	g.blocked[ip] = now.Add(wait)
	g.nblocked.Store(int32(len(g.blocked)))
	g.mu.Unlock()
	return wait, true
}

// dropExpired forgets the blocks that ended by now; g.mu is held.
func (g *AuthGuard) dropExpired(now time.Time) {
	for k, t := range g.blocked {
		if !t.After(now) {
			delete(g.blocked, k)
		}
	}
	g.nblocked.Store(int32(len(g.blocked)))
}

// FailAuth answers an authentication failure: an unknown or malformed key
// counts against the client's budget and, once it is spent, gets 429
// instead of 401. Other failures (revoked, expired, suspended: keys that
// exist) are answered as they are.
func (g *AuthGuard) FailAuth(c *gin.Context, err error) {
	if errors.Is(err, auth.ErrInvalidKey) || errors.Is(err, ErrInvalidKey) {
		if wait, limited := g.Failed(c.Request.Context(), c.ClientIP()); limited {
			c.Header("Retry-After", strconv.Itoa(max(1, CeilSeconds(wait))))
			Fail(c, ErrAuthFailures)
			return
		}
	}
	Fail(c, AuthError(err))
}
