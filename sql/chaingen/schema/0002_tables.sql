-- db-sync stage-2 tables that the chain generator fills (core tx_out
-- variant), plus the empty pool side tables an API may join: the tables
-- 13.6.0.x and 13.7.2.1 share. The epoch tables differ by release and are
-- in 0002_tables_13.6.sql / 0002_tables_13.7.sql; the address-table
-- variant is made from these by 0010_address_variant.sql, as db-sync
-- makes it.
--
-- Column names, order, types (domains where db-sync uses them), nullability,
-- defaults and generated columns follow the schema db-sync's migrations
-- build. Primary keys and unique constraints are deliberately NOT declared
-- here: 0004_constraints.sql adds them under db-sync's names, after the bulk
-- load when the generator created the tables itself. Every table is created
-- only when absent, so an existing db-sync schema is left as it is.

CREATE TABLE IF NOT EXISTS schema_version (
  id          bigserial NOT NULL,
  stage_one   bigint    NOT NULL,
  stage_two   bigint    NOT NULL,
  stage_three bigint    NOT NULL
);

CREATE TABLE IF NOT EXISTS pool_hash (
  id       bigserial         NOT NULL,
  hash_raw hash28type        NOT NULL,
  view     character varying NOT NULL
);

CREATE TABLE IF NOT EXISTS slot_leader (
  id           bigserial         NOT NULL,
  hash         hash28type        NOT NULL,
  pool_hash_id bigint,
  description  character varying NOT NULL
);

CREATE TABLE IF NOT EXISTS block (
  id              bigserial                   NOT NULL,
  hash            hash32type                  NOT NULL,
  epoch_no        word31type,
  slot_no         word63type,
  epoch_slot_no   word31type,
  block_no        word31type,
  previous_id     bigint,
  slot_leader_id  bigint                      NOT NULL,
  size            word31type                  NOT NULL,
  "time"          timestamp without time zone NOT NULL,
  tx_count        bigint                      NOT NULL,
  proto_major     word31type                  NOT NULL,
  proto_minor     word31type                  NOT NULL,
  vrf_key         character varying,
  op_cert         hash32type,
  op_cert_counter word63type
);

CREATE TABLE IF NOT EXISTS tx (
  id                bigserial  NOT NULL,
  hash              hash32type NOT NULL,
  block_id          bigint     NOT NULL,
  block_index       word31type NOT NULL,
  out_sum           lovelace   NOT NULL,
  fee               lovelace   NOT NULL,
  deposit           bigint,
  size              word31type NOT NULL,
  invalid_before    word64type,
  invalid_hereafter word64type,
  valid_contract    boolean    NOT NULL,
  script_size       word31type NOT NULL,
  treasury_donation lovelace   DEFAULT 0 NOT NULL
);

CREATE TABLE IF NOT EXISTS stake_address (
  id          bigserial         NOT NULL,
  hash_raw    addr29type        NOT NULL,
  view        character varying NOT NULL,
  script_hash hash28type
);

CREATE TABLE IF NOT EXISTS tx_out (
  id                  bigserial         NOT NULL,
  tx_id               bigint            NOT NULL,
  index               txindex           NOT NULL,
  address             character varying NOT NULL,
  address_has_script  boolean           NOT NULL,
  payment_cred        hash28type,
  stake_address_id    bigint,
  value               lovelace          NOT NULL,
  data_hash           hash32type,
  inline_datum_id     bigint,
  reference_script_id bigint,
  consumed_by_tx_id   bigint
);

CREATE TABLE IF NOT EXISTS collateral_tx_out (
  id                  bigserial         NOT NULL,
  tx_id               bigint            NOT NULL,
  index               txindex           NOT NULL,
  address             character varying NOT NULL,
  address_has_script  boolean           NOT NULL,
  payment_cred        hash28type,
  stake_address_id    bigint,
  value               lovelace          NOT NULL,
  data_hash           hash32type,
  multi_assets_descr  character varying NOT NULL,
  inline_datum_id     bigint,
  reference_script_id bigint
);

CREATE TABLE IF NOT EXISTS tx_in (
  id           bigserial NOT NULL,
  tx_in_id     bigint    NOT NULL,
  tx_out_id    bigint    NOT NULL,
  tx_out_index txindex   NOT NULL,
  redeemer_id  bigint
);

