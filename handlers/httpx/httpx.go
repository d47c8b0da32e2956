// Package httpx is the HTTP plumbing the data API (package handlers) and
// the admin API (package adminapi) share: the response envelope and its
// writers, every message a client can read and the one function that
// writes an error (Fail, errors.go), query and body parameters, the
// context keys middleware sets, rate-limit headers and the
// failed-authentication guard. It knows neither API's handlers.
package httpx

import (
	"errors"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/internal/answer"
)

// Context keys set by middleware.
const (
	CtxRequestID = "sg.request_id"
	CtxLogger    = "sg.logger"
	CtxAuthLog   = "sg.auth_log" // slog.Attr naming the authenticated credential or admin key
)

// H adapts an error-returning handler: the error becomes the envelope.
func H(fn func(*gin.Context) error) gin.HandlerFunc {
	return func(c *gin.Context) {
		if err := fn(c); err != nil {
			Fail(c, err)
		}
	}
}

func RequestID(c *gin.Context) string { return c.GetString(CtxRequestID) }

func Logger(c *gin.Context) *slog.Logger {
	if l, ok := c.Get(CtxLogger); ok {
		return l.(*slog.Logger)
	}
	return slog.Default()
}

// BearerKey extracts the key from "Authorization: Bearer <key>".
func BearerKey(c *gin.Context) (string, bool) {
	h := c.GetHeader("Authorization")
	scheme, key, found := strings.Cut(h, " ")
	if !found || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	key = strings.TrimSpace(key)
	return key, key != ""
}

// AuthError maps authentication failures to DECISIONS.md messages.
func AuthError(err error) error {
	switch {
	case errors.Is(err, auth.ErrInvalidKey):
		return ErrInvalidKey
	case errors.Is(err, auth.ErrKeyRevoked):
		return ErrKeyRevoked
	case errors.Is(err, auth.ErrKeyExpired):
		return ErrKeyExpired
	case errors.Is(err, auth.ErrUserInactive):
		return ErrUserInactive
	case errors.Is(err, auth.ErrUnavailable):
		return ErrAdminUnavailable
	}
	return err
}

// SetRateLimitHeaders writes the X-RateLimit-* headers of d, and
// Retry-After when d refuses the request.
func SetRateLimitHeaders(c *gin.Context, d answer.Decision) {
	c.Header("X-RateLimit-Limit", strconv.Itoa(d.Limit))
	c.Header("X-RateLimit-Remaining", strconv.Itoa(d.Remaining))
	c.Header("X-RateLimit-Reset", strconv.Itoa(CeilSeconds(d.ResetAfter)))
	if !d.Allowed {
		c.Header("Retry-After", strconv.Itoa(max(1, CeilSeconds(d.RetryAfter))))
	}
}

func CeilSeconds(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	return int(math.Ceil(d.Seconds()))
}

// WriteRateLimit sets the X-RateLimit-* headers of decision d and, when d
// refuses the request, answers 429 with Retry-After and the details the
// data API's 429 carries (ErrRateLimitedPolicy). It reports whether the
// request may go on.
func WriteRateLimit(c *gin.Context, d answer.Decision) bool {
	SetRateLimitHeaders(c, d)
	if !d.Allowed {
		Fail(c, ErrRateLimitedPolicy(d.Limit))
		return false
	}
	return true
}
