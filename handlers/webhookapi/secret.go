package webhookapi

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/events"
)

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