CREATE TABLE IF NOT EXISTS collateral_tx_in (
  id           bigserial NOT NULL,
  tx_in_id     bigint    NOT NULL,
  tx_out_id    bigint    NOT NULL,
  tx_out_index txindex   NOT NULL
);

CREATE TABLE IF NOT EXISTS reference_tx_in (
  id           bigserial NOT NULL,
  tx_in_id     bigint    NOT NULL,
  tx_out_id    bigint    NOT NULL,
  tx_out_index txindex   NOT NULL
);

CREATE TABLE IF NOT EXISTS meta (
  id           bigserial                   NOT NULL,
  start_time   timestamp without time zone NOT NULL,
  network_name character varying           NOT NULL,
  version      character varying           NOT NULL
);

CREATE TABLE IF NOT EXISTS ada_pots (
  id                bigserial  NOT NULL,
  slot_no           word63type NOT NULL,
  epoch_no          word31type NOT NULL,
  treasury          lovelace   NOT NULL,
  reserves          lovelace   NOT NULL,
  rewards           lovelace   NOT NULL,
  utxo              lovelace   NOT NULL,
  deposits_stake    lovelace   NOT NULL,
  fees              lovelace   NOT NULL,
  block_id          bigint     NOT NULL,
  deposits_drep     lovelace   NOT NULL,
  deposits_proposal lovelace   NOT NULL
);

CREATE TABLE IF NOT EXISTS pool_metadata_ref (
  id               bigserial         NOT NULL,
  pool_id          bigint            NOT NULL,
  url              character varying NOT NULL,
  hash             hash32type        NOT NULL,
  registered_tx_id bigint            NOT NULL
);

CREATE TABLE IF NOT EXISTS pool_update (
  id               bigserial        NOT NULL,
  hash_id          bigint           NOT NULL,
  cert_index       integer          NOT NULL,
  vrf_key_hash     hash32type       NOT NULL,
  pledge           lovelace         NOT NULL,
  active_epoch_no  bigint           NOT NULL,
  meta_id          bigint,
  margin           double precision NOT NULL,
  fixed_cost       lovelace         NOT NULL,
  registered_tx_id bigint           NOT NULL,
  reward_addr_id   bigint           NOT NULL,
  deposit          lovelace
);

CREATE TABLE IF NOT EXISTS pool_owner (
  id             bigserial NOT NULL,
  addr_id        bigint    NOT NULL,
  pool_update_id bigint    NOT NULL
);

CREATE TABLE IF NOT EXISTS pool_retire (
  id              bigserial  NOT NULL,
  hash_id         bigint     NOT NULL,
  cert_index      integer    NOT NULL,
  announced_tx_id bigint     NOT NULL,
  retiring_epoch  word31type NOT NULL
);

CREATE TABLE IF NOT EXISTS pool_relay (
  id           bigserial NOT NULL,
  update_id    bigint    NOT NULL,
  ipv4         character varying,
  ipv6         character varying,
  dns_name     character varying,
  dns_srv_name character varying,
  port         integer
);

CREATE TABLE IF NOT EXISTS stake_registration (
  id         bigserial  NOT NULL,
  addr_id    bigint     NOT NULL,
  cert_index integer    NOT NULL,
  epoch_no   word31type NOT NULL,
  tx_id      bigint     NOT NULL,
  deposit    lovelace
);

CREATE TABLE IF NOT EXISTS stake_deregistration (
  id          bigserial  NOT NULL,
  addr_id     bigint     NOT NULL,
  cert_index  integer    NOT NULL,
  epoch_no    word31type NOT NULL,
  tx_id       bigint     NOT NULL,
  redeemer_id bigint
);

CREATE TABLE IF NOT EXISTS delegation (
  id              bigserial  NOT NULL,
  addr_id         bigint     NOT NULL,
  cert_index      integer    NOT NULL,
  pool_hash_id    bigint     NOT NULL,
  active_epoch_no bigint     NOT NULL,
  tx_id           bigint     NOT NULL,
  slot_no         word63type NOT NULL,
  redeemer_id     bigint
);

-- Conway vote delegations (db-sync 13.7, stage 2). drep_hash.raw is NULL
-- for the two predefined DReps, whose view is drep_always_abstain or
-- drep_always_no_confidence; db-sync creates no stage-3/4 index on either.
CREATE TABLE IF NOT EXISTS drep_hash (
  id         bigserial         NOT NULL,
  raw        hash28type,
  view       character varying NOT NULL,
  has_script boolean           NOT NULL
);

