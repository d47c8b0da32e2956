package handlers

import (
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
)

// UsageRecorder counts one authenticated data request (admin.UsageRecorder).
type UsageRecorder interface {
	Record(credential uuid.UUID, status int, elapsed time.Duration, at time.Time)
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
		s.deps.Usage.Record(caller.CredentialID, c.Writer.Status(), s.deps.Now().Sub(start), start)
	}
	s.quotaDone(c)
}
