package admin

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	sqlfiles "github.com/syncgate/syncgate/sql"
)

var (
	sqlCreatePlan             = sqlfiles.Compose("admin/create_plan.sql")
	sqlPlan                   = sqlfiles.Compose("admin/plan.sql")
	sqlPlans                  = sqlfiles.Compose("admin/plans.sql")
	sqlCountPlans             = sqlfiles.Must("admin/count_plans.sql")
	sqlUpdatePlan             = sqlfiles.Compose("admin/update_plan.sql")
	sqlPlanLock               = sqlfiles.Must("admin/plan_lock.sql")
	sqlPlanUserCounts         = sqlfiles.Must("admin/plan_user_counts.sql")
	sqlPlanShare              = sqlfiles.Must("admin/plan_share.sql")
	sqlDeletePlan             = sqlfiles.Must("admin/delete_plan.sql")
	sqlPlanCredentialHashes   = sqlfiles.Must("admin/plan_credential_hashes.sql")
	sqlSetUserPlan            = sqlfiles.Must("admin/set_user_plan.sql")
	sqlUserPlanLock           = sqlfiles.Must("admin/user_plan_lock.sql")
	sqlUserPlanLimits         = sqlfiles.Must("admin/user_plan_limits.sql")
	sqlCredentialRateFromPlan = sqlfiles.Must("admin/credential_rate_limit_from_plan.sql")
	sqlUsageUserSince         = sqlfiles.Must("admin/usage_user_since.sql")
)

// Route groups a plan may allow. handlers/routes.go puts every data route
// in one of them (a test checks that each route has one and that it is
// listed here).
const (
	GroupChain    = "chain"
	GroupHistory  = "history"
	GroupSubmit   = "submit"
	GroupMempool  = "mempool"
	GroupWebhooks = "webhooks"
)

// RouteGroups lists every route group, in the order messages name them.
var RouteGroups = []string{GroupChain, GroupHistory, GroupSubmit, GroupMempool, GroupWebhooks}

// ValidRouteGroup reports whether g is a route group.
func ValidRouteGroup(g string) bool { return slices.Contains(RouteGroups, g) }

// Plan actions in the audit log.
const (
	ActionPlanCreated = "plan.created"
	ActionPlanUpdated = "plan.updated"
	ActionPlanDeleted = "plan.deleted"
	ActionPlanViewed  = "plan.viewed"
	ActionPlanListed  = "plan.listed"
	TargetPlan        = "plan"
)

// Plan errors.
var (
	// ErrPlanNameTaken: the partner already has a plan of that name.
	ErrPlanNameTaken = errors.New("admin: plan name taken")
	// ErrPlanInUse: users are on the plan.
	ErrPlanInUse = errors.New("admin: plan has users")
	// ErrPlanUnknown: a user was to be put on a plan the partner does not have.
	ErrPlanUnknown = errors.New("admin: unknown plan")
	// ErrCredentialLimit: the user already holds as many live credentials
	// as its plan allows (CredentialLimitError says how many).
	ErrCredentialLimit = errors.New("admin: plan credential limit reached")
)

// CredentialLimitError is ErrCredentialLimit with the plan's limit.
type CredentialLimitError struct{ Max int }

func (e *CredentialLimitError) Error() string { return ErrCredentialLimit.Error() }
func (e *CredentialLimitError) Unwrap() error { return ErrCredentialLimit }

// Plan is a partner's plan (OpenAPI schema Plan). Nil pointers: none.
type Plan struct {
	ID                    uuid.UUID      `db:"id"`
	PartnerID             uuid.UUID      `db:"partner_id"`
	AdminKeyID            uuid.UUID      `db:"admin_key_id"`
	Name                  string         `db:"name"`
	RateLimitPerMinute    int            `db:"rate_limit_per_minute"`
	Burst                 *int           `db:"burst"`
	DailyQuota            *int64         `db:"daily_quota"`
	MonthlyQuota          *int64         `db:"monthly_quota"`
	RouteGroups           pq.StringArray `db:"route_groups"`
	MaxCredentialsPerUser *int           `db:"max_credentials_per_user"`
	MaxWebhooksPerUser    *int           `db:"max_webhooks_per_user"`
	CreatedAt             time.Time      `db:"created_at"`
	UpdatedAt             *time.Time     `db:"updated_at"`
	// Users is how many users (any status) are on the plan, counted in
	// the transaction that read the plan (plan_user_counts.sql).
	Users int64 `db:"-"`
}

