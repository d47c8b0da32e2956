package webhookapi

import (
	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/events"
)

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
