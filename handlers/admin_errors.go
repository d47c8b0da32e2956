package handlers

import (
	"net/http"
	"strings"

	"github.com/syncgate/syncgate/admin"
)

// Messages of the administration endpoints (docs/DECISIONS.md "Messages
// and lists"; every one is an error response in the OpenAPI document).
var (
	errBootstrapUsers      = newAPIError(http.StatusBadRequest, "Bootstrap key cannot manage users. Create an admin key first.")
	errBootstrapOnly       = errPermissionDenied("bootstrap key")
	errUserNameRequired    = newAPIError(http.StatusBadRequest, "Name is required and must be a non-empty string")
	errNameNotEmpty        = newAPIError(http.StatusBadRequest, "Name must be a non-empty string")
	errNameTooLong         = newAPIError(http.StatusBadRequest, "Name must be 255 characters or less")
	errUserNotFound        = newAPIError(http.StatusNotFound, "User account not found")
	errUserNotSuspendable  = newAPIError(http.StatusNotFound, "User account not found or already suspended")
	errUserNotReactivable  = newAPIError(http.StatusNotFound, "User account not found or not suspended")
	errInvalidStatus       = errInvalidParam("status", "must be one of active, suspended, pending")
	errInvalidCredentialID = newAPIError(http.StatusBadRequest, "Invalid credential ID format")
	errUserAccountIDNeeded = newAPIError(http.StatusBadRequest, "user_account_id is required")
	errNetworkIDNeeded     = newAPIError(http.StatusBadRequest, "network_id is required (0=Mainnet, 1=Preview, 2=Preprod)")
	errExpiresInPast       = newAPIError(http.StatusBadRequest, "expires_at must be in the future")
	errExpiresFormat       = newAPIError(http.StatusBadRequest, "expires_at must be an ISO 8601 timestamp")
	errRateLimitRange      = newAPIError(http.StatusBadRequest, "rate_limit_per_minute must be an integer from 1 to 10000")
	errDescriptionType     = newAPIError(http.StatusBadRequest, "description must be a string or null")
	errMetadataType        = newAPIError(http.StatusBadRequest, "metadata must be a JSON object")
	errMetadataContent     = newAPIError(http.StatusBadRequest, "metadata must not contain \\u0000 characters or numbers beyond double precision range")
	errCredentialPatchNone = newAPIError(http.StatusBadRequest, "At least one field (name or description) must be provided")
	errCredentialNotFound  = newAPIError(http.StatusNotFound, "Credential not found")
	errCredentialNotLive   = newAPIError(http.StatusNotFound, "Credential not found or already revoked")
	errEntityNameRequired  = newAPIError(http.StatusBadRequest, "admin_entity_name is required and must be a non-empty string")
	errEntityNameTooLong   = newAPIError(http.StatusBadRequest, "admin_entity_name must be 255 characters or less")
	errPermissionsInvalid  = newAPIError(http.StatusBadRequest, "permissions must be an array of: "+strings.Join(admin.Permissions, ", "))
	errAdminKeyNotLive     = newAPIError(http.StatusNotFound, "Admin key not found or already revoked")
	errRollOverlapRange    = newAPIError(http.StatusBadRequest, "expires_in_seconds must be an integer from 0 to 604800 (7 days)")
	errInvalidAction       = errInvalidParam("action", "must be an audit action such as credential.created")
	errInvalidAdminKeyID   = errInvalidParam("admin_key_id", "must be a UUID")
	errInvalidTargetID     = errInvalidParam("target_id", "must be a UUID")
	errInvalidStartDate    = newAPIError(http.StatusBadRequest, "Invalid start_date format")
	errInvalidEndDate      = newAPIError(http.StatusBadRequest, "Invalid end_date format")
	errUsageDateOrder      = newAPIError(http.StatusBadRequest, "start_date must be before end_date")
	// A bound outside these years would be rounded (end of day, end of
	// hour, 30 days back) out of what JSON and PostgreSQL can hold.
	errStartDateRange = newAPIError(http.StatusBadRequest, "Invalid start_date format: the year must be from 0001 to 9998")
	errEndDateRange   = newAPIError(http.StatusBadRequest, "Invalid end_date format: the year must be from 0001 to 9998")
)

// errPermissionDenied is the 403 for an admin key lacking perm.
func errPermissionDenied(perm string) *apiError {
	return newAPIError(http.StatusForbidden, "Permission denied: "+perm+" required")
}

// errStringField is the 400 for an optional string field of another type.
func errStringField(field string) *apiError {
	return newAPIError(http.StatusBadRequest, field+" must be a string")
}

// errFieldTooLong is the 400 for an optional string field over 255 characters.
func errFieldTooLong(field string) *apiError {
	return newAPIError(http.StatusBadRequest, field+" must be 255 characters or less")
}

// errNULCharacter is the 400 for a string holding U+0000, which PostgreSQL
// text cannot store.
func errNULCharacter(field string) *apiError {
	return newAPIError(http.StatusBadRequest, field+" must not contain \\u0000 characters")
}