// NewPlan is a validated POST /v1/admin/plans body.
type NewPlan struct {
	Name                  string
	RateLimitPerMinute    int
	Burst                 *int
	DailyQuota            *int64
	MonthlyQuota          *int64
	RouteGroups           []string
	MaxCredentialsPerUser *int
	MaxWebhooksPerUser    *int
}

// PlanPatch holds the supplied fields of PATCH /v1/admin/plans/:id. Name,
// RateLimitPerMinute and RouteGroups: nil keeps. The Set* flags say a
// nullable field was supplied; its pointer nil then clears it.
type PlanPatch struct {
	Name               *string
	RateLimitPerMinute *int
	RouteGroups        []string
	SetBurst           bool
	Burst              *int
	SetDailyQuota      bool
	DailyQuota         *int64
	SetMonthlyQuota    bool
	MonthlyQuota       *int64
	SetMaxCredentials  bool
	MaxCredentials     *int
	SetMaxWebhooks     bool
	MaxWebhooks        *int
}

// Empty reports whether the patch supplies no field.
func (p PlanPatch) Empty() bool {
	return p.Name == nil && p.RateLimitPerMinute == nil && p.RouteGroups == nil && !p.SetBurst && !p.SetDailyQuota &&
		!p.SetMonthlyQuota && !p.SetMaxCredentials && !p.SetMaxWebhooks
}

// uniqueViolation reports a unique-constraint failure (23505).
func uniqueViolation(err error) bool {
	var pqErr *pq.Error
	return errors.As(err, &pqErr) && pqErr.Code == "23505"
}

// CreatePlan creates a plan of a's partner.
func (s *Store) CreatePlan(ctx context.Context, a Admin, in NewPlan) (p Plan, err error) {
	if a.Bootstrap {
		return Plan{}, ErrBootstrapUsers
	}
	err = s.inTx(ctx, "CreatePlan", func(tx *sqlx.Tx) error {
		err := tx.GetContext(ctx, &p, sqlCreatePlan, newID(), a.PartnerID, a.ID, in.Name, in.RateLimitPerMinute, in.Burst,
			in.DailyQuota, in.MonthlyQuota, pq.StringArray(in.RouteGroups), in.MaxCredentialsPerUser, in.MaxWebhooksPerUser)
		if uniqueViolation(err) {
			return ErrPlanNameTaken
		}
		if err != nil {
			return err
		}
		return s.audit(ctx, tx, a, ActionPlanCreated, TargetPlan, &p.ID, planDetails(p))
	})
	return p, err
}

// planDetails is a plan's audit detail: every setting.
func planDetails(p Plan) map[string]any {
	return map[string]any{
		"name": p.Name, "rate_limit_per_minute": p.RateLimitPerMinute, "burst": p.Burst,
		"daily_quota": p.DailyQuota, "monthly_quota": p.MonthlyQuota, "route_groups": []string(p.RouteGroups),
		"max_credentials_per_user": p.MaxCredentialsPerUser, "max_webhooks_per_user": p.MaxWebhooksPerUser,
	}
}

// Plans lists a's plans by name.
func (s *Store) Plans(ctx context.Context, a Admin, pg Page) (plans []Plan, total int64, err error) {
	err = s.inSnapshotTx(ctx, "Plans", func(tx *sqlx.Tx) error {
		if err := tx.GetContext(ctx, &total, sqlCountPlans, a.PartnerID); err != nil {
			return err
		}
		plans = []Plan{}
		if err := tx.SelectContext(ctx, &plans, sqlPlans, a.PartnerID, pg.Limit, pg.Offset); err != nil {
			return err
		}
		if err := planUsers(ctx, tx, a.PartnerID, pointers(plans)...); err != nil {
			return err
		}
		return s.audit(ctx, tx, a, ActionPlanListed, TargetPlan, nil, map[string]any{"limit": pg.Limit, "offset": pg.Offset})
	})
	return plans, total, err
}

