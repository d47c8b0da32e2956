-- big_known_block: whether block $1 (hash, hex) is on the chain: the
-- manifest bench --add-big copies must describe this database (its tip
-- may have moved on since: followers append blocks).
-- Index: unique_block (hash).
SELECT EXISTS (SELECT 1 FROM block b WHERE b.hash = decode($1, 'hex')) AS known
