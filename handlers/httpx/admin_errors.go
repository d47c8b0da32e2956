package httpx

import (
	"net/http"
	"strings"

	"github.com/syncgate/syncgate/admin"
)

// Messages of the administration endpoints (docs/DECISIONS.md "Messages and lists";
// the ones the spec leaves open are listed in docs/DECISIONS.md).
var (
	ErrBootstrapUsers      = NewAPIError(http.StatusBadRequest, "Bootstrap key cannot manage users. Create an admin key first.")
	ErrBootstrapOnly       = ErrPermissionDenied("bootstrap key")
	ErrUserNameRequired    = NewAPIError(http.StatusBadRequest, "Name is required and must be a non-empty string")
	ErrNameNotEmpty        = NewAPIError(http.StatusBadRequest, "Name must be a non-empty string")
	ErrNameTooLong         = NewAPIError(http.StatusBadRequest, "Name must be 255 characters or less")
	ErrUserNotFound        = NewAPIError(http.StatusNotFound, "User account not found")
	ErrUserNotSuspendable  = NewAPIError(http.StatusNotFound, "User account not found or already suspended")
	ErrUserNotReactivable  = NewAPIError(http.StatusNotFound, "User account not found or not suspended")
	ErrInvalidStatus       = ErrInvalidParam("status", "must be one of active, suspended, pending")
	ErrInvalidCredentialID = NewAPIError(http.StatusBadRequest, "Invalid credential ID format")
	ErrUserAccountIDNeeded = NewAPIError(http.StatusBadRequest, "user_account_id is required")
	ErrNetworkIDNeeded     = NewAPIError(http.StatusBadRequest, "network_id is required (0=Mainnet, 1=Preview, 2=Preprod)")
	ErrExpiresInPast       = NewAPIError(http.StatusBadRequest, "expires_at must be in the future")
	ErrExpiresFormat       = NewAPIError(http.StatusBadRequest, "expires_at must be an ISO 8601 timestamp")
	ErrRateLimitRange      = NewAPIError(http.StatusBadRequest, "rate_limit_per_minute must be an integer from 1 to 10000")
	ErrDescriptionType     = NewAPIError(http.StatusBadRequest, "description must be a string or null")
	ErrMetadataType        = NewAPIError(http.StatusBadRequest, "metadata must be a JSON object")
	ErrMetadataContent     = NewAPIError(http.StatusBadRequest, "metadata must not contain \\u0000 characters or numbers beyond double precision range")
	ErrCredentialPatchNone = NewAPIError(http.StatusBadRequest, "At least one field (name or description) must be provided")
	ErrCredentialNotFound  = NewAPIError(http.StatusNotFound, "Credential not found")
	ErrCredentialNotLive   = NewAPIError(http.StatusNotFound, "Credential not found or already revoked")
	ErrEntityNameRequired  = NewAPIError(http.StatusBadRequest, "admin_entity_name is required and must be a non-empty string")
	ErrEntityNameTooLong   = NewAPIError(http.StatusBadRequest, "admin_entity_name must be 255 characters or less")
	ErrPermissionsInvalid  = NewAPIError(http.StatusBadRequest, "permissions must be an array of: "+strings.Join(admin.Permissions, ", "))
	ErrAdminKeyNotLive     = NewAPIError(http.StatusNotFound, "Admin key not found or already revoked")
	ErrRollOverlapRange    = NewAPIError(http.StatusBadRequest, "expires_in_seconds must be an integer from 0 to 604800 (7 days)")
	ErrInvalidAction       = ErrInvalidParam("action", "must be an audit action such as credential.created")
	ErrInvalidAdminKeyID   = ErrInvalidParam("admin_key_id", "must be a UUID")
	ErrInvalidTargetID     = ErrInvalidParam("target_id", "must be a UUID")
	ErrInvalidStartDate    = NewAPIError(http.StatusBadRequest, "Invalid start_date format")
	ErrInvalidEndDate      = NewAPIError(http.StatusBadRequest, "Invalid end_date format")
	ErrUsageDateOrder      = NewAPIError(http.StatusBadRequest, "start_date must be before end_date")
	// The billing export (GET /v1/admin/usage/export) takes whole UTC days only.
	ErrExportStartDateMissing = NewAPIError(http.StatusBadRequest, "start_date is required (YYYY-MM-DD)")
	ErrExportEndDateMissing   = NewAPIError(http.StatusBadRequest, "end_date is required (YYYY-MM-DD)")
	ErrExportStartDate        = NewAPIError(http.StatusBadRequest, "Invalid start_date format: expected YYYY-MM-DD")
	ErrExportEndDate          = NewAPIError(http.StatusBadRequest, "Invalid end_date format: expected YYYY-MM-DD")
	ErrExportDateOrder        = NewAPIError(http.StatusBadRequest, "end_date must not be before start_date")
	ErrExportRangeTooWide     = NewAPIError(http.StatusBadRequest, "The export covers at most 13 months: narrow start_date and end_date")
	ErrExportGranularity      = ErrInvalidParam("granularity", "must be day or month")
	ErrExportFormat           = ErrInvalidParam("format", "must be csv or ndjson")
	// A bound outside these years would be rounded (end of day, end of
	// hour, 30 days back) out of what JSON and PostgreSQL can hold.
	ErrStartDateRange = NewAPIError(http.StatusBadRequest, "Invalid start_date format: the year must be from 0001 to 9998")
	ErrEndDateRange   = NewAPIError(http.StatusBadRequest, "Invalid end_date format: the year must be from 0001 to 9998")
)

// ErrPermissionDenied is the 403 for an admin key lacking perm.
func ErrPermissionDenied(perm string) *APIError {
	return NewAPIError(http.StatusForbidden, "Permission denied: "+perm+" required")
}

// ErrRollPending is the 409 for a credential roll while the previous key
// of an earlier roll still works (until, in the admin records' format).
func ErrRollPending(until string) *APIError {
	return NewAPIError(http.StatusConflict, "Credential was rolled recently: its previous key works until "+until+
		". Roll again after that, or revoke the credential")
}

// ErrUnknownFields is the 400 for body fields a route does not take
// (names sorted), listing the ones it does.
func ErrUnknownFields(unknown, allowed []string) *APIError {
	what := "Unknown field: "
	if len(unknown) > 1 {
		what = "Unknown fields: "
	}
	return NewAPIError(http.StatusBadRequest, what+strings.Join(unknown, ", ")+". Allowed: "+strings.Join(allowed, ", "))
}

// ErrStringField is the 400 for an optional string field of another type.
func ErrStringField(field string) *APIError {
	return NewAPIError(http.StatusBadRequest, field+" must be a string")
}

// ErrFieldTooLong is the 400 for an optional string field over 255 characters.
func ErrFieldTooLong(field string) *APIError {
	return NewAPIError(http.StatusBadRequest, field+" must be 255 characters or less")
}

// ErrNULCharacter is the 400 for a string holding U+0000, which PostgreSQL
// text cannot store.
func ErrNULCharacter(field string) *APIError {
	return NewAPIError(http.StatusBadRequest, field+" must not contain \\u0000 characters")
}
