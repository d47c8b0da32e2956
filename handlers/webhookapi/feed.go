package webhookapi

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/events"
)

// feedJSON is a page of the event feed: the bodies exactly as pushed, and
// the after to ask with next.
type feedJSON struct {
	Events    []json.RawMessage `json:"events"`
	NextAfter int64             `json:"next_after"`
}

// Events: GET /v1/webhooks/:id/events?after&limit(1..1000, 100)&wait(0..30 s).
func (a *API) Events(c *gin.Context) error {
	o, _, err := a.owner(c)
	if err != nil {
		return err
	}
	id, err := webhookID(c, "id")
	if err != nil {
		return err
	}
	var after int64
	if raw, ok := c.GetQuery("after"); ok {
		if after, err = strconv.ParseInt(strings.TrimSpace(raw), 10, 64); err != nil || after < 0 {
			return httpx.ErrWebhookAfter
		}
	}
	limit, err := httpx.QueryInt(c, "limit", 100, 1, events.MaxFeedLimit)
	if err != nil {
		return err
	}
	wait, err := httpx.QueryInt(c, "wait", 0, 0, int(events.MaxWait/time.Second))
	if err != nil {
		return err
	}
	bodies, err := a.deps.Events.Events(c.Request.Context(), o, id, after, limit, time.Duration(wait)*time.Second)
	if err != nil {
		return a.storeError(err)
	}
	out := feedJSON{Events: bodies, NextAfter: after}
	if out.Events == nil {
		out.Events = []json.RawMessage{}
	}
	if n := len(bodies); n > 0 {
		var last struct {
			Seq int64 `json:"seq"`
		}
		if err := json.Unmarshal(bodies[n-1], &last); err != nil {
			return err
		}
		out.NextAfter = last.Seq
	}
	httpx.OK(c, out)
	return nil
}
