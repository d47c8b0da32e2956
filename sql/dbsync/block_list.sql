-- block_list: blocks as Blockfrost describes them (fragments.sql
-- block_content), in chain order: those of heights $1..$2 (bigint; none
-- when $1 > $2) and those of the ids $3 (bigint[], blocks without a height).
-- Indexes: idx_block_block_no (the range), block_pkey (the ids); then
-- block_content's.
WITH tip AS (
  {{template "tip_height"}}
), target AS (
  (SELECT b.* FROM block b WHERE b.block_no BETWEEN $1::bigint AND $2::bigint)
  UNION ALL
  (SELECT b.* FROM block b WHERE b.id = ANY($3::bigint[]))
)
{{template "block_content"}}
ORDER BY b.id
