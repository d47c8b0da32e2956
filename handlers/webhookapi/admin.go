package webhookapi

import (
	"encoding/json"
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/events"
)

// defaultDisableReason is recorded when the admin gives none.
const defaultDisableReason = "Disabled by the partner"

// adminScope checks that the calling admin key's partner owns user :id
// (404 User account not found otherwise, as the admin user routes) and
// returns the owner scope (every network) and the audit writer.
func (a *API) adminScope(c *gin.Context) (events.Owner, events.Audit, error) {
	userID, err := uuid.Parse(c.Param("id"))
	if err != nil {
		return events.Owner{}, nil, httpx.ErrUserNotFound
	}
	ad := a.deps.AdminOf(c)
	if err := a.deps.Admin.CheckUserOwned(c.Request.Context(), ad, userID); err != nil {
		return events.Owner{}, nil, a.storeError(err)
	}
	return events.Owner{UserID: userID}, a.deps.Admin.WebhookAudit(ad), nil
}

// adminHook: webhook :webhookId of user :id (any network), after the
// tenancy check; every action is audited.
func (a *API) adminHook(c *gin.Context) (hook, error) {
	o, audit, err := a.adminScope(c)
	if err != nil {
		return hook{}, err
	}
	id, err := webhookID(c, "webhookId")
	return hook{owner: o, id: id, audit: audit}, err
}

// AdminCreate: POST /v1/admin/users/:id/webhooks, the data route's
// creation for user :id on the body's network (required: a user's
// webhook belongs to one network, which the data route takes from the
// key). Audited as webhook.created.
func (a *API) AdminCreate(c *gin.Context) error {
	o, audit, err := a.adminScope(c)
	if err != nil {
		return err
	}
	obj, err := httpx.DecodeJSONObject(c)
	if err != nil {
		return err
	}
	if err := httpx.OnlyFields(obj, append([]string{"network"}, createFields...)...); err != nil {
		return err
	}
	net, db, err := a.networkField(obj["network"])
	if err != nil {
		return err
	}
	o.Network = net.Name
	return a.create(c, obj, newHook{owner: o, mainnet: net.Mainnet, chainDB: func() (*dbsync.DB, error) { return db, nil }, audit: audit})
}

// networkField reads the admin creation's network: the name of a network
// this server serves (absent, null or any other value: 400 naming them).
func (a *API) networkField(raw json.RawMessage) (cardano.Network, *dbsync.DB, error) {
	var name string
	if raw != nil && json.Unmarshal(raw, &name) == nil {
		if n, known := cardano.NetworkByName(name); known {
			if db, served := a.deps.Networks[n.Name]; served {
				return n, db, nil
			}
		}
	}
	var served []string
	for _, n := range cardano.Networks {
		if _, ok := a.deps.Networks[n.Name]; ok {
			served = append(served, n.Name)
		}
	}
	return cardano.Network{}, nil, httpx.ErrWebhookNetwork(served)
}

// AdminList: GET /v1/admin/users/:id/webhooks (every network).
func (a *API) AdminList(c *gin.Context) error {
	o, audit, err := a.adminScope(c)
	if err != nil {
		return err
	}
	hooks, err := a.deps.Events.Webhooks(c.Request.Context(), o, audit)
	if err != nil {
		return a.storeError(err)
	}
	a.writeList(c, hooks)
	return nil
}

// AdminGet: GET /v1/admin/users/:id/webhooks/:webhook_id.
func (a *API) AdminGet(c *gin.Context) error {
	o, audit, err := a.adminScope(c)
	if err != nil {
		return err
	}
	id, err := webhookID(c, "webhookId")
	if err != nil {
		return err
	}
	w, err := a.deps.Events.Webhook(c.Request.Context(), o, id, audit)
	if err != nil {
		return a.storeError(err)
	}
	httpx.OK(c, a.view(w))
	return nil
}

// AdminDisable: POST /v1/admin/users/:id/webhooks/:webhook_id/disable
// {reason?}. The receiver learns it from a webhook.disabled event.
func (a *API) AdminDisable(c *gin.Context) error {
	o, audit, err := a.adminScope(c)
	if err != nil {
		return err
	}
	id, err := webhookID(c, "webhookId")
	if err != nil {
		return err
	}
	reason := defaultDisableReason
	if c.Request.ContentLength != 0 {
		obj, err := httpx.DecodeJSONObject(c)
		if err != nil {
			return err
		}
		if err := httpx.OnlyFields(obj, "reason"); err != nil {
			return err
		}
		if raw, ok := obj["reason"]; ok && !isNull(raw) {
			if reason, err = textField(raw, httpx.ErrWebhookReason); err != nil {
				return err
			}
			if reason == "" {
				return httpx.ErrWebhookReason
			}
		}
	}
	w, err := a.deps.Events.DisableWebhook(c.Request.Context(), o, id, reason, audit)
	if err != nil {
		return a.storeError(err)
	}
	httpx.OKMessage(c, http.StatusOK, a.view(w), "Webhook disabled successfully")
	return nil
}

// AdminDelete: DELETE /v1/admin/users/:id/webhooks/:webhook_id.
func (a *API) AdminDelete(c *gin.Context) error {
	o, audit, err := a.adminScope(c)
	if err != nil {
		return err
	}
	id, err := webhookID(c, "webhookId")
	if err != nil {
		return err
	}
	if err := a.deps.Events.DeleteWebhook(c.Request.Context(), o, id, audit); err != nil {
		return a.storeError(err)
	}
	httpx.OKMessage(c, http.StatusOK, deletedJSON{ID: id, Deleted: true}, "Webhook deleted successfully")
	return nil
}

// AdminDeliveries: GET /v1/admin/users/:id/webhooks/:webhookId/deliveries
// (as the user's route).
func (a *API) AdminDeliveries(c *gin.Context) error { return a.deliveries(c, a.adminHook) }

// AdminRedeliver: POST …/:webhookId/events/:eventId/redeliver.
func (a *API) AdminRedeliver(c *gin.Context) error { return a.redeliver(c, a.adminHook) }

// AdminTest: POST …/:webhookId/test.
func (a *API) AdminTest(c *gin.Context) error { return a.test(c, a.adminHook) }

// AdminRollSecret: POST …/:webhookId/secret/roll; the new secret is in
// this answer only (the audit entry holds the overlap, never the secret).
func (a *API) AdminRollSecret(c *gin.Context) error { return a.rollSecret(c, a.adminHook) }

// AdminItems: GET …/:webhookId/items?cursor&limit.
func (a *API) AdminItems(c *gin.Context) error { return a.listItems(c, a.adminHook) }
