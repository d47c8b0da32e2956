package handlers

import (
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/syncgate/syncgate/admin"
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
	if caller, ok := callerOf(c); ok {
		group := s.groups[c.FullPath()]
		if group == "" {
			group = admin.RouteGroupOther
		}
		s.deps.Usage.Record(caller.CredentialID, group, c.Writer.Status(), int64(max(c.Writer.Size(), 0)), s.deps.Now().Sub(start), start)
	}
	s.quotaDone(c)
}
