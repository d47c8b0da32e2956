-- probe: does the server answer at all (its own connection, a short timeout).
SELECT 1
