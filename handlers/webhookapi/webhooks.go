package webhookapi

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/events"
)

// Create: POST /v1/webhooks. The webhook starts at the current db-sync
// tip (its depth applied), so its first events are about new blocks.
func (a *API) Create(c *gin.Context) error {
	o, net, err := a.owner(c)
	if err != nil {
		return err
	}
	obj, err := httpx.DecodeJSONObject(c)
	if err != nil {
		return err
	}
	if err := httpx.OnlyFields(obj, "url", "description", "depth", "event_types", "items"); err != nil {
		return err
	}
	in := events.NewWebhook{Owner: o, Limit: a.deps.Config.WebhooksPerUser}
	if raw, ok := obj["url"]; ok {
		if in.URL, err = a.urlField(raw); err != nil {
			return err
		}
	}
	if raw, ok := obj["description"]; ok && !isNull(raw) {
		if in.Description, err = textField(raw, httpx.ErrWebhookDescription); err != nil {
			return err
		}
	}
	if raw, ok := obj["depth"]; ok && !isNull(raw) {
		if in.Depth, err = depthField(raw); err != nil {
			return err
		}
	}
	if raw, ok := obj["event_types"]; ok && !isNull(raw) {
		if in.EventTypes, err = eventTypesField(raw); err != nil {
			return err
		}
	}
	if raw, ok := obj["items"]; ok && !isNull(raw) {
		if in.Items, err = itemsField(raw, net.Mainnet, false); err != nil {
			return err
		}
	}
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	tip, err := db.Tip(c.Request.Context())
	if err != nil {
		return err
	}
	if tip.BlockNo != nil {
		in.StartHeight = max(*tip.BlockNo-int64(in.Depth), 0)
	}
	w, secret, err := a.deps.Events.CreateWebhook(c.Request.Context(), in)
	if err != nil {
		return a.storeError(err)
	}
	v := a.view(w)
	v.Secret = secret
	httpx.OKMessage(c, http.StatusCreated, v, "Webhook created successfully; the secret is shown only now")
	return nil
}

// List: GET /v1/webhooks, the user's webhooks on the key's network.
func (a *API) List(c *gin.Context) error {
	o, _, err := a.owner(c)
	if err != nil {
		return err
	}
	hooks, err := a.deps.Events.Webhooks(c.Request.Context(), o, nil)
	if err != nil {
		return a.storeError(err)
	}
	a.writeList(c, hooks)
	return nil
}

func (a *API) writeList(c *gin.Context, hooks []events.Webhook) {
	out := make([]webhookJSON, len(hooks))
	for i, w := range hooks {
		out[i] = a.view(w)
	}
	limit := max(a.deps.Config.WebhooksPerUser, len(out))
	httpx.OKPage(c, out, httpx.NewPagination(limit, 0, len(out), int64(len(out))))
}

// Get: GET /v1/webhooks/:id.
func (a *API) Get(c *gin.Context) error {
	o, _, err := a.owner(c)
	if err != nil {
		return err
	}
	id, err := webhookID(c, "id")
	if err != nil {
		return err
	}
	w, err := a.deps.Events.Webhook(c.Request.Context(), o, id, nil)
	if err != nil {
		return a.storeError(err)
	}
	httpx.OK(c, a.view(w))
	return nil
}

// Update: PATCH /v1/webhooks/:id. Only supplied fields change; url null
// makes the webhook pull only; status "active" re-enables it.
func (a *API) Update(c *gin.Context) error {
	o, _, err := a.owner(c)
	if err != nil {
		return err
	}
	id, err := webhookID(c, "id")
	if err != nil {
		return err
	}
	obj, err := httpx.DecodeJSONObject(c)
	if err != nil {
		return err
	}
	if err := httpx.OnlyFields(obj, "url", "description", "depth", "event_types", "status"); err != nil {
		return err
	}
	if len(obj) == 0 {
		return httpx.ErrWebhookPatchNone
	}
	var p events.WebhookPatch
	if raw, ok := obj["url"]; ok {
		p.SetURL = true
		if p.URL, err = a.urlField(raw); err != nil {
			return err
		}
	}
	if raw, ok := obj["description"]; ok {
		d, err := textField(raw, httpx.ErrWebhookDescription)
		if err != nil {
			return err
		}
		p.Description = &d
	}
	if raw, ok := obj["depth"]; ok {
		d, err := depthField(raw)
		if err != nil {
			return err
		}
		p.Depth = &d
	}
	if raw, ok := obj["event_types"]; ok {
		if p.EventTypes, err = eventTypesField(raw); err != nil {
			return err
		}
	}
	if raw, ok := obj["status"]; ok {
		var s string
		if json.Unmarshal(raw, &s) != nil || s != events.StatusActive {
			return httpx.ErrWebhookStatus
		}
		p.Enable = true
	}
	w, err := a.deps.Events.UpdateWebhook(c.Request.Context(), o, id, p)
	if err != nil {
		return a.storeError(err)
	}
	httpx.OKMessage(c, http.StatusOK, a.view(w), "Webhook updated successfully")
	return nil
}

