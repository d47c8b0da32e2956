-- event_insert: write decided events, one per array position, and a pending push delivery for
-- each that pushes, in one statement (a second statement cost its round trips and parsed the
-- ids again).
-- $1 ids (uuid[]), $2 webhook ids (uuid[]), $3 sequence numbers (bigint[]), $4 types (text[]),
-- $5 transaction hashes (bytea[], empty: none), $6 block heights (bigint[], -1: none),
-- $7 block hashes (bytea[], empty: none), $8 bodies (text: one after another, each but the
-- first after the character 0x1E, which JSON never holds raw), $9 created at (timestamptz),
-- $10 whether each is pushed (boolean[]).
WITH e AS MATERIALIZED (
  SELECT *
  FROM unnest($1::uuid[], $2::uuid[], $3::bigint[], $4::text[], $5::bytea[], $6::bigint[], $7::bytea[],
      string_to_array($8::text, chr(30)), $10::boolean[])
    AS e(id, webhook_id, seq, type, tx_hash, block_no, block_hash, body, push)
), written AS (
  INSERT INTO syncgate.webhook_events (id, webhook_id, seq, type, tx_hash, block_no, block_hash, body, created_at)
  SELECT e.id, e.webhook_id, e.seq, e.type, NULLIF(e.tx_hash, ''::bytea), NULLIF(e.block_no, -1),
    NULLIF(e.block_hash, ''::bytea), e.body, $9
  FROM e
)
INSERT INTO syncgate.webhook_deliveries (event_id, webhook_id, created_at)
SELECT e.id, e.webhook_id, $9
FROM e
WHERE e.push
