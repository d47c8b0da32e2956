package answer

import (
	"time"

	"github.com/syncgate/syncgate/cache"
)

// The HTTP layer hands the shared Redis client to New, pings it for
// /v1/health and rate-limits requests with the cache package's limiters.
// It names those types through here, so that no HTTP package imports the
// cache package and every cache policy stays in this one.
type (
	// Redis is the shared Redis client (cache.Client).
	Redis = cache.Client
	// Limiter is a per-key GCRA rate limiter (cache.Limiter).
	Limiter = cache.Limiter
	// Decision is a Limiter's answer for one request (cache.Decision).
	Decision = cache.Decision
)

// NewLocalLimiter is a limiter of this instance alone (no Redis).
func NewLocalLimiter(now func() time.Time) *Limiter { return cache.NewLimiter(nil, now) }
