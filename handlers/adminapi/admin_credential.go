package adminapi

import (
	"encoding/json"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/cardano"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/syncgate/syncgate/admin"
)

// credentialJSON is an API credential (OpenAPI schema Credential), never with its key.
type credentialJSON struct {
	ID                 uuid.UUID       `json:"id"`
	Name               string          `json:"name"`
	Description        *string         `json:"description"`
	APIKeyPrefix       string          `json:"api_key_prefix"`
	CreatedAt          string          `json:"created_at"`
	UserAccountID      uuid.UUID       `json:"user_account_id"`
	UserAccountName    string          `json:"user_account_name"`
	UserExternalID     string          `json:"user_external_id"`
	AdminKeyID         uuid.UUID       `json:"admin_key_id"`
	AdminEntityName    string          `json:"admin_entity_name"`
	NetworkID          int             `json:"network_id"`
	LastUsedAt         *string         `json:"last_used_at"`
	ExpiresAt          *string         `json:"expires_at"`
	Revoked            bool            `json:"revoked"`
	RevokedAt          *string         `json:"revoked_at"`
	RateLimitPerMinute int             `json:"rate_limit_per_minute"`
	Metadata           json.RawMessage `json:"metadata"`
	AllowedIPs         []string        `json:"allowed_ips"`
	AllowedOrigins     []string        `json:"allowed_origins"`
	AllowedRouteGroups []string        `json:"allowed_route_groups"`
}

func credentialView(c admin.Credential) credentialJSON {
	return credentialJSON{
		ID: c.ID, Name: c.Name, Description: c.Description, APIKeyPrefix: c.APIKeyPrefix,
		CreatedAt: isoTime(c.CreatedAt), UserAccountID: c.UserAccountID, UserAccountName: c.UserAccountName,
		UserExternalID: c.UserExternalID, AdminKeyID: c.AdminKeyID, AdminEntityName: c.EntityName,
		NetworkID: c.NetworkID, LastUsedAt: isoTimePtr(c.LastUsedAt), ExpiresAt: isoTimePtr(c.ExpiresAt),
		Revoked: c.Revoked, RevokedAt: isoTimePtr(c.RevokedAt), RateLimitPerMinute: c.RateLimitPerMinute,
		Metadata: jsonOrEmpty(c.Metadata), AllowedIPs: orEmpty(c.AllowedIPs), AllowedOrigins: orEmpty(c.AllowedOrigins),
		AllowedRouteGroups: orEmpty(c.AllowedRouteGroups),
	}
}

// revokedCredentialJSON is the reduced record of the revoke response (CredentialRevoked).
type revokedCredentialJSON struct {
	ID              uuid.UUID `json:"id"`
	Name            string    `json:"name"`
	APIKeyPrefix    string    `json:"api_key_prefix"`
	UserAccountID   uuid.UUID `json:"user_account_id"`
	UserAccountName string    `json:"user_account_name"`
	AdminKeyID      uuid.UUID `json:"admin_key_id"`
	AdminEntityName string    `json:"admin_entity_name"`
	NetworkID       int       `json:"network_id"`
	Revoked         bool      `json:"revoked"`
	RevokedAt       *string   `json:"revoked_at"`
}

// credentialID reads the :id of a credential endpoint: 400 when it is not a UUID.
func credentialID(c *gin.Context) (uuid.UUID, error) {
	id, err := uuid.Parse(c.Param("id"))
	if err != nil {
		return uuid.UUID{}, httpx.ErrInvalidCredentialID
	}
	return id, nil
}

// CreateCredential: POST /v1/admin/credentials. Every field is checked
// before the user is looked up, so a 400 never depends on ownership.
func (s *API) CreateCredential(c *gin.Context) error {
	obj, err := httpx.DecodeAdminObject(c)
	if err != nil {
		return err
	}
	var in admin.NewCredential
	if in.Name, err = requiredName(obj["name"], httpx.ErrUserNameRequired); err != nil {
		return err
	}
	userRaw, present := obj["user_account_id"]
	userStr, isStr := jsonString(userRaw)
	if !present || !isStr || userStr == "" {
		return httpx.ErrUserAccountIDNeeded
	}
	userID, userErr := uuid.Parse(userStr)
	network, isInt := jsonInt(obj["network_id"])
	if _, known := cardano.NetworkByID(network); !isInt || !known {
		return httpx.ErrNetworkIDNeeded
	}
	in.NetworkID = network
	if raw, present := obj["description"]; present && !isNull(raw) {
		d, ok := jsonString(raw)
		if !ok {
			return httpx.ErrDescriptionType
		}
		if err := checkText("description", d, nil); err != nil {
			return err
		}
		in.Description = &d
	}
	if in.ExpiresAt, err = expiresAt(obj, s.deps.Now()); err != nil {
		return err
	}
	if raw, present := obj["rate_limit_per_minute"]; present && !isNull(raw) {
		n, ok := jsonInt(raw)
		if !ok || n < 1 || n > 10000 {
			return httpx.ErrRateLimitRange
		}
		in.RateLimitPerMinute = n
	}
	if in.Metadata, err = optionalMetadata(obj); err != nil {
		return err
	}
	if in.Filters, _, _, _, err = credentialFilters(obj); err != nil {
		return err
	}
	if userErr != nil {
		return httpx.ErrUserNotFound // not a UUID: names no user of the caller
	}
	in.UserAccountID = userID
	cred, key, err := s.deps.Admin.CreateCredential(c.Request.Context(), adminOf(c), in)
	if err != nil {
		return notFoundAs(err, httpx.ErrUserNotFound)
	}
	data := struct {
		Credential credentialJSON `json:"credential"`
		APIKey     string         `json:"api_key"`
	}{credentialView(cred), key}
	noStore(c)
	httpx.OKMessage(c, http.StatusCreated, data, "Credential created successfully. Store the API key now: it cannot be retrieved again.")
	return nil
}

