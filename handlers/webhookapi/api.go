// Package webhookapi is the HTTP side of chain events: the data API's
// /v1/webhooks routes (a data key manages its user's webhooks on the key's
// network) and the admin API's /v1/admin/users/:id/webhooks routes. Each
// handler parses, calls the events store and writes the envelope; the
// route table (handlers/routes.go) puts authentication in front.
package webhookapi

import (
	"errors"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/events"
)

// Deps is what the webhook handlers need.
type Deps struct {
	Config config.Config
	// Events is the store; nil (or no WEBHOOK_SECRET_KEY) answers 503.
	Events *events.Store
	// Admin checks tenancy and writes the admin routes' audit entries.
	Admin *admin.Store
	// AdminReady: false while the admin schema is not migrated (503).
	AdminReady func() bool
	// Caller is the authenticated data caller (handlers' data middleware).
	Caller func(*gin.Context) (auth.Caller, bool)
	// ChainDB is the caller's network's db-sync (the tip at creation).
	ChainDB func(*gin.Context) (*dbsync.DB, error)
	// Networks are the served networks' db-syncs by name (the admin
	// creation names its network).
	Networks map[string]*dbsync.DB
	// AdminOf is the authenticated admin key (adminapi.RequireAdmin).
	AdminOf func(*gin.Context) admin.Admin
	Now     func() time.Time
}

// API holds the webhook handlers.
type API struct{ deps Deps }

// New builds the handlers.
func New(deps Deps) *API {
	if deps.Now == nil {
		deps.Now = time.Now
	}
	return &API{deps: deps}
}

// Available answers 503 on every webhook route while webhooks are not
// configured (no WEBHOOK_SECRET_KEY) or the admin schema is not ready.
func (a *API) Available(c *gin.Context) {
	if len(a.deps.Config.WebhookSecretKey) == 0 || a.deps.Events == nil {
		httpx.Fail(c, httpx.ErrWebhooksOff)
		return
	}
	if a.deps.AdminReady != nil && !a.deps.AdminReady() {
		httpx.Fail(c, httpx.ErrAdminUnavailable)
		return
	}
	c.Next()
}

// owner is the data caller's scope: its user, on its key's network.
func (a *API) owner(c *gin.Context) (events.Owner, cardano.Network, error) {
	caller, ok := a.deps.Caller(c)
	if !ok {
		return events.Owner{}, cardano.Network{}, httpx.ErrInvalidKey
	}
	n, known := cardano.NetworkByID(caller.NetworkID)
	if !known {
		return events.Owner{}, cardano.Network{}, httpx.ErrInvalidKey
	}
	return events.Owner{UserID: caller.UserAccountID, Network: n.Name}, n, nil
}

// hook is one webhook as a route names it: its owner's scope, its id and
// the audit writer (admin routes only).
type hook struct {
	owner events.Owner
	id    uuid.UUID
	audit events.Audit
}

// hookScope resolves the webhook a request is about; the data and admin
// routes of one action share its handler and differ only here.
type hookScope func(*gin.Context) (hook, error)

// userHook: the data key's user's webhook :id, on the key's network.
func (a *API) userHook(c *gin.Context) (hook, error) {
	o, _, err := a.owner(c)
	if err != nil {
		return hook{}, err
	}
	id, err := webhookID(c, "id")
	return hook{owner: o, id: id}, err
}

// webhookID reads a webhook id path parameter; anything but a UUID names
// no webhook (404, as for the admin user routes).
func webhookID(c *gin.Context, name string) (uuid.UUID, error) {
	id, err := uuid.Parse(c.Param(name))
	if err != nil {
		return uuid.UUID{}, httpx.ErrWebhookNotFound
	}
	return id, nil
}

// storeError maps the store's sentinels to their answers.
func (a *API) storeError(err error) error {
	var limit *events.WebhookLimitError
	switch {
	case errors.As(err, &limit):
		return httpx.ErrTooManyWebhooks(limit.Max)
	case errors.Is(err, events.ErrNotFound):
		return httpx.ErrWebhookNotFound
	case errors.Is(err, events.ErrEventNotFound):
		return httpx.ErrWebhookEventNotFound
	case errors.Is(err, events.ErrTooManyWebhooks):
		return httpx.ErrTooManyWebhooks(a.deps.Config.WebhooksPerUser)
	case errors.Is(err, events.ErrTooManyItems):
		return httpx.ErrWatchSetFull(events.MaxItems)
	case errors.Is(err, events.ErrNotPushable):
		return httpx.ErrWebhookNotPushable
	case errors.Is(err, events.ErrWebhooksOff):
		return httpx.ErrWebhooksOff
	case errors.Is(err, admin.ErrNotFound):
		return httpx.ErrUserNotFound
	}
	return err
}
