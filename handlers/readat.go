package handlers

import (
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/answer"
)

// Headers naming the tip a chain-data answer was read at.
const (
	headerTipSlot = "X-Chain-Tip-Slot"
	headerTipHash = "X-Chain-Tip-Hash"
)

// readAt is the middleware of every chain-data route (read your writes):
// it pins the request to one db-sync server and hands the answer layer
// the request's min_slot (answer.At). The answer, when it first needs the
// tip (after the handler checked its parameters), waits for that server
// to reach min_slot, and the tip it is read at, the one its cache key
// names too, goes out as X-Chain-Tip-Slot and X-Chain-Tip-Hash. A
// malformed min_slot is refused here, before anything is read.
func (s *Server) readAt(c *gin.Context) {
	minSlot, hasMin, err := httpx.QueryMinSlot(c)
	if err != nil {
		httpx.Fail(c, err)
		return
	}
	db, err := s.chainDB(c)
	if err != nil {
		c.Next() // the handler answers it
		return
	}
	h := c.Writer.Header()
	ctx := s.answers.At(c.Request.Context(), db, answer.ReadAt{MinSlot: minSlot, HasMin: hasMin,
		OnTip: func(t dbsync.Tip) {
			h.Set(headerTipSlot, strconv.FormatInt(t.SlotNo, 10))
			h.Set(headerTipHash, t.BlockHash)
		}})
	c.Request = c.Request.WithContext(ctx)
	c.Next()
}
