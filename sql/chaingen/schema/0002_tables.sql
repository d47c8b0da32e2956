-- Every db-sync stage-2 table (core tx_out variant) that 13.6.0.x and
-- 13.7.2.1 share. The epoch tables differ by release and are
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

-- The rest of db-sync's stage-2 tables, as its migrations leave them (column
-- order included: columns added by a later migration come last). Most stay
-- empty on a generated chain, as on a db-sync that has not seen such data
-- (Conway governance actions, committees, off-chain vote metadata) or runs
-- without the option that fills them (pool_stat, event_info); the generator
-- fills extra_key_witness, tx_cbor, treasury, reserve, pot_transfer,
-- param_proposal, epoch_state, constitution and voting_anchor.

CREATE TABLE IF NOT EXISTS committee (
  id                     bigserial NOT NULL,
  gov_action_proposal_id bigint,
  quorum_numerator       bigint    NOT NULL,
  quorum_denominator     bigint    NOT NULL
);

CREATE TABLE IF NOT EXISTS committee_de_registration (
  id               bigserial NOT NULL,
  tx_id            bigint    NOT NULL,
  cert_index       integer   NOT NULL,
  voting_anchor_id bigint,
  cold_key_id      bigint    NOT NULL
);

CREATE TABLE IF NOT EXISTS committee_hash (
  id         bigserial  NOT NULL,
  raw        hash28type NOT NULL,
  has_script boolean    NOT NULL
);

CREATE TABLE IF NOT EXISTS committee_member (
  id                bigserial  NOT NULL,
  committee_id      bigint     NOT NULL,
  committee_hash_id bigint     NOT NULL,
  expiration_epoch  word31type NOT NULL
);

CREATE TABLE IF NOT EXISTS committee_registration (
  id          bigserial NOT NULL,
  tx_id       bigint    NOT NULL,
  cert_index  integer   NOT NULL,
  cold_key_id bigint    NOT NULL,
  hot_key_id  bigint    NOT NULL
);

CREATE TABLE IF NOT EXISTS constitution (
  id                     bigserial  NOT NULL,
  gov_action_proposal_id bigint,
  voting_anchor_id       bigint     NOT NULL,
  script_hash            hash28type
);

CREATE TABLE IF NOT EXISTS drep_distr (
  id           bigserial  NOT NULL,
  hash_id      bigint     NOT NULL,
  amount       bigint     NOT NULL,
  epoch_no     word31type NOT NULL,
  active_until word31type
);

CREATE TABLE IF NOT EXISTS drep_registration (
  id               bigserial NOT NULL,
  tx_id            bigint    NOT NULL,
  cert_index       integer   NOT NULL,
  deposit          bigint,
  drep_hash_id     bigint    NOT NULL,
  voting_anchor_id bigint
);

CREATE TABLE IF NOT EXISTS epoch_state (
  id               bigserial  NOT NULL,
  committee_id     bigint,
  no_confidence_id bigint,
  constitution_id  bigint,
  epoch_no         word31type NOT NULL
);

CREATE TABLE IF NOT EXISTS epoch_sync_time (
  id      bigserial     NOT NULL,
  no      bigint        NOT NULL,
  seconds word63type    NOT NULL,
  state   syncstatetype NOT NULL
);

CREATE TABLE IF NOT EXISTS event_info (
  id          bigserial         NOT NULL,
  tx_id       bigint,
  epoch       word31type        NOT NULL,
  type        character varying NOT NULL,
  explanation character varying
);

CREATE TABLE IF NOT EXISTS extra_key_witness (
  id    bigserial  NOT NULL,
  hash  hash28type NOT NULL,
  tx_id bigint     NOT NULL
);

CREATE TABLE IF NOT EXISTS gov_action_proposal (
  id                       bigserial     NOT NULL,
  tx_id                    bigint        NOT NULL,
  index                    bigint        NOT NULL,
  prev_gov_action_proposal bigint,
  deposit                  lovelace      NOT NULL,
  return_address           bigint        NOT NULL,
  expiration               word31type,
  voting_anchor_id         bigint,
  type                     govactiontype NOT NULL,
  description              jsonb         NOT NULL,
  param_proposal           bigint,
  ratified_epoch           word31type,
  enacted_epoch            word31type,
  dropped_epoch            word31type,
  expired_epoch            word31type
);

CREATE TABLE IF NOT EXISTS new_committee (
  id                     bigserial         NOT NULL,
  gov_action_proposal_id bigint            NOT NULL,
  deleted_members        character varying NOT NULL,
  added_members          character varying NOT NULL,
  quorum_numerator       bigint            NOT NULL,
  quorum_denominator     bigint            NOT NULL
);

CREATE TABLE IF NOT EXISTS off_chain_vote_author (
  id                     bigserial         NOT NULL,
  off_chain_vote_data_id bigint            NOT NULL,
  name                   character varying,
  witness_algorithm      character varying NOT NULL,
  public_key             character varying NOT NULL,
  signature              character varying NOT NULL,
  warning                character varying
);

CREATE TABLE IF NOT EXISTS off_chain_vote_data (
  id               bigserial         NOT NULL,
  voting_anchor_id bigint            NOT NULL,
  hash             bytea             NOT NULL,
  json             jsonb             NOT NULL,
  bytes            bytea             NOT NULL,
  warning          character varying,
  language         character varying NOT NULL,
  comment          character varying,
  is_valid         boolean
);

