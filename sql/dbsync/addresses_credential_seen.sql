-- addresses_credential_seen: whether any output was ever paid to an
-- address whose payment credential is $1 (true or false, one row).
-- $1 bytea 28-byte key or script hash
-- Indexes: idx_tx_out_payment_cred (one entry); address-table variant:
-- idx_address_payment_cred, then sg_tx_out_address_tx_id.
SELECT EXISTS (SELECT 1 FROM tx_out o WHERE {{credentialIs "o" "$1"}}) AS seen
