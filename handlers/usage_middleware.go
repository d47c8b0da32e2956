package handlers

import (
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/internal/service/quota"
)

// UsageRecorder counts one authenticated data request (admin.UsageRecorder).
type UsageRecorder interface {
	Record(credential uuid.UUID, group string, status int, bytes int64, elapsed time.Duration, at time.Time)
}

// recordUsage counts every authenticated data request for its credential,
// after the rest of the chain (rate limit included, so 429s count) has
// answered. It sits after requireCredential, so unknown keys count for no one.
func (s *Server) recordUsage(c *gin.Context) {
	start := s.deps.Now()
	c.Next()
	if s.deps.Usage == nil {
		s.quotaDone(c)
		return
	}
	caller, ok := callerOf(c)
	if !ok {
		s.quotaDone(c)
		return
	}
	group := s.groups[c.FullPath()]
	if group == "" {
		group = admin.RouteGroupOther
	}
	record := func() {
		s.deps.Usage.Record(caller.CredentialID, group, c.Writer.Status(), int64(max(c.Writer.Size(), 0)), s.deps.Now().Sub(start), start)
	}
	if v, counted := c.Get(ctxQuota); counted {
		// One step with the quota's bookkeeping, so a rebuild never counts
		// the request both in flight and recorded.
		s.deps.Quota.Recorded(v.(quota.Result), record)
		return
	}
	record()
}
