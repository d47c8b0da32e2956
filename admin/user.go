package admin

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/sql"
)

var (
	sqlCreateUser           = sqlfiles.Compose("admin/create_user.sql")
	sqlUser                 = sqlfiles.Compose("admin/user.sql")
	sqlUsers                = sqlfiles.Compose("admin/users.sql")
	sqlCountUsers           = sqlfiles.Must("admin/count_users.sql")
	sqlUpdateUser           = sqlfiles.Compose("admin/update_user.sql")
	sqlUpdateUserStatus     = sqlfiles.Must("admin/update_user_status.sql")
	sqlUserCredentialHashes = sqlfiles.Must("admin/user_credential_hashes.sql")
)

// User account statuses (OpenAPI schema UserStatus).
const (
	StatusActive    = "active"
	StatusSuspended = "suspended"
	StatusPending   = "pending"
)

// ValidStatus reports whether s is a user account status.
func ValidStatus(s string) bool {
	return s == StatusActive || s == StatusSuspended || s == StatusPending
}

// User is a user account (OpenAPI schema User).
type User struct {
	ID          uuid.UUID  `db:"id"`
	AdminKeyID  uuid.UUID  `db:"admin_key_id"`
	EntityName  string     `db:"admin_entity_name"`
	ExternalID  string     `db:"external_id"`
	Name        string     `db:"name"`
	Email       string     `db:"email"`
	Metadata    []byte     `db:"metadata"` // a JSON object
	CreatedAt   time.Time  `db:"created_at"`
	UpdatedAt   *time.Time `db:"updated_at"`
	Status      string     `db:"status"`
	BillingPlan string     `db:"billing_plan"`
	PlanID      *uuid.UUID `db:"plan_id"` // its partner's plan; nil: none
}

// UserStatus is the reduced record of suspend and reactivate.
type UserStatus struct {
	ID        uuid.UUID  `db:"id"`
	Name      string     `db:"name"`
	Status    string     `db:"status"`
	UpdatedAt *time.Time `db:"updated_at"`
}

// NewUser is a validated POST /v1/admin/users body. Metadata is a JSON
// object; absent optional strings are "".
type NewUser struct {
	Name, ExternalID, Email, BillingPlan string
	Metadata                             []byte
	PlanID                               *uuid.UUID // nil: no plan
}

// UserPatch holds the supplied fields of PATCH /v1/admin/users/:id; nil
// means unchanged. Metadata, when set, replaces the whole object.
type UserPatch struct {
	Name, ExternalID, Email, BillingPlan *string
	Metadata                             []byte
	// SetPlan: plan_id was supplied; PlanID nil then takes the user off
	// its plan.
	SetPlan bool
	PlanID  *uuid.UUID
}

// CreateUser creates a user account owned by a, status active.
func (s *Store) CreateUser(ctx context.Context, a Admin, in NewUser) (u User, err error) {
	if a.Bootstrap {
		return User{}, ErrBootstrapUsers
	}
	err = s.inTx(ctx, "CreateUser", func(tx *sqlx.Tx) error {
		u, err = s.createUser(ctx, tx, a, in)
		return err
	})
	return u, err
}

func (s *Store) createUser(ctx context.Context, tx *sqlx.Tx, a Admin, in NewUser) (User, error) {
	meta := in.Metadata
	if meta == nil {
		meta = []byte("{}")
	}
	var u User
	if in.PlanID != nil {
		// Checked first: an unknown plan is a 400 and creates nothing.
		var got uuid.UUID
		if err := getOne(ctx, tx, &got, sqlPlanShare, *in.PlanID, a.PartnerID); errors.Is(err, ErrNotFound) {
			return User{}, ErrPlanUnknown
		} else if err != nil {
			return User{}, err
		}
	}
	if err := tx.GetContext(ctx, &u, sqlCreateUser, newID(), a.ID, in.ExternalID, in.Name, in.Email, string(meta), in.BillingPlan, a.PartnerID); err != nil {
		return User{}, err
	}
	details := map[string]any{"name": in.Name, "external_id": in.ExternalID, "email": in.Email, "billing_plan": in.BillingPlan}
	if in.PlanID != nil {
		if err := s.setUserPlan(ctx, tx, a, u.ID, in.PlanID); err != nil {
			return User{}, err
		}
		u.PlanID = in.PlanID
		details["plan_id"] = in.PlanID.String()
	}
	return u, s.audit(ctx, tx, a, ActionUserCreated, TargetUserAccount, &u.ID, details)
}

