-- insert_security_event: record one denied admin request.
-- $1 created_at, $2 ip_address (text) or NULL, $3 method, $4 path, $5 status, $6 reason,
-- $7 admin_key_id or NULL, $8 request_id.
INSERT INTO syncgate.security_events (created_at, ip_address, method, path, status, reason, admin_key_id, request_id)
VALUES ($1, $2::inet, $3, $4, $5, $6, $7, $8)