// deletedJSON answers a deletion.
type deletedJSON struct {
	ID      uuid.UUID `json:"id"`
	Deleted bool      `json:"deleted"`
}

// Delete: DELETE /v1/webhooks/:id (soft: the webhook and its feed go away).
func (a *API) Delete(c *gin.Context) error {
	o, _, err := a.owner(c)
	if err != nil {
		return err
	}
	id, err := webhookID(c, "id")
	if err != nil {
		return err
	}
	if err := a.deps.Events.DeleteWebhook(c.Request.Context(), o, id, nil); err != nil {
		return a.storeError(err)
	}
	httpx.OKMessage(c, http.StatusOK, deletedJSON{ID: id, Deleted: true}, "Webhook deleted successfully")
	return nil
}

// itemsCountJSON answers an add or a removal.
type itemsCountJSON struct {
	Added   *int `json:"added,omitempty"`
	Removed *int `json:"removed,omitempty"`
	Items   int  `json:"items"`
}

// AddItems: POST /v1/webhooks/:id/items {items}.
func (a *API) AddItems(c *gin.Context) error { return a.changeItems(c, true) }

// RemoveItems: POST /v1/webhooks/:id/items/delete {items}.
func (a *API) RemoveItems(c *gin.Context) error { return a.changeItems(c, false) }

func (a *API) changeItems(c *gin.Context, add bool) error {
	o, net, err := a.owner(c)
	if err != nil {
		return err
	}
	id, err := webhookID(c, "id")
	if err != nil {
		return err
	}
	obj, err := httpx.DecodeJSONObject(c)
	if err != nil {
		return err
	}
	if err := httpx.OnlyFields(obj, "items"); err != nil {
		return err
	}
	raw, ok := obj["items"]
	if !ok {
		return httpx.ErrItemsField(events.MaxItemsPerBatch, true)
	}
	items, err := itemsField(raw, net.Mainnet, true)
	if err != nil {
		return err
	}
	var out itemsCountJSON
	var n int
	if add {
		n, out.Items, err = a.deps.Events.AddItems(c.Request.Context(), o, id, items)
		out.Added = &n
	} else {
		n, out.Items, err = a.deps.Events.RemoveItems(c.Request.Context(), o, id, items)
		out.Removed = &n
	}
	if err != nil {
		return a.storeError(err)
	}
	httpx.OK(c, out)
	return nil
}

// itemsPageJSON is a page of a watch set.
type itemsPageJSON struct {
	Items      []events.Item `json:"items"`
	NextCursor *string       `json:"next_cursor"`
}

// ListItems: GET /v1/webhooks/:id/items?cursor&limit (1..1000, default 100).
func (a *API) ListItems(c *gin.Context) error { return a.listItems(c, a.userHook) }

func (a *API) listItems(c *gin.Context, scope hookScope) error {
	h, err := scope(c)
	if err != nil {
		return err
	}
	limit, err := httpx.QueryInt(c, "limit", 100, 1, 1000)
	if err != nil {
		return err
	}
	cursor := c.Query("cursor")
	if _, err := events.DecodeItemCursor(cursor); cursor != "" && err != nil {
		return httpx.ErrWebhookCursor
	}
	items, next, err := a.deps.Events.Items(c.Request.Context(), h.owner, h.id, cursor, limit, h.audit)
	if err != nil {
		return a.storeError(err)
	}
	out := itemsPageJSON{Items: items}
	if next != "" {
		out.NextCursor = &next
	}
	httpx.OK(c, out)
	return nil
}

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

// secretJSON is a new signing secret.
type secretJSON struct {
	Secret             string  `json:"secret"`
	SecretRollingUntil *string `json:"secret_rolling_until"`
}

// RollSecret: POST /v1/webhooks/:id/secret/roll {overlap_seconds (0..86400,
// default 3600)}; an empty body takes the default.
func (a *API) RollSecret(c *gin.Context) error { return a.rollSecret(c, a.userHook) }

func (a *API) rollSecret(c *gin.Context, scope hookScope) error {
	h, err := scope(c)
	if err != nil {
		return err
	}
	overlap := events.DefaultOverlap
	if c.Request.ContentLength != 0 {
		obj, err := httpx.DecodeJSONObject(c)
		if err != nil {
			return err
		}
		if err := httpx.OnlyFields(obj, "overlap_seconds"); err != nil {
			return err
		}
		if raw, ok := obj["overlap_seconds"]; ok && !isNull(raw) {
			n, err := jsonInt(raw)
			if err != nil || n < 0 || n > int(events.MaxOverlap/time.Second) {
				return httpx.ErrWebhookOverlap
			}
			overlap = time.Duration(n) * time.Second
		}
	}
	w, secret, err := a.deps.Events.RollSecret(c.Request.Context(), h.owner, h.id, overlap, h.audit)
	if err != nil {
		return a.storeError(err)
	}
	httpx.OKMessage(c, http.StatusOK, secretJSON{Secret: secret, SecretRollingUntil: isoTimePtr(w.SecretRollingUntil(a.deps.Now()))},
		"Secret rolled; the new secret is shown only now")
	return nil
}