// expiresAt reads the optional expires_at: an ISO 8601 time (or a date,
// meaning its midnight UTC) strictly after now.
func expiresAt(obj map[string]json.RawMessage, now time.Time) (*time.Time, error) {
	raw, present := obj["expires_at"]
	if !present || isNull(raw) {
		return nil, nil
	}
	s, ok := jsonString(raw)
	if !ok {
		return nil, httpx.ErrExpiresFormat
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		if t, err = time.Parse(time.DateOnly, s); err != nil {
			return nil, httpx.ErrExpiresFormat
		}
	}
	if !t.After(now) {
		return nil, httpx.ErrExpiresInPast
	}
	return &t, nil
}

// ListCredentials: GET /v1/admin/credentials, the caller's credentials newest first.
func (s *API) ListCredentials(c *gin.Context) error {
	p, err := adminPage(c, 20)
	if err != nil {
		return err
	}
	includeRevoked, err := httpx.QueryBool(c, "includeRevoked")
	if err != nil {
		return err
	}
	creds, total, err := s.deps.Admin.Credentials(c.Request.Context(), adminOf(c), includeRevoked, p)
	if err != nil {
		return err
	}
	out := make([]credentialJSON, len(creds))
	for i, cr := range creds {
		out[i] = credentialView(cr)
	}
	httpx.OKPage(c, out, httpx.NewPagination(p.Limit, p.Offset, len(out), total))
	return nil
}

// GetCredential: GET /v1/admin/credentials/:id (revoked ones included).
func (s *API) GetCredential(c *gin.Context) error {
	id, err := credentialID(c)
	if err != nil {
		return err
	}
	cred, err := s.deps.Admin.Credential(c.Request.Context(), adminOf(c), id)
	if err != nil {
		return notFoundAs(err, httpx.ErrCredentialNotFound)
	}
	httpx.OK(c, credentialView(cred))
	return nil
}

// UpdateCredential: PATCH /v1/admin/credentials/:id — name, description
// (null clears it) and/or access filters (null or [] clears one); nothing
// else can change.
func (s *API) UpdateCredential(c *gin.Context) error {
	id, err := credentialID(c)
	if err != nil {
		return err
	}
	obj, err := httpx.DecodeAdminObject(c)
	if err != nil {
		return err
	}
	if err := httpx.OnlyFields(obj, "name", "description", fieldAllowedIPs, fieldAllowedOrigins, fieldAllowedGroups); err != nil {
		return err
	}
	var p admin.CredentialPatch
	if raw, present := obj["name"]; present && !isNull(raw) {
		name, err := requiredName(raw, httpx.ErrNameNotEmpty)
		if err != nil {
			return err
		}
		p.Name = &name
	}
	if raw, present := obj["description"]; present {
		p.SetDescription = true
		if !isNull(raw) {
			d, ok := jsonString(raw)
			if !ok {
				return httpx.ErrDescriptionType
			}
			if err := checkText("description", d, nil); err != nil {
				return err
			}
			p.Description = &d
		}
	}
	if p.Filters, p.SetIPs, p.SetOrigins, p.SetRouteGroups, err = credentialFilters(obj); err != nil {
		return err
	}
	if p.Name == nil && !p.SetDescription && !p.SetIPs && !p.SetOrigins && !p.SetRouteGroups {
		return httpx.ErrCredentialPatchNone
	}
	cred, err := s.deps.Admin.UpdateCredential(c.Request.Context(), adminOf(c), id, p)
	if err != nil {
		return notFoundAs(err, httpx.ErrCredentialNotLive)
	}
	httpx.OKMessage(c, http.StatusOK, credentialView(cred), "Credential updated successfully")
	return nil
}

// RevokeCredential: DELETE /v1/admin/credentials/:id (soft delete; the key
// stops working on the next request everywhere).
func (s *API) RevokeCredential(c *gin.Context) error {
	id, err := credentialID(c)
	if err != nil {
		return err
	}
	cred, err := s.deps.Admin.RevokeCredential(c.Request.Context(), adminOf(c), id)
	if err != nil {
		return notFoundAs(err, httpx.ErrCredentialNotLive)
	}
	data := revokedCredentialJSON{
		ID: cred.ID, Name: cred.Name, APIKeyPrefix: cred.APIKeyPrefix, UserAccountID: cred.UserAccountID,
		UserAccountName: cred.UserAccountName, AdminKeyID: cred.AdminKeyID, AdminEntityName: cred.EntityName,
		NetworkID: cred.NetworkID, Revoked: cred.Revoked, RevokedAt: isoTimePtr(cred.RevokedAt),
	}
	httpx.OKMessage(c, http.StatusOK, data, "Credential revoked successfully")
	return nil
}