// planUsers sets each plan's Users in tx: one index-backed count over the
// partner's users of those plans.
func planUsers(ctx context.Context, tx *sqlx.Tx, partner uuid.UUID, plans ...*Plan) error {
	if len(plans) == 0 {
		return nil
	}
	ids := make([]string, len(plans))
	for i, p := range plans {
		ids[i] = p.ID.String()
	}
	var rows []struct {
		PlanID uuid.UUID `db:"plan_id"`
		Users  int64     `db:"users"`
	}
	if err := tx.SelectContext(ctx, &rows, sqlPlanUserCounts, pq.StringArray(ids), partner); err != nil {
		return err
	}
	n := make(map[uuid.UUID]int64, len(rows))
	for _, r := range rows {
		n[r.PlanID] = r.Users
	}
	for _, p := range plans {
		p.Users = n[p.ID]
	}
	return nil
}

// pointers returns pointers to the elements of s.
func pointers[T any](s []T) []*T {
	out := make([]*T, len(s))
	for i := range s {
		out[i] = &s[i]
	}
	return out
}

// Plan returns one of a's plans; ErrNotFound otherwise.
func (s *Store) Plan(ctx context.Context, a Admin, id uuid.UUID) (p Plan, err error) {
	err = s.inTx(ctx, "Plan", func(tx *sqlx.Tx) error {
		if err := getOne(ctx, tx, &p, sqlPlan, id, a.PartnerID); err != nil {
			return err
		}
		if err := planUsers(ctx, tx, a.PartnerID, &p); err != nil {
			return err
		}
		return s.audit(ctx, tx, a, ActionPlanViewed, TargetPlan, &p.ID, nil)
	})
	return p, err
}

// UpdatePlan changes the supplied fields of one of a's plans. The plan's
// users' credentials are invalidated once it commits, so the change holds
// on their next request on every instance (package auth says when).
func (s *Store) UpdatePlan(ctx context.Context, a Admin, id uuid.UUID, in PlanPatch) (p Plan, err error) {
	var hashes [][]byte
	var groups any
	if in.RouteGroups != nil {
		groups = pq.StringArray(in.RouteGroups)
	}
	err = s.inTx(ctx, "UpdatePlan", func(tx *sqlx.Tx) error {
		err := getOne(ctx, tx, &p, sqlUpdatePlan, id, a.PartnerID, in.Name, in.RateLimitPerMinute,
			in.SetBurst, in.Burst, in.SetDailyQuota, in.DailyQuota, in.SetMonthlyQuota, in.MonthlyQuota, groups,
			in.SetMaxCredentials, in.MaxCredentials, in.SetMaxWebhooks, in.MaxWebhooks)
		if uniqueViolation(err) {
			return ErrPlanNameTaken
		}
		if err != nil {
			return err
		}
		hashes = hashes[:0]
		if err := tx.SelectContext(ctx, &hashes, sqlPlanCredentialHashes, p.ID); err != nil {
			return err
		}
		if err := planUsers(ctx, tx, a.PartnerID, &p); err != nil {
			return err
		}
		return s.audit(ctx, tx, a, ActionPlanUpdated, TargetPlan, &p.ID, map[string]any{"changes": in.changes()})
	})
	if err == nil {
		s.invalidate(ctx, hashes...)
	}
	return p, err
}

// changes is the audit detail of a plan patch: the supplied fields.
func (in PlanPatch) changes() map[string]any {
	d := map[string]any{}
	if in.Name != nil {
		d["name"] = *in.Name
	}
	if in.RateLimitPerMinute != nil {
		d["rate_limit_per_minute"] = *in.RateLimitPerMinute
	}
	if in.RouteGroups != nil {
		d["route_groups"] = in.RouteGroups
	}
	for _, f := range []struct {
		set  bool
		name string
		v    any
	}{
		{in.SetBurst, "burst", in.Burst}, {in.SetDailyQuota, "daily_quota", in.DailyQuota},
		{in.SetMonthlyQuota, "monthly_quota", in.MonthlyQuota}, {in.SetMaxCredentials, "max_credentials_per_user", in.MaxCredentials},
		{in.SetMaxWebhooks, "max_webhooks_per_user", in.MaxWebhooks},
	} {
		if f.set {
			d[f.name] = f.v
		}
	}
	return d
}

