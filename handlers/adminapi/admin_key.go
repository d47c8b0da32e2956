package adminapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/handlers/httpx"
)

// adminKeyJSON is an admin key record (DECISIONS.md "Admin keys").
type adminKeyJSON struct {
	ID              uuid.UUID `json:"id"`
	PartnerID       uuid.UUID `json:"partner_id"`
	AdminEntityName string    `json:"admin_entity_name"`
	Permissions     []string  `json:"permissions"`
	APIKeyPrefix    string    `json:"api_key_prefix"`
	CreatedAt       string    `json:"created_at"`
	ExpiresAt       *string   `json:"expires_at"` // set by a roll with an overlap
	Revoked         bool      `json:"revoked"`
	RevokedAt       *string   `json:"revoked_at"`
}

func adminKeyView(k admin.AdminKey) adminKeyJSON {
	perms := []string(k.Permissions)
	if perms == nil {
		perms = []string{}
	}
	return adminKeyJSON{
		ID: k.ID, PartnerID: k.PartnerID, AdminEntityName: k.EntityName, Permissions: perms, APIKeyPrefix: k.APIKeyPrefix,
		CreatedAt: isoTime(k.CreatedAt), ExpiresAt: isoTimePtr(k.ExpiresAt), Revoked: k.Revoked, RevokedAt: isoTimePtr(k.RevokedAt),
	}
}

// CreateAdminKey: POST /v1/admin/keys (bootstrap key only), the first key
// of a new partner.
func (s *API) CreateAdminKey(c *gin.Context) error {
	a := adminOf(c)
	obj, err := httpx.DecodeAdminObject(c)
	if err != nil {
		return err
	}
	name, ok := jsonString(obj["admin_entity_name"])
	if !ok || strings.TrimSpace(name) == "" {
		return httpx.ErrEntityNameRequired
	}
	if err := checkText("admin_entity_name", name, httpx.ErrEntityNameTooLong); err != nil {
		return err
	}
	perms, err := permissionList(obj)
	if err != nil {
		return err
	}
	k, key, err := s.deps.Admin.CreateAdminKey(c.Request.Context(), a, name, perms)
	if err != nil {
		return err
	}
	data := struct {
		AdminKey adminKeyJSON `json:"admin_key"`
		Key      string       `json:"key"`
	}{adminKeyView(k), key}
	noStore(c)
	httpx.OKMessage(c, http.StatusCreated, data, "Admin key created successfully. Store the key now: it cannot be retrieved again.")
	return nil
}