// Users lists a's user accounts (optionally of one status), newest first.
func (s *Store) Users(ctx context.Context, a Admin, status string, p Page) (users []User, total int64, err error) {
	var st *string
	if status != "" {
		st = &status
	}
	err = s.inSnapshotTx(ctx, "Users", func(tx *sqlx.Tx) error {
		if err := tx.GetContext(ctx, &total, sqlCountUsers, a.PartnerID, st); err != nil {
			return err
		}
		users = []User{}
		if err := tx.SelectContext(ctx, &users, sqlUsers, a.PartnerID, st, p.Limit, p.Offset); err != nil {
			return err
		}
		details := map[string]any{"limit": p.Limit, "offset": p.Offset}
		if status != "" {
			details["status"] = status
		}
		return s.audit(ctx, tx, a, ActionUserListed, TargetUserAccount, nil, details)
	})
	return users, total, err
}

// User returns one of a's user accounts; ErrNotFound otherwise.
func (s *Store) User(ctx context.Context, a Admin, id uuid.UUID) (u User, err error) {
	err = s.inTx(ctx, "User", func(tx *sqlx.Tx) error {
		if err := getOne(ctx, tx, &u, sqlUser, id, a.PartnerID); err != nil {
			return err
		}
		return s.audit(ctx, tx, a, ActionUserViewed, TargetUserAccount, &u.ID, nil)
	})
	return u, err
}

// UpdateUser changes the supplied fields of one of a's user accounts.
func (s *Store) UpdateUser(ctx context.Context, a Admin, id uuid.UUID, p UserPatch) (u User, err error) {
	var meta *string
	if p.Metadata != nil {
		m := string(p.Metadata)
		meta = &m
	}
	var hashes [][]byte
	err = s.inTx(ctx, "UpdateUser", func(tx *sqlx.Tx) error {
		if p.SetPlan {
			// Before the update: an unknown plan (400) wins over a missing
			// user (404), and a plan change must reach the user's keys.
			if err := s.setUserPlan(ctx, tx, a, id, p.PlanID); err != nil {
				return err
			}
			hashes = hashes[:0]
			if err := tx.SelectContext(ctx, &hashes, sqlUserCredentialHashes, id); err != nil {
				return err
			}
		}
		if err := getOne(ctx, tx, &u, sqlUpdateUser, id, a.PartnerID, p.Name, p.ExternalID, p.Email, p.BillingPlan, meta); err != nil {
			return err
		}
		return s.audit(ctx, tx, a, ActionUserUpdated, TargetUserAccount, &u.ID, p.changes())
	})
	if err == nil {
		s.invalidate(ctx, hashes...)
	}
	return u, err
}

// changes is the audit detail of a patch: the supplied fields, new values.
func (p UserPatch) changes() map[string]any {
	d := map[string]any{}
	for name, v := range map[string]*string{"name": p.Name, "external_id": p.ExternalID, "email": p.Email, "billing_plan": p.BillingPlan} {
		if v != nil {
			d[name] = *v
		}
	}
	if p.Metadata != nil {
		d["metadata"] = json.RawMessage(p.Metadata)
	}
	if p.SetPlan {
		if p.PlanID != nil {
			d["plan_id"] = p.PlanID.String()
		} else {
			d["plan_id"] = nil
		}
	}
	return map[string]any{"changes": d}
}

// SuspendUser moves one of a's active users to suspended; its credentials
// fail authentication as soon as the invalidation reaches an instance
// (package auth says when). ErrNotFound when missing, not owned or not
// active.
func (s *Store) SuspendUser(ctx context.Context, a Admin, id uuid.UUID) (UserStatus, error) {
	return s.setUserStatus(ctx, a, id, StatusActive, StatusSuspended, ActionUserSuspended)
}

// ReactivateUser moves one of a's suspended users back to active.
// ErrNotFound when missing, not owned or not suspended.
func (s *Store) ReactivateUser(ctx context.Context, a Admin, id uuid.UUID) (UserStatus, error) {
	return s.setUserStatus(ctx, a, id, StatusSuspended, StatusActive, ActionUserReactivated)
}

func (s *Store) setUserStatus(ctx context.Context, a Admin, id uuid.UUID, from, to, action string) (st UserStatus, err error) {
	var hashes [][]byte
	err = s.inTx(ctx, action, func(tx *sqlx.Tx) error {
		if err := getOne(ctx, tx, &st, sqlUpdateUserStatus, id, a.PartnerID, to, from); err != nil {
			return err
		}
		if err := tx.SelectContext(ctx, &hashes, sqlUserCredentialHashes, id); err != nil {
			return err
		}
		return s.audit(ctx, tx, a, action, TargetUserAccount, &st.ID, map[string]any{"previous_status": from, "status": to})
	})
	if err == nil {
		s.invalidate(ctx, hashes...)
	}
	return st, err
}
