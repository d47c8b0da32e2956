-- The address-table variant (tx_out.use_address_table), made the way
-- db-sync makes it at its first start on an empty database: tx_out and
-- collateral_tx_out gain address_id and lose address, address_has_script
-- and payment_cred (so address_id is their last column), and the address
-- table appears. The tables are altered only while tx_out still has its
-- address column. The address table is created without keys;
-- 0011_address_keys.sql adds db-sync's after the load.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM information_schema.columns
             WHERE table_schema = current_schema() AND table_name = 'tx_out' AND column_name = 'address') THEN
    DROP VIEW IF EXISTS utxo_byron_view;
    DROP VIEW IF EXISTS utxo_view;
    ALTER TABLE tx_out
      ADD COLUMN address_id bigint NOT NULL,
      DROP COLUMN address,
      DROP COLUMN address_has_script,
      DROP COLUMN payment_cred;
    ALTER TABLE collateral_tx_out
      ADD COLUMN address_id bigint NOT NULL,
      DROP COLUMN address,
      DROP COLUMN address_has_script,
      DROP COLUMN payment_cred;
  END IF;
END
$$;

CREATE TABLE IF NOT EXISTS address (
  id               bigserial         NOT NULL,
  address          character varying NOT NULL,
  raw              bytea             NOT NULL,
  has_script       boolean           NOT NULL,
  payment_cred     hash28type,
  stake_address_id bigint
);
