-- prune_submissions: delete up to $2 submission log rows last submitted before $1, oldest
-- first, in one short statement; the caller repeats until fewer than $2 go.
-- Uses tx_submissions_last_idx.
DELETE FROM syncgate.tx_submissions
WHERE (network, tx_hash) IN (
  SELECT network, tx_hash FROM syncgate.tx_submissions
  WHERE last_submitted_at < $1
  ORDER BY last_submitted_at
  LIMIT $2
)
