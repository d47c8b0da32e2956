package handlers

import (
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/syncgate/syncgate/admin"
)

// adminKeyJSON is an admin key record (DECISIONS.md "Admin keys").
type adminKeyJSON struct {
	ID              uuid.UUID `json:"id"`
	AdminEntityName string    `json:"admin_entity_name"`
	Permissions     []string  `json:"permissions"`
	APIKeyPrefix    string    `json:"api_key_prefix"`
	CreatedAt       string    `json:"created_at"`
	Revoked         bool      `json:"revoked"`
	RevokedAt       *string   `json:"revoked_at"`
}

func adminKeyView(k admin.AdminKey) adminKeyJSON {
	perms := []string(k.Permissions)
	if perms == nil {
		perms = []string{}
	}
	return adminKeyJSON{
		ID: k.ID, AdminEntityName: k.EntityName, Permissions: perms, APIKeyPrefix: k.APIKeyPrefix,
		CreatedAt: isoTime(k.CreatedAt), Revoked: k.Revoked, RevokedAt: isoTimePtr(k.RevokedAt),
	}
}

// createAdminKey: POST /v1/admin/keys (bootstrap key only).
func (s *Server) createAdminKey(c *gin.Context) error {
	a := adminOf(c)
	if !a.Bootstrap {
		return errBootstrapOnly
	}
	obj, err := decodeJSONObject(c)
	if err != nil {
		return err
	}
	name, ok := jsonString(obj["admin_entity_name"])
	if !ok || strings.TrimSpace(name) == "" {
		return errEntityNameRequired
	}
	if err := checkText("admin_entity_name", name, errEntityNameTooLong); err != nil {
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
	okMessage(c, http.StatusCreated, data, "Admin key created successfully. Store the key now: it cannot be retrieved again.")
	return nil
}

// permissionList reads the required permissions array: known names only,
// duplicates dropped, order kept.
func permissionList(obj map[string]json.RawMessage) ([]string, error) {
	raw, present := obj["permissions"]
	if !present || isNull(raw) {
		return nil, errPermissionsInvalid
	}
	var names []string
	if err := json.Unmarshal(raw, &names); err != nil {
		return nil, errPermissionsInvalid
	}
	out := []string{}
	for _, p := range names {
		if !admin.ValidPermission(p) {
			return nil, errPermissionsInvalid
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// listAdminKeys: GET /v1/admin/keys (bootstrap key only), newest first.
func (s *Server) listAdminKeys(c *gin.Context) error {
	a := adminOf(c)
	if !a.Bootstrap {
		return errBootstrapOnly
	}
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
	okPage(c, out, NewPagination(p.Limit, p.Offset, len(out), total))
	return nil
}

// revokeAdminKey: DELETE /v1/admin/keys/:id (bootstrap key only).
func (s *Server) revokeAdminKey(c *gin.Context) error {
	a := adminOf(c)
	if !a.Bootstrap {
		return errBootstrapOnly
	}
	id, err := uuid.Parse(c.Param("id"))
	if err != nil {
		return errAdminKeyNotLive
	}
	k, err := s.deps.Admin.RevokeAdminKey(c.Request.Context(), a, id)
	if errors.Is(err, admin.ErrNotFound) {
		return errAdminKeyNotLive
	}
	if err != nil {
		return err
	}
	okMessage(c, http.StatusOK, adminKeyView(k), "Admin key revoked successfully")
	return nil
}