CREATE TABLE IF NOT EXISTS off_chain_vote_drep_data (
  id                     bigserial         NOT NULL,
  off_chain_vote_data_id bigint            NOT NULL,
  payment_address        character varying,
  given_name             character varying NOT NULL,
  objectives             character varying,
  motivations            character varying,
  qualifications         character varying,
  image_url              character varying,
  image_hash             character varying
);

CREATE TABLE IF NOT EXISTS off_chain_vote_external_update (
  id                     bigserial         NOT NULL,
  off_chain_vote_data_id bigint            NOT NULL,
  title                  character varying NOT NULL,
  uri                    character varying NOT NULL
);

CREATE TABLE IF NOT EXISTS off_chain_vote_fetch_error (
  id               bigserial                   NOT NULL,
  voting_anchor_id bigint                      NOT NULL,
  fetch_error      character varying           NOT NULL,
  fetch_time       timestamp without time zone NOT NULL,
  retry_count      word31type                  NOT NULL
);

CREATE TABLE IF NOT EXISTS off_chain_vote_gov_action_data (
  id                     bigserial         NOT NULL,
  off_chain_vote_data_id bigint            NOT NULL,
  title                  character varying NOT NULL,
  abstract               character varying NOT NULL,
  motivation             character varying NOT NULL,
  rationale              character varying NOT NULL
);

CREATE TABLE IF NOT EXISTS off_chain_vote_reference (
  id                     bigserial         NOT NULL,
  off_chain_vote_data_id bigint            NOT NULL,
  label                  character varying NOT NULL,
  uri                    character varying NOT NULL,
  hash_digest            character varying,
  hash_algorithm         character varying
);

-- Pre-Conway protocol parameter update proposals: one row per genesis key
-- of the proposal, only the proposed parameters set.
CREATE TABLE IF NOT EXISTS param_proposal (
  id                               bigserial        NOT NULL,
  epoch_no                         word31type,
  key                              hash28type,
  min_fee_a                        word64type,
  min_fee_b                        word64type,
  max_block_size                   word64type,
  max_tx_size                      word64type,
  max_bh_size                      word64type,
  key_deposit                      lovelace,
  pool_deposit                     lovelace,
  max_epoch                        word64type,
  optimal_pool_count               word64type,
  influence                        double precision,
  monetary_expand_rate             double precision,
  treasury_growth_rate             double precision,
  decentralisation                 double precision,
  entropy                          hash32type,
  protocol_major                   word31type,
  protocol_minor                   word31type,
  min_utxo_value                   lovelace,
  min_pool_cost                    lovelace,
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
  registered_tx_id                 bigint           NOT NULL,
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

CREATE TABLE IF NOT EXISTS pool_stat (
  id                   bigserial  NOT NULL,
  pool_hash_id         bigint     NOT NULL,
  epoch_no             word31type NOT NULL,
  number_of_blocks     word64type NOT NULL,
  number_of_delegators word64type NOT NULL,
  stake                word64type NOT NULL,
  voting_power         word64type
);

-- MIR certificates (pre-Conway): pot transfers, and instant rewards from
-- the treasury or the reserves (paid as reward_rest one epoch later).
CREATE TABLE IF NOT EXISTS pot_transfer (
  id         bigserial NOT NULL,
  cert_index integer   NOT NULL,
  treasury   int65type NOT NULL,
  reserves   int65type NOT NULL,
  tx_id      bigint    NOT NULL
);

CREATE TABLE IF NOT EXISTS reserve (
  id         bigserial NOT NULL,
  addr_id    bigint    NOT NULL,
  cert_index integer   NOT NULL,
  amount     int65type NOT NULL,
  tx_id      bigint    NOT NULL
);

CREATE TABLE IF NOT EXISTS reverse_index (
  id       bigserial         NOT NULL,
  block_id bigint            NOT NULL,
  min_ids  character varying NOT NULL
);

CREATE TABLE IF NOT EXISTS treasury (
  id         bigserial NOT NULL,
  addr_id    bigint    NOT NULL,
  cert_index integer   NOT NULL,
  amount     int65type NOT NULL,
  tx_id      bigint    NOT NULL
);

CREATE TABLE IF NOT EXISTS treasury_withdrawal (
  id                     bigserial NOT NULL,
  gov_action_proposal_id bigint    NOT NULL,
  stake_address_id       bigint    NOT NULL,
  amount                 lovelace  NOT NULL
);

CREATE TABLE IF NOT EXISTS tx_cbor (
  id    bigserial NOT NULL,
  tx_id bigint    NOT NULL,
  bytes bytea     NOT NULL
);

CREATE TABLE IF NOT EXISTS voting_anchor (
  id        bigserial         NOT NULL,
  url       character varying NOT NULL,
  data_hash bytea             NOT NULL,
  type      anchortype        NOT NULL,
  block_id  bigint            NOT NULL
);

CREATE TABLE IF NOT EXISTS voting_procedure (
  id                     bigserial NOT NULL,
  tx_id                  bigint    NOT NULL,
  index                  integer   NOT NULL,
  gov_action_proposal_id bigint    NOT NULL,
  voter_role             voterrole NOT NULL,
  drep_voter             bigint,
  pool_voter             bigint,
  vote                   vote      NOT NULL,
  voting_anchor_id       bigint,
  committee_voter        bigint,
  invalid                bigint
);
