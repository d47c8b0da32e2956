-- create_partner: start a partner (tenant) for a new admin key.
-- $1 id, $2 name (the first key's admin_entity_name).
INSERT INTO syncgate.partners (id, name)
VALUES ($1, $2)
