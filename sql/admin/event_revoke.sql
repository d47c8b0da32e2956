-- event_revoke: mark tx.confirmed events as revoked by the tx.rolled_back events written for
-- them in the same transaction.
-- $1 revoked event ids (uuid[]), $2 revoking event ids (uuid[]).
UPDATE syncgate.webhook_events AS e
SET revoked_by = r.by
FROM unnest($1::uuid[], $2::uuid[]) AS r(id, by)
WHERE e.id = r.id
