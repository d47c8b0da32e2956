package webhookapi

import (
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/syncgate/syncgate/handlers/httpx"
)

// Deliveries: GET /v1/webhooks/:id/deliveries?limit(1..100, 20)&offset,
// newest first.
func (a *API) Deliveries(c *gin.Context) error { return a.deliveries(c, a.userHook) }

func (a *API) deliveries(c *gin.Context, scope hookScope) error {
	h, err := scope(c)
	if err != nil {
		return err
	}
	limit, err := httpx.QueryInt(c, "limit", 20, 1, 100)
	if err != nil {
		return err
	}
	offset, err := httpx.QueryOffset(c)
	if err != nil {
		return err
	}
	ds, total, err := a.deps.Events.Deliveries(c.Request.Context(), h.owner, h.id, limit, offset, h.audit)
	if err != nil {
		return a.storeError(err)
	}
	out := make([]deliveryJSON, len(ds))
	for i, d := range ds {
		out[i] = deliveryView(d)
	}
	httpx.OKPage(c, out, httpx.NewPagination(limit, offset, len(out), total))
	return nil
}

// Redeliver: POST /v1/webhooks/:id/events/:eventId/redeliver. The
// delivery becomes pending and is scheduled again.
func (a *API) Redeliver(c *gin.Context) error { return a.redeliver(c, a.userHook) }

func (a *API) redeliver(c *gin.Context, scope hookScope) error {
	h, err := scope(c)
	if err != nil {
		return err
	}
	eventID, err := uuid.Parse(c.Param("eventId"))
	if err != nil {
		return httpx.ErrWebhookEventNotFound
	}
	d, err := a.deps.Events.Redeliver(c.Request.Context(), h.owner, h.id, eventID, h.audit)
	if err != nil {
		return a.storeError(err)
	}
	httpx.OKMessage(c, http.StatusAccepted, deliveryView(d), "Redelivery scheduled")
	return nil
}

// testJSON names the test event.
type testJSON struct {
	EventID uuid.UUID `json:"event_id"`
	Seq     int64     `json:"seq"`
	Pushed  bool      `json:"pushed"`
}

// Test: POST /v1/webhooks/:id/test decides a webhook.test event.
func (a *API) Test(c *gin.Context) error { return a.test(c, a.userHook) }

func (a *API) test(c *gin.Context, scope hookScope) error {
	h, err := scope(c)
	if err != nil {
		return err
	}
	d, err := a.deps.Events.SendTest(c.Request.Context(), h.owner, h.id, h.audit)
	if err != nil {
		return a.storeError(err)
	}
	httpx.OKMessage(c, http.StatusCreated, testJSON{EventID: d.ID, Seq: d.Seq, Pushed: d.Push}, "Test event created")
	return nil
}