// permissionList reads the required permissions array: known names only,
// duplicates dropped, order kept.
func permissionList(obj map[string]json.RawMessage) ([]string, error) {
	raw, present := obj["permissions"]
	if !present || isNull(raw) {
		return nil, httpx.ErrPermissionsInvalid
	}
	var names []string
	if err := json.Unmarshal(raw, &names); err != nil {
		return nil, httpx.ErrPermissionsInvalid
	}
	out := []string{}
	for _, p := range names {
		if !admin.ValidPermission(p) {
			return nil, httpx.ErrPermissionsInvalid
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// ListAdminKeys: GET /v1/admin/keys (bootstrap key only), newest first.
func (s *API) ListAdminKeys(c *gin.Context) error {
	a := adminOf(c)
	p, err := adminPage(c, 20)
	if err != nil {
		return err
	}
	keys, total, err := s.deps.Admin.AdminKeys(c.Request.Context(), a, p)
	if err != nil {
		return err
	}
	out := make([]adminKeyJSON, len(keys))
	for i, k := range keys {
		out[i] = adminKeyView(k)
	}
	httpx.OKPage(c, out, httpx.NewPagination(p.Limit, p.Offset, len(out), total))
	return nil
}

// RevokeAdminKey: DELETE /v1/admin/keys/:id (bootstrap key only). The
// partner's last lasting key takes the partner's credentials with it.
func (s *API) RevokeAdminKey(c *gin.Context) error {
	id, err := uuid.Parse(c.Param("id"))
	if err != nil {
		return httpx.ErrAdminKeyNotLive
	}
	k, err := s.deps.Admin.RevokeAdminKey(c.Request.Context(), adminOf(c), id)
	if err != nil {
		return notFoundAs(err, httpx.ErrAdminKeyNotLive)
	}
	data := struct {
		adminKeyJSON
		CredentialsRevoked int `json:"credentials_revoked"`
	}{adminKeyView(k.AdminKey), k.CredentialsRevoked}
	msg := "Admin key revoked successfully"
	if k.CredentialsRevoked > 0 {
		msg = fmt.Sprintf("Admin key revoked successfully. It was its partner's last active key: %d credentials revoked", k.CredentialsRevoked)
	}
	httpx.OKMessage(c, http.StatusOK, data, msg)
	return nil
}

// RollAdminKey: POST /v1/admin/keys/:id/roll (bootstrap key only). The new
// key joins the old one's partner; the old one works for the overlap.
func (s *API) RollAdminKey(c *gin.Context) error {
	id, err := uuid.Parse(c.Param("id"))
	if err != nil {
		return httpx.ErrAdminKeyNotLive
	}
	overlap, err := rollOverlap(c)
	if err != nil {
		return err
	}
	r, err := s.deps.Admin.RollAdminKey(c.Request.Context(), adminOf(c), id, overlap)
	if err != nil {
		return notFoundAs(err, httpx.ErrAdminKeyNotLive)
	}
	data := struct {
		AdminKey         adminKeyJSON `json:"admin_key"`
		Key              string       `json:"key"`
		PreviousAdminKey adminKeyJSON `json:"previous_admin_key"`
	}{adminKeyView(r.New), r.Key, adminKeyView(r.Previous)}
	noStore(c)
	// 200 like the credential roll: a roll is an action on an existing key
	// (as revoke is), though this one also makes a record for the new key.
	httpx.OKMessage(c, http.StatusOK, data, "Admin key rolled successfully. Store the key now: it cannot be retrieved again.")
	return nil
}

// RollCredential: POST /v1/admin/credentials/:id/roll. Same id, user,
// network, limit, name and usage history; a new key, shown once.
func (s *API) RollCredential(c *gin.Context) error {
	id, err := credentialID(c)
	if err != nil {
		return err
	}
	overlap, err := rollOverlap(c)
	if err != nil {
		return err
	}
	r, err := s.deps.Admin.RollCredential(c.Request.Context(), adminOf(c), id, overlap)
	var pending *admin.RollPendingError
	if errors.As(err, &pending) {
		return httpx.ErrRollPending(isoTime(pending.Until))
	}
	if err != nil {
		return notFoundAs(err, httpx.ErrCredentialNotLive)
	}
	data := struct {
		Credential           credentialJSON `json:"credential"`
		APIKey               string         `json:"api_key"`
		PreviousKeyExpiresAt string         `json:"previous_key_expires_at"`
	}{credentialView(r.Credential), r.Key, isoTime(r.PreviousKeyExpiresAt)}
	noStore(c)
	httpx.OKMessage(c, http.StatusOK, data, "Credential rolled successfully. Store the API key now: it cannot be retrieved again.")
	return nil
}

// rollOverlap reads the optional body {"expires_in_seconds": n} of both
// rolls: how long the old key keeps working, 0 to 7 days. No body, an
// empty one, {} and a null n all mean the default, 0; a body labelled
// other than JSON is refused (httpx.ReadAdminBody) rather than defaulted.
func rollOverlap(c *gin.Context) (time.Duration, error) {
	body, err := httpx.ReadAdminBody(c)
	if err != nil {
		return 0, err
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return 0, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil || obj == nil {
		return 0, httpx.ErrInvalidJSON
	}
	if err := httpx.OnlyFields(obj, "expires_in_seconds"); err != nil {
		return 0, err
	}
	raw, present := obj["expires_in_seconds"]
	if !present || isNull(raw) {
		return 0, nil
	}
	n, ok := jsonInt(raw)
	if !ok || n < 0 || time.Duration(n) > admin.MaxRollOverlap/time.Second {
		return 0, httpx.ErrRollOverlapRange
	}
	return time.Duration(n) * time.Second, nil
}

// noStore keeps a response that carries a full key out of every cache.
func noStore(c *gin.Context) {
	c.Header("Cache-Control", "no-store")
}
