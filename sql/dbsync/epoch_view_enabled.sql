-- epoch_view_enabled: whether the 13.7 epoch view returns rows.
SELECT COALESCE((SELECT enabled FROM epoch_sync_enabled LIMIT 1), FALSE) AS enabled
