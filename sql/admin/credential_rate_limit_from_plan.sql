-- credential_rate_limit_from_plan: mark a credential created without rate_limit_per_minute, so
-- its user's plan decides its limit at each request.
-- $1 credential id. Uses credentials_pkey.
UPDATE syncgate.credentials
SET rate_limit_explicit = false
WHERE id = $1
