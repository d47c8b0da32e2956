package webhookapi

import (
	"encoding/json"
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/events"
)

// createFields are the body fields of a creation (the admin route takes
// network too).
var createFields = []string{"url", "description", "depth", "event_types", "format", "items"}

// Create: POST /v1/webhooks, on the key's network.
func (a *API) Create(c *gin.Context) error {
	o, net, err := a.owner(c)
	if err != nil {
		return err
	}
	obj, err := httpx.DecodeJSONObject(c)
	if err != nil {
		return err
	}
	if err := httpx.OnlyFields(obj, createFields...); err != nil {
		return err
	}
	return a.create(c, obj, newHook{owner: o, mainnet: net.Mainnet, chainDB: func() (*dbsync.DB, error) { return a.deps.ChainDB(c) }})
}

// newHook is whom a creation is for: the owner (its network set), that
// network's db-sync and, on the admin route, the audit writer.
type newHook struct {
	owner   events.Owner
	mainnet bool
	chainDB func() (*dbsync.DB, error)
	audit   events.Audit
}

// create reads a creation body (its fields already checked by name) and
// creates the webhook. It starts at the current db-sync tip (its depth
// applied), so its first events are about new blocks. The secret is in
// this answer only.
func (a *API) create(c *gin.Context, obj map[string]json.RawMessage, to newHook) error {
	var err error
	in := events.NewWebhook{Owner: to.owner, Limit: a.deps.Config.WebhooksPerUser, Audit: to.audit}
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
	if raw, ok := obj["format"]; ok && !isNull(raw) {
		if in.Format, err = formatField(raw); err != nil {
			return err
		}
	}
	if raw, ok := obj["items"]; ok && !isNull(raw) {
		if in.Items, err = itemsField(raw, to.mainnet, false); err != nil {
			return err
		}
	}
	db, err := to.chainDB()
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
