package adminapi

import (
	"encoding/json"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/handlers/httpx"
)

// auditEntryJSON is an audit log entry (OpenAPI "AuditEntry").
type auditEntryJSON struct {
	ID              uuid.UUID       `json:"id"`
	Action          string          `json:"action"`
	AdminKeyID      uuid.UUID       `json:"admin_key_id"`
	AdminEntityName string          `json:"admin_entity_name"`
	TargetID        *uuid.UUID      `json:"target_id"`
	TargetType      string          `json:"target_type"`
	IPAddress       *string         `json:"ip_address"`
	Details         json.RawMessage `json:"details"`
	CreatedAt       string          `json:"created_at"`
}

// maxActionLen bounds the action filter; real actions are far shorter.
const maxActionLen = 64

// ListAuditLogs: GET /v1/admin/audit-logs. An admin key reads its own
// entries, the bootstrap key all; pagination has no hasMore (OpenAPI "Pagination").
func (s *API) ListAuditLogs(c *gin.Context) error {
	p, err := adminPage(c, 50)
	if err != nil {
		return err
	}
	var f admin.AuditFilter
	if action, present := c.GetQuery("action"); present {
		if !validAction(action) {
			return httpx.ErrInvalidAction
		}
		f.Action = action
	}
	if f.AdminKeyID, err = queryUUID(c, "admin_key_id", httpx.ErrInvalidAdminKeyID); err != nil {
		return err
	}
	if f.TargetID, err = queryUUID(c, "target_id", httpx.ErrInvalidTargetID); err != nil {
		return err
	}
	entries, total, err := s.deps.Admin.AuditLogs(c.Request.Context(), adminOf(c), f, p)
	if err != nil {
		return err
	}
	out := make([]auditEntryJSON, len(entries))
	for i, e := range entries {
		out[i] = auditEntryJSON{
			ID: e.ID, Action: e.Action, AdminKeyID: e.AdminKeyID, AdminEntityName: e.EntityName,
			TargetID: e.TargetID, TargetType: e.TargetType, IPAddress: e.IPAddress,
			Details: jsonOrEmpty(e.Details), CreatedAt: isoTime(e.CreatedAt),
		}
	}
	httpx.OKPage(c, out, httpx.Pagination{Limit: p.Limit, Offset: p.Offset, Total: total})
	return nil
}

// validAction accepts the shape of an action ("resource.verb", lower case
// and underscores). An unknown but well-formed action simply matches nothing.
func validAction(a string) bool {
	if a == "" || len(a) > maxActionLen {
		return false
	}
	dots := 0
	for _, r := range a {
		switch {
		case r == '.':
			dots++
		case r >= 'a' && r <= 'z', r == '_':
		default:
			return false
		}
	}
	return dots == 1 && a[0] != '.' && a[len(a)-1] != '.'
}
