-- follow_constitution: the newest constitution (0 before Conway), which the
-- governance state of each new epoch (epoch_state) names.
SELECT COALESCE(max(id), 0) FROM constitution
