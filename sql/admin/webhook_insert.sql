-- webhook_insert: create a webhook; returns it (events.Webhook columns).
-- $1 user account id, $2 network, $3 url (NULL: pull only), $4 description, $5 depth,
-- $6 event types (text[]), $7 sealed secret (bytea), $8 scanned_through (the start height),
-- $9 created at, $10 body format ('standard' or 'blockfrost').
INSERT INTO syncgate.webhooks AS w (user_account_id, network, url, description, depth, event_types,
  secret_sealed, scanned_through, created_at, format)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
RETURNING
{{template "webhook_columns"}}
