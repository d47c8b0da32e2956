package adminapi

import (
	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/syncgate/syncgate/handlers/httpx"
)

// GET /v1/admin/me: our addition (docs/DECISIONS.md "Partner console"). A
// client signing in with an admin key learns whether the key works and what
// it may do without probing endpoints it may not call (each refused probe
// would be a 403 and a security event).

type adminMeJSON struct {
	ID              uuid.UUID `json:"id"`
	PartnerID       uuid.UUID `json:"partner_id"`
	AdminEntityName string    `json:"admin_entity_name"`
	Permissions     []string  `json:"permissions"`
	Bootstrap       bool      `json:"bootstrap"`
}

// AdminMe: GET /v1/admin/me, the calling key as authentication sees it.
// Not audited: it reads nothing but the caller's own key.
func (s *API) AdminMe(c *gin.Context) error {
	a := adminOf(c)
	perms := a.Permissions
	if a.Bootstrap || perms == nil {
		perms = []string{} // the bootstrap key passes every check but holds no named permission
	}
	httpx.OK(c, adminMeJSON{ID: a.ID, PartnerID: a.PartnerID, AdminEntityName: a.EntityName, Permissions: perms, Bootstrap: a.Bootstrap})
	return nil
}