// DeletePlan deletes one of a's plans. ErrNotFound when missing or not
// a's; ErrPlanInUse while users are on it.
func (s *Store) DeletePlan(ctx context.Context, a Admin, id uuid.UUID) (p Plan, err error) {
	err = s.inTx(ctx, "DeletePlan", func(tx *sqlx.Tx) error {
		var users int64
		if err := getOne(ctx, tx, &users, sqlPlanLock, id, a.PartnerID); err != nil {
			return err
		}
		if users > 0 {
			return ErrPlanInUse
		}
		if err := getOne(ctx, tx, &p, sqlPlan, id, a.PartnerID); err != nil {
			return err
		}
		var gone uuid.UUID
		if err := getOne(ctx, tx, &gone, sqlDeletePlan, id, a.PartnerID); err != nil {
			return err
		}
		return s.audit(ctx, tx, a, ActionPlanDeleted, TargetPlan, &p.ID, map[string]any{"name": p.Name})
	})
	return p, err
}

// setUserPlan puts user id of a's partner on plan (nil: off any plan) in
// tx. ErrPlanUnknown when the plan is not the partner's, ErrNotFound when
// the user is not. The caller invalidates the user's credentials after
// the commit.
func (s *Store) setUserPlan(ctx context.Context, tx *sqlx.Tx, a Admin, id uuid.UUID, plan *uuid.UUID) error {
	if plan != nil {
		var got uuid.UUID
		if err := getOne(ctx, tx, &got, sqlPlanShare, *plan, a.PartnerID); errors.Is(err, ErrNotFound) {
			return ErrPlanUnknown
		} else if err != nil {
			return err
		}
	}
	var now *uuid.UUID
	return getOne(ctx, tx, &now, sqlSetUserPlan, id, a.PartnerID, plan)
}

// credentialPlan is the plan's part of creating a credential for user: it
// locks the user (creations for it run one at a time, so the count
// holds), refuses past the plan's max_credentials_per_user and says
// whether the plan decides the new key's limit (none was given). A
// missing user is left to the insert, which reports it.
func (s *Store) credentialPlan(ctx context.Context, tx *sqlx.Tx, a Admin, in *NewCredential) (fromPlan bool, err error) {
	var row struct {
		PlanID    *uuid.UUID `db:"plan_id"`
		PlanRate  *int       `db:"plan_rate_limit"`
		MaxCreds  *int       `db:"max_credentials_per_user"`
		LiveCreds int        `db:"live_credentials"`
	}
	var locked uuid.UUID
	err = tx.GetContext(ctx, &locked, sqlUserPlanLock, in.UserAccountID, a.PartnerID)
	if err == nil {
		// A new statement, so a new snapshot: it counts what the lock's
		// previous holder committed.
		err = tx.GetContext(ctx, &row, sqlUserPlanLimits, in.UserAccountID, a.PartnerID, s.now())
	}
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return false, nil
		}
		return false, err
	}
	if row.PlanID == nil {
		return false, nil
	}
	if row.MaxCreds != nil && row.LiveCreds >= *row.MaxCreds {
		return false, &CredentialLimitError{Max: *row.MaxCreds}
	}
	if in.RateLimitPerMinute == 0 && row.PlanRate != nil {
		in.RateLimitPerMinute = *row.PlanRate
		return true, nil
	}
	return false, nil
}

// UserUsageSince is what usage_hourly holds for user from hour since on,
// per credential (revoked ones included), and the snapshot it was read in
// (txid_current_snapshot text; "" when the user has no credential): the
// quota counters are rebuilt from it when Redis has lost them.
func (s *Store) UserUsageSince(ctx context.Context, user uuid.UUID, since time.Time) (map[uuid.UUID]int64, string, error) {
	var rows []struct {
		ID       uuid.UUID `db:"credential_id"`
		Total    int64     `db:"total"`
		Snapshot string    `db:"snapshot"`
	}
	if err := s.db.SelectContext(ctx, &rows, sqlUsageUserSince, user, since.UTC()); err != nil {
		return nil, "", err
	}
	out := make(map[uuid.UUID]int64, len(rows))
	snap := ""
	for _, r := range rows {
		out[r.ID] = r.Total
		snap = r.Snapshot
	}
	return out, snap, nil
}
