package handlers

import (
	"context"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/syncgate/syncgate/handlers/adminapi"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/events"
)

// maxBodyBytes is DECISIONS.md's request body limit.
const maxBodyBytes = 64 << 10

// maxItemsBodyBytes bounds a body carrying up to events.MaxItemsPerBatch
// watch items (10 000 long Byron addresses fit).
const maxItemsBodyBytes = 8 << 20

// bigBodyRoutes take a batch of watch items.
var bigBodyRoutes = map[string]bool{
	"/v1/webhooks":                  true,
	"/v1/webhooks/:id/items":        true,
	"/v1/webhooks/:id/items/delete": true,
	"/v1/admin/users/:id/webhooks":  true,
}

// longPollRoutes may wait for news before answering (events.MaxWait).
var longPollRoutes = map[string]bool{"/v1/webhooks/:id/events": true}

// usageExportRoute streams up to 13 months of a partner's usage.
const usageExportRoute = "/v1/admin/usage/export"

// withRequestID takes a sane X-Request-Id from the client (so a caller can
// correlate) or makes one, and echoes it on every response.
func withRequestID(log *slog.Logger) gin.HandlerFunc {
	return func(c *gin.Context) {
		id := c.GetHeader("X-Request-Id")
		if !validRequestID(id) {
			id = uuid.NewString()
		}
		c.Set(httpx.CtxRequestID, id)
		c.Set(httpx.CtxLogger, log)
		c.Header("X-Request-Id", id)
		c.Next()
	}
}

func validRequestID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// recoverPanics turns a panic into a JSON 500 without internals; the stack
// goes to the log with the request id.
func recoverPanics() gin.HandlerFunc {
	return func(c *gin.Context) {
		defer func() {
			if r := recover(); r != nil {
				if r == http.ErrAbortHandler {
					panic(r)
				}
				httpx.Logger(c).Error("panic", slog.String("request_id", httpx.RequestID(c)),
					slog.Any("panic", r), slog.String("stack", string(debug.Stack())))
				if !c.Writer.Written() {
					httpx.WriteError(c, httpx.ErrInternal)
				}
				c.Abort()
			}
		}()
		c.Next()
	}
}

// accessLog writes one line per request. It never logs any part of a
// presented key: only the id of the credential or admin key it
// authenticated as, once authentication succeeded.
func accessLog() gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		route := routeLabel(c)
		// The record is built here rather than by Logger.Info, which takes
		// the caller's program counter (runtime.Callers) for every line:
		// 1 % of the server at tens of thousands of requests a second.
		h := httpx.Logger(c).Handler()
		ctx := c.Request.Context()
		if !h.Enabled(ctx, slog.LevelInfo) {
			return
		}
		r := slog.NewRecord(time.Now(), slog.LevelInfo, "request", 0)
		r.AddAttrs(
			slog.String("request_id", httpx.RequestID(c)),
			slog.String("method", c.Request.Method),
			slog.String("route", route),
			slog.Int("status", c.Writer.Status()),
			slog.Duration("duration", time.Since(start)),
		)
		if a, ok := c.Get(httpx.CtxAuthLog); ok {
			r.AddAttrs(a.(slog.Attr))
		}
		_ = h.Handle(ctx, r)
	}
}

// withDeadline bounds the whole request so that nothing holds a connection
// past the point where the client has given up. A long-poll route
// (longPollRoutes) gets its longest wait on top, the billing export its
// longest stream.
func withDeadline(d time.Duration) gin.HandlerFunc {
	return func(c *gin.Context) {
		limit := d
		if longPollRoutes[c.FullPath()] {
			limit += events.MaxWait
		}
		if c.FullPath() == usageExportRoute {
			limit += adminapi.MaxExportDuration
		}
		ctx, cancel := context.WithTimeout(c.Request.Context(), limit)
		defer cancel()
		c.Request = c.Request.WithContext(ctx)
		c.Next()
	}
}

// limitBody caps request bodies; decodeJSON turns the overflow into 413.
// Routes that take a batch of watch items (bigBodyRoutes) may send more.
func limitBody() gin.HandlerFunc {
	return func(c *gin.Context) {
		if c.Request.Body != nil {
			limit := int64(maxBodyBytes)
			if bigBodyRoutes[c.FullPath()] {
				limit = maxItemsBodyBytes
			}
			c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, limit)
		}
		c.Next()
	}
}
