-- webhook_user_live: a user's live webhooks (every network, disabled ones included: their
-- feed still takes account notices), for an account event.
-- $1 user account id (uuid). Index: webhooks_user_idx.
SELECT id, network
FROM syncgate.webhooks
WHERE user_account_id = $1 AND deleted_at IS NULL
ORDER BY id
