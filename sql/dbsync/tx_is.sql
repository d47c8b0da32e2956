-- tx_is: whether transaction id $1 still has hash $2 (bytea). A remembered
-- history anchor is used only while it does: a rollback deletes the newest
-- transactions, and the ids db-sync gives the replacing ones are new.
-- Indexes: tx_pkey.
SELECT EXISTS (SELECT 1 FROM tx WHERE id = $1 AND hash = $2)
