package handlers

import (
	"fmt"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/handlers/httpx"
)

// needs refuses a route with 501 when the caller's db-sync layout does
// not keep the facts it reads: a pruned database (tx_out.value prune or
// bootstrap) has deleted spent outputs, so history and old transactions
// would come back short; a database with outputs disabled has none at
// all. Never a silently wrong answer. Placed in the route table after the
// data middleware, so authentication and rate limits come first.
func (s *Server) needs(f dbsync.Facts) gin.HandlerFunc {
	return func(c *gin.Context) {
		db, err := s.chainDB(c)
		if err != nil {
			httpx.Fail(c, err)
			return
		}
		caps, known := db.Capabilities()
		if !known { // not reached yet: its reads answer 503 the same way
			httpx.Fail(c, fmt.Errorf("%w: %s db-sync not ready", dbsync.ErrUnavailable, db.Network.Name))
			return
		}
		if !caps.Keeps(f) {
			if caps.NoOutputs {
				httpx.Fail(c, httpx.ErrNoOutputs)
			} else {
				httpx.Fail(c, httpx.ErrPrunedDatabase)
			}
			return
		}
		c.Next()
	}
}
