-- follow_cost_model: the cost model of the newest epoch parameters (a new
-- epoch's parameters keep it, as db-sync reuses a cost_model row by hash).
SELECT COALESCE(cost_model_id, 0) FROM epoch_param ORDER BY epoch_no DESC, id DESC LIMIT 1