CREATE TABLE IF NOT EXISTS delegation_vote (
  id           bigserial NOT NULL,
  addr_id      bigint    NOT NULL,
  cert_index   integer   NOT NULL,
  drep_hash_id bigint    NOT NULL,
  tx_id        bigint    NOT NULL,
  redeemer_id  bigint
);

CREATE TABLE IF NOT EXISTS tx_metadata (
  id    bigserial  NOT NULL,
  key   word64type NOT NULL,
  json  jsonb,
  bytes bytea      NOT NULL,
  tx_id bigint     NOT NULL
);

-- earned_epoch is computed by PostgreSQL exactly as db-sync defines it: the
-- spendable epoch for a pool-deposit refund, otherwise two epochs earlier
-- (never below 0).
CREATE TABLE IF NOT EXISTS reward (
  addr_id         bigint     NOT NULL,
  type            rewardtype NOT NULL,
  amount          lovelace   NOT NULL,
  spendable_epoch bigint     NOT NULL,
  pool_id         bigint     NOT NULL,
  earned_epoch    bigint     NOT NULL GENERATED ALWAYS AS (
    CASE
      WHEN type = 'refund'::rewardtype THEN spendable_epoch
      WHEN spendable_epoch >= 2 THEN spendable_epoch - 2
      ELSE 0::bigint
    END) STORED
);

-- reward_rest (MIR payments, proposal refunds): earned one epoch before it
-- is spendable (never below 0).
CREATE TABLE IF NOT EXISTS reward_rest (
  addr_id         bigint     NOT NULL,
  type            rewardtype NOT NULL,
  amount          lovelace   NOT NULL,
  spendable_epoch bigint     NOT NULL,
  earned_epoch    bigint     NOT NULL GENERATED ALWAYS AS (
    CASE
      WHEN spendable_epoch >= 1 THEN spendable_epoch - 1
      ELSE 0::bigint
    END) STORED
);

CREATE TABLE IF NOT EXISTS withdrawal (
  id          bigserial NOT NULL,
  addr_id     bigint    NOT NULL,
  amount      lovelace  NOT NULL,
  redeemer_id bigint,
  tx_id       bigint    NOT NULL
);

CREATE TABLE IF NOT EXISTS epoch_stake (
  id       bigserial  NOT NULL,
  addr_id  bigint     NOT NULL,
  pool_id  bigint     NOT NULL,
  amount   lovelace   NOT NULL,
  epoch_no word31type NOT NULL
);

CREATE TABLE IF NOT EXISTS epoch_stake_progress (
  id        bigserial  NOT NULL,
  epoch_no  word31type NOT NULL,
  completed boolean    NOT NULL
);

CREATE TABLE IF NOT EXISTS ma_tx_mint (
  id       bigserial NOT NULL,
  quantity int65type NOT NULL,
  tx_id    bigint    NOT NULL,
  ident    bigint    NOT NULL
);

CREATE TABLE IF NOT EXISTS ma_tx_out (
  id        bigserial  NOT NULL,
  quantity  word64type NOT NULL,
  tx_out_id bigint     NOT NULL,
  ident     bigint     NOT NULL
);

CREATE TABLE IF NOT EXISTS multi_asset (
  id          bigserial         NOT NULL,
  policy      hash28type        NOT NULL,
  name        asset32type       NOT NULL,
  fingerprint character varying NOT NULL
);

CREATE TABLE IF NOT EXISTS datum (
  id    bigserial  NOT NULL,
  hash  hash32type NOT NULL,
  tx_id bigint     NOT NULL,
  value jsonb,
  bytes bytea      NOT NULL
);

CREATE TABLE IF NOT EXISTS redeemer_data (
  id    bigserial  NOT NULL,
  hash  hash32type NOT NULL,
  tx_id bigint     NOT NULL,
  value jsonb,
  bytes bytea      NOT NULL
);

CREATE TABLE IF NOT EXISTS redeemer (
  id               bigserial         NOT NULL,
  tx_id            bigint            NOT NULL,
  unit_mem         word63type        NOT NULL,
  unit_steps       word63type        NOT NULL,
  fee              lovelace,
  purpose          scriptpurposetype NOT NULL,
  index            word31type        NOT NULL,
  script_hash      hash28type,
  redeemer_data_id bigint            NOT NULL
);

