-- insert_audit_log: append one audit entry (in the transaction of the action it records).
-- $1 id, $2 admin_key_id, $3 action, $4 target_id or NULL, $5 target_type,
-- $6 ip_address (text) or NULL, $7 details (json object).
INSERT INTO syncgate.audit_logs (id, admin_key_id, action, target_id, target_type, ip_address, details)
VALUES ($1, $2, $3, $4, $5, $6::inet, $7::jsonb)
