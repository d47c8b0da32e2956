-- follow_constitution: the constitution and the committee in force (0
-- before Conway), which the governance state of each new epoch
-- (epoch_state) names: those of the newest epoch_state, else the genesis
-- constitution.
SELECT COALESCE((SELECT constitution_id FROM epoch_state ORDER BY epoch_no DESC, id DESC LIMIT 1),
                (SELECT max(id) FROM constitution WHERE gov_action_proposal_id IS NULL), 0),
       COALESCE((SELECT committee_id FROM epoch_state ORDER BY epoch_no DESC, id DESC LIMIT 1), 0)