CREATE TABLE IF NOT EXISTS script (
  id              bigserial  NOT NULL,
  tx_id           bigint     NOT NULL,
  hash            hash28type NOT NULL,
  type            scripttype NOT NULL,
  json            jsonb,
  bytes           bytea,
  serialised_size word31type
);

CREATE TABLE IF NOT EXISTS cost_model (
  id    bigserial  NOT NULL,
  costs jsonb      NOT NULL,
  hash  hash32type NOT NULL
);

CREATE TABLE IF NOT EXISTS epoch_param (
  id                               bigserial        NOT NULL,
  epoch_no                         word31type       NOT NULL,
  min_fee_a                        word31type       NOT NULL,
  min_fee_b                        word31type       NOT NULL,
  max_block_size                   word31type       NOT NULL,
  max_tx_size                      word31type       NOT NULL,
  max_bh_size                      word31type       NOT NULL,
  key_deposit                      lovelace         NOT NULL,
  pool_deposit                     lovelace         NOT NULL,
  max_epoch                        word31type       NOT NULL,
  optimal_pool_count               word31type       NOT NULL,
  influence                        double precision NOT NULL,
  monetary_expand_rate             double precision NOT NULL,
  treasury_growth_rate             double precision NOT NULL,
  decentralisation                 double precision NOT NULL,
  protocol_major                   word31type       NOT NULL,
  protocol_minor                   word31type       NOT NULL,
  min_utxo_value                   lovelace         NOT NULL,
  min_pool_cost                    lovelace         NOT NULL,
  nonce                            hash32type,
  cost_model_id                    bigint,
  price_mem                        double precision,
  price_step                       double precision,
  max_tx_ex_mem                    word64type,
  max_tx_ex_steps                  word64type,
  max_block_ex_mem                 word64type,
  max_block_ex_steps               word64type,
  max_val_size                     word64type,
  collateral_percent               word31type,
  max_collateral_inputs            word31type,
  block_id                         bigint           NOT NULL,
  extra_entropy                    hash32type,
  coins_per_utxo_size              lovelace,
  pvt_motion_no_confidence         double precision,
  pvt_committee_normal             double precision,
  pvt_committee_no_confidence      double precision,
  pvt_hard_fork_initiation         double precision,
  dvt_motion_no_confidence         double precision,
  dvt_committee_normal             double precision,
  dvt_committee_no_confidence      double precision,
  dvt_update_to_constitution       double precision,
  dvt_hard_fork_initiation         double precision,
  dvt_p_p_network_group            double precision,
  dvt_p_p_economic_group           double precision,
  dvt_p_p_technical_group          double precision,
  dvt_p_p_gov_group                double precision,
  dvt_treasury_withdrawal          double precision,
  committee_min_size               word64type,
  committee_max_term_length        word64type,
  gov_action_lifetime              word64type,
  gov_action_deposit               word64type,
  drep_deposit                     word64type,
  drep_activity                    word64type,
  pvtpp_security_group             double precision,
  min_fee_ref_script_cost_per_byte double precision
);

CREATE TABLE IF NOT EXISTS extra_migrations (
  id          bigserial         NOT NULL,
  token       character varying NOT NULL,
  description character varying
);

-- Off-chain pool metadata is not fetched by default since db-sync 13.7.0.1,
-- so these stay empty, as they would on a default installation.
CREATE TABLE IF NOT EXISTS off_chain_pool_data (
  id          bigserial         NOT NULL,
  pool_id     bigint            NOT NULL,
  ticker_name character varying NOT NULL,
  hash        hash32type        NOT NULL,
  json        jsonb             NOT NULL,
  bytes       bytea             NOT NULL,
  pmr_id      bigint            NOT NULL
);

CREATE TABLE IF NOT EXISTS off_chain_pool_fetch_error (
  id          bigserial                   NOT NULL,
  pool_id     bigint                      NOT NULL,
  fetch_time  timestamp without time zone NOT NULL,
  pmr_id      bigint                      NOT NULL,
  fetch_error character varying           NOT NULL,
  retry_count word31type                  NOT NULL
);

CREATE TABLE IF NOT EXISTS reserved_pool_ticker (
  id        bigserial         NOT NULL,
  name      character varying NOT NULL,
  pool_hash hash28type        NOT NULL
);

CREATE TABLE IF NOT EXISTS delisted_pool (
  id       bigserial  NOT NULL,
  hash_raw hash28type NOT NULL
);
