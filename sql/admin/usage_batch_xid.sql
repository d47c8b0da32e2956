-- usage_batch_xid: the id of the usage flush's transaction (assigned if not yet), so a quota
-- rebuild can tell from its snapshot whether it saw this flush. No parameters, no table.
SELECT txid_current()
