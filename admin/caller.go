// Package admin is syncgate's own store: admin keys, user accounts, API
// credentials, usage and the audit log, kept in PostgreSQL schema syncgate.
// It never imports gin or net/http; its SQL lives in sql/admin/.
package admin

import (
	"errors"

	"github.com/google/uuid"
)

// Permissions an admin key can hold (spec §5.4, DECISIONS.md).
const (
	PermManageUsers       = "manage_users"
	PermManageCredentials = "manage_credentials"
	PermViewUsage         = "view_usage"
	PermViewAuditLogs     = "view_audit_logs"
)

// Caller is the authenticated owner of a data API key (a credential).
type Caller struct {
	CredentialID       uuid.UUID
	UserAccountID      uuid.UUID
	KeyPrefix          string
	NetworkID          int
	RateLimitPerMinute int
}

// Authentication failures of a data API key (DECISIONS.md messages are
// attached by the handlers).
var (
	ErrInvalidKey   = errors.New("admin: invalid api key")
	ErrKeyRevoked   = errors.New("admin: api key revoked")
	ErrKeyExpired   = errors.New("admin: api key expired")
	ErrUserInactive = errors.New("admin: user account not active")
)
