package adminapi

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/handlers/httpx"
)

// userJSON is a user account (OpenAPI schema User).
type userJSON struct {
	ID              uuid.UUID       `json:"id"`
	AdminKeyID      uuid.UUID       `json:"admin_key_id"`
	AdminEntityName string          `json:"admin_entity_name"`
	ExternalID      string          `json:"external_id"`
	Name            string          `json:"name"`
	Email           string          `json:"email"`
	Metadata        json.RawMessage `json:"metadata"`
	CreatedAt       string          `json:"created_at"`
	UpdatedAt       *string         `json:"updated_at"`
	Status          string          `json:"status"`
	BillingPlan     string          `json:"billing_plan"`
	PlanID          *uuid.UUID      `json:"plan_id"`
}

func userView(u admin.User) userJSON {
	return userJSON{
		ID: u.ID, AdminKeyID: u.AdminKeyID, AdminEntityName: u.EntityName, ExternalID: u.ExternalID,
		Name: u.Name, Email: u.Email, Metadata: jsonOrEmpty(u.Metadata), CreatedAt: isoTime(u.CreatedAt),
		UpdatedAt: isoTimePtr(u.UpdatedAt), Status: u.Status, BillingPlan: u.BillingPlan, PlanID: u.PlanID,
	}
}

// userStatusJSON is the reduced record of suspend and reactivate.
type userStatusJSON struct {
	ID        uuid.UUID `json:"id"`
	Name      string    `json:"name"`
	Status    string    `json:"status"`
	UpdatedAt *string   `json:"updated_at"`
}

// userID reads the :id of a user endpoint. Anything but a UUID cannot name
// a user, so it is the spec's 404 (DECISIONS.md).
func userID(c *gin.Context, notFound *httpx.APIError) (uuid.UUID, error) {
	id, err := uuid.Parse(c.Param("id"))
	if err != nil {
		return uuid.UUID{}, notFound
	}
	return id, nil
}

// CreateUser: POST /v1/admin/users.
func (s *API) CreateUser(c *gin.Context) error {
	a := adminOf(c)
	if a.Bootstrap {
		return httpx.ErrBootstrapUsers
	}
	obj, err := httpx.DecodeAdminObject(c)
	if err != nil {
		return err
	}
	var in admin.NewUser
	if in.Name, err = requiredName(obj["name"], httpx.ErrUserNameRequired); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		dst  *string
	}{{"external_id", &in.ExternalID}, {"email", &in.Email}, {"billing_plan", &in.BillingPlan}} {
		v, err := optionalString(obj, f.name)
		if err != nil {
			return err
		}
		if v != nil {
			*f.dst = *v
		}
	}
	if in.Metadata, err = optionalMetadata(obj); err != nil {
		return err
	}
	if _, in.PlanID, err = optionalPlanID(obj); err != nil {
		return err
	}
	u, err := s.deps.Admin.CreateUser(c.Request.Context(), a, in)
	if errors.Is(err, admin.ErrBootstrapUsers) {
		return httpx.ErrBootstrapUsers
	}
	if pe := planError(err); pe != nil {
		return pe
	}
	if err != nil {
		return err
	}
	httpx.OKMessage(c, http.StatusCreated, userView(u), "User account created successfully")
	return nil
}

// ListUsers: GET /v1/admin/users, the caller's users newest first.
func (s *API) ListUsers(c *gin.Context) error {
	p, err := adminPage(c, 20)
	if err != nil {
		return err
	}
	status, present := c.GetQuery("status")
	if present && !admin.ValidStatus(status) {
		return httpx.ErrInvalidStatus
	}
	users, total, err := s.deps.Admin.Users(c.Request.Context(), adminOf(c), status, p)
	if err != nil {
		return err
	}
	out := make([]userJSON, len(users))
	for i, u := range users {
		out[i] = userView(u)
	}
	httpx.OKPage(c, out, httpx.NewPagination(p.Limit, p.Offset, len(out), total))
	return nil
}

// GetUser: GET /v1/admin/users/:id.
func (s *API) GetUser(c *gin.Context) error {
	id, err := userID(c, httpx.ErrUserNotFound)
	if err != nil {
		return err
	}
	u, err := s.deps.Admin.User(c.Request.Context(), adminOf(c), id)
	if err != nil {
		return notFoundAs(err, httpx.ErrUserNotFound)
	}
	httpx.OK(c, userView(u))
	return nil
}

// UpdateUser: PATCH /v1/admin/users/:id. Only supplied fields change (null
// counts as not supplied); metadata replaces the stored object whole.
func (s *API) UpdateUser(c *gin.Context) error {
	id, err := userID(c, httpx.ErrUserNotFound)
	if err != nil {
		return err
	}
	obj, err := httpx.DecodeAdminObject(c)
	if err != nil {
		return err
	}
	if err := httpx.OnlyFields(obj, "name", "external_id", "email", "billing_plan", "metadata", "plan_id"); err != nil {
		return err
	}
	var p admin.UserPatch
	if raw, present := obj["name"]; present && !isNull(raw) {
		name, err := requiredName(raw, httpx.ErrNameNotEmpty)
		if err != nil {
			return err
		}
		p.Name = &name
	}
	for _, f := range []struct {
		name string
		dst  **string
	}{{"external_id", &p.ExternalID}, {"email", &p.Email}, {"billing_plan", &p.BillingPlan}} {
		if *f.dst, err = optionalString(obj, f.name); err != nil {
			return err
		}
	}
	if p.Metadata, err = optionalMetadata(obj); err != nil {
		return err
	}
	if p.SetPlan, p.PlanID, err = optionalPlanID(obj); err != nil {
		return err
	}
	u, err := s.deps.Admin.UpdateUser(c.Request.Context(), adminOf(c), id, p)
	if err != nil {
		return notFoundAs(err, httpx.ErrUserNotFound)
	}
	httpx.OKMessage(c, http.StatusOK, userView(u), "User account updated successfully")
	return nil
}

// SuspendUser: POST /v1/admin/users/:id/suspend.
func (s *API) SuspendUser(c *gin.Context) error {
	id, err := userID(c, httpx.ErrUserNotSuspendable)
	if err != nil {
		return err
	}
	st, err := s.deps.Admin.SuspendUser(c.Request.Context(), adminOf(c), id)
	if err != nil {
		return notFoundAs(err, httpx.ErrUserNotSuspendable)
	}
	httpx.OKMessage(c, http.StatusOK, userStatusView(st), "User account suspended successfully")
	return nil
}

// ReactivateUser: POST /v1/admin/users/:id/reactivate.
func (s *API) ReactivateUser(c *gin.Context) error {
	id, err := userID(c, httpx.ErrUserNotReactivable)
	if err != nil {
		return err
	}
	st, err := s.deps.Admin.ReactivateUser(c.Request.Context(), adminOf(c), id)
	if err != nil {
		return notFoundAs(err, httpx.ErrUserNotReactivable)
	}
	httpx.OKMessage(c, http.StatusOK, userStatusView(st), "User account reactivated successfully")
	return nil
}

func userStatusView(st admin.UserStatus) userStatusJSON {
	return userStatusJSON{ID: st.ID, Name: st.Name, Status: st.Status, UpdatedAt: isoTimePtr(st.UpdatedAt)}
}
