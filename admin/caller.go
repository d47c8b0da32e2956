// Package admin is syncgate's partner data: admin keys, user accounts, API
// credentials, usage and the audit log, kept in PostgreSQL schema syncgate.
// It never imports gin or net/http; its SQL lives in sql/admin/.
//
// Files by resource: key.go (admin keys and their authentication),
// user.go, credential.go, audit.go, security.go (denied admin requests),
// usage.go and usage_hourly.go (usage reads); usage_recorder.go counts
// data requests; migrate.go applies the schema; demo.go makes the demo's
// keys. Data API keys are authenticated by package auth: every change that
// can make a key fail or work again tells it (Options.Invalidator) once it
// has committed. Every change, and every read of one record, writes its
// audit entry in the same transaction; a list reads in one snapshot and
// writes its entry right after that commits (store.go, inSnapshotTx).
package admin

import (
	"errors"
	"slices"

	"github.com/google/uuid"
)

// Permissions an admin key can hold (OpenAPI schema AdminKey, docs/DECISIONS.md).
const (
	PermManageUsers       = "manage_users"
	PermManageCredentials = "manage_credentials"
	PermViewUsage         = "view_usage"
	PermViewAuditLogs     = "view_audit_logs"
)

// Permissions lists every permission, in the order messages name them.
var Permissions = []string{PermManageUsers, PermManageCredentials, PermViewUsage, PermViewAuditLogs}

// ValidPermission reports whether p is a known permission name.
func ValidPermission(p string) bool { return slices.Contains(Permissions, p) }

// BootstrapKeyID is the fixed row (migration 0002, admin_entity_name
// "bootstrap") that audit entries of the bootstrap key reference. The
// bootstrap key itself is never stored.
var BootstrapKeyID = uuid.MustParse("00000000-0000-0000-0000-000000000001")

// Admin is an authenticated admin key, or the bootstrap key. It is the
// actor of every admin store method: ownership is checked against
// PartnerID and audit entries are written in its name (ID), with IP.
type Admin struct {
	ID uuid.UUID
	// PartnerID owns what the key creates and is what ownership checks
	// compare; uuid.Nil for the bootstrap key, which owns nothing.
	PartnerID   uuid.UUID
	EntityName  string
	Permissions []string
	Bootstrap   bool
	IP          string // request IP for the audit log; "" when unknown (CLI)
}

// Bootstrap returns the bootstrap key's actor.
func Bootstrap(ip string) Admin {
	return Admin{ID: BootstrapKeyID, EntityName: "bootstrap", Bootstrap: true, IP: ip}
}

// Can reports whether the key may use endpoints needing perm. The bootstrap
// key passes every check but owns no users or credentials, so what it can
// reach there is empty (lists) or 404 (ids); creating users is refused by
// CreateUser itself.
func (a Admin) Can(perm string) bool {
	return a.Bootstrap || slices.Contains(a.Permissions, perm)
}

// Audit actions (OpenAPI schema AuditEntry; docs/DECISIONS.md "Audit").
const (
	ActionCredentialCreated = "credential.created"
	ActionCredentialRevoked = "credential.revoked"
	ActionCredentialViewed  = "credential.viewed"
	ActionCredentialListed  = "credential.listed"
	ActionCredentialUpdated = "credential.updated"
	ActionUserCreated       = "user_account.created"
	ActionUserUpdated       = "user_account.updated"
	ActionUserSuspended     = "user_account.suspended"
	ActionUserReactivated   = "user_account.reactivated"
	ActionUserViewed        = "user_account.viewed"
	ActionUserListed        = "user_account.listed"
	ActionAdminKeyCreated   = "admin_key.created"
	ActionAdminKeyRevoked   = "admin_key.revoked"
	ActionAdminKeyListed    = "admin_key.listed"
	ActionAdminKeyRolled    = "admin_key.rolled"
	ActionCredentialRolled  = "credential.rolled"
	ActionSecurityEventRead = "security_event.viewed"
	TargetSecurityEvent     = "security_event"
	ActionUsageViewed       = "usage.viewed"
	ActionAuditLogViewed    = "audit_log.viewed"
	TargetCredential        = "credential"
	TargetUserAccount       = "user_account"
	TargetAdminKey          = "admin_key"
	TargetAuditLog          = "audit_log"
)

// Store errors the handlers turn into the spec's messages.
var (
	// ErrNotFound: the resource does not exist or the caller does not own
	// it (the two are deliberately indistinguishable).
	ErrNotFound = errors.New("admin: not found")
	// ErrBootstrapUsers: the bootstrap key cannot manage users.
	ErrBootstrapUsers = errors.New("admin: bootstrap key cannot manage users")
)
