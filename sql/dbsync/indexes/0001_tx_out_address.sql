-- (address_id in the address-table variant, where tx_out has no address.)
-- Address lookups (UTxOs, balances, history) filter tx_out on the address
-- text. Stock db-sync comments this index out because it is slow to build.
-- btree rather than hash: it also serves (address, tx_id) range walks for
-- history pages ("paid to" side, newest or oldest first, stopping after a
-- page). INCLUDE (index) lets the core-mode "spent from" side and the
-- history count probe tx_in with (tx_id, index) without visiting the heap.
CREATE INDEX IF NOT EXISTS sg_tx_out_address_tx_id ON tx_out ({{if .AddressTable}}address_id{{else}}address{{end}}, tx_id) INCLUDE (index);
