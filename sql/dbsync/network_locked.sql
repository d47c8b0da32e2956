-- network_locked: the lovelace held by unspent outputs whose payment part
-- is a script (Blockfrost's supply.locked). It reads every unspent output:
-- a background pass on the primary with its own statement timeout, once an
-- epoch (internal/answer/bf network.go), never on a request; exempt from the
-- index check.
SELECT COALESCE(sum(o.value), 0)::text AS locked
FROM tx_out o
{{joinAddress "o"}}
WHERE {{hasScript "o"}} AND {{unspent "o"}}
