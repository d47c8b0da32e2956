// Package chaingen is syncgate's synthetic chain generator: a tool that
// writes a deterministic, realistic cardano-db-sync database for `syncgate
// seed`, `syncgate demo`, the tests of every package and the load
// benchmark. It is not part of reading db-sync (package dbsync does that).
// It creates the db-sync tables it fills (when absent) and loads the
// chain with COPY.
//
// The chain: a Byron genesis and two Byron epochs (20-second slots, epoch
// boundary blocks), then ten Shelley-based epochs of 432000 one-second slots
// going through the Shelley, Allegra, Mary, Alonzo, Babbage and Conway eras;
// the tip is 70 % into the last epoch, at Options.TipTime. Block counts per
// epoch scale with the number of transactions (mainnet has 21600 per
// epoch; here about Txs/10/txPerBlock). Contents follow what db-sync would
// have written for such a chain: balanced transactions spending a live UTxO
// set, stake certificates and delegations, pools registering, updating,
// retiring and re-registering, rewards and MIR payments, per-epoch stake
// distributions, pots and parameters, native assets with CIP-25 and CIP-68
// metadata (real examples from the project's test vectors), Plutus
// transactions with datums, redeemers, reference inputs and scripts,
// phase-2-failed transactions stored as db-sync stores them, required
// signers, pre-Conway MIR certificates and update proposals, Conway
// governance state, and each Conway-era transaction's CBOR (tx_cbor). It
// creates every one of db-sync 13.7.2.1's relations; the ones nothing
// fills stay empty.
//
// The same chain can be written in every db-sync layout (Variant): each
// tx_out.value (core, consumed, prune, bootstrap, disable), with or without
// tx_out.use_address_table, on the 13.7 or the 13.6 schema. Layouts keep
// different parts of the chain (prune deletes spent outputs, bootstrap
// stores only the UTxO set, disable no outputs), never a different chain.
//
// Generation is deterministic for a given Seed and TipTime, streams rows to
// PostgreSQL with COPY as it goes (bounded memory), and builds db-sync's
// keys and indexes after the load when it created the tables itself.
//
// Where things are, by what they write:
//
//	seed.go        Seed: options, the load, keys and indexes, singletons
//	variant.go     the layouts: Mode, Schema, Variant
//	spends.go      the dry pass's history; which outputs prune/bootstrap keep
//	manifest.go    the manifest of notable entities, and how it is built
//	schema.go      db-sync DDL (sql/chaingen/schema) per layout, and running it
//	tables.go      the COPY targets, column for column db-sync's
//	copy.go        COPY text encoding and the writer connections
//	gen.go         the generator's state, randomness, run
//	layout.go      epochs, eras, slots and protocol constants
//	setup.go       the population: wallets, stake keys, pools, quotas
//	tasks.go       each epoch's planned non-ordinary transactions
//	blocks.go      block, slot_leader; genesis and each epoch's blocks
//	epochs.go      epoch boundaries: epoch_finalized (13.6: epoch), epoch_param, ada_pots
//	txs.go         tx, tx_out, tx_in, collateral; building balanced payments
//	traffic.go     ordinary payments, funding, the busy slot
//	wallets.go     addresses (and the address table) and the live UTxO set
//	stake.go       stake_address, registrations, delegation, rewards, epoch_stake
//	pools.go       pool_hash, pool_update, pool_retire, pool metadata
//	assets.go      multi_asset, ma_tx_mint, CIP-25 and CIP-68 tokens
//	plutus.go      script, datum, redeemer; the DEX and failed transactions
//	governance.go  drep_hash, delegation_vote, epoch_state
//	gov*.go        Conway governance on a random source of its own: DReps,
//	               committee, proposals and their life, votes, off-chain
//	               anchor documents, drep_distr, pool_stat; the metadata
//	               showcase and the ADA Handle (gov_extras.go); the
//	               manifest's GovernanceRefs and ExtraRefs
//	mir.go         MIR certificates: reserve, treasury, pot_transfer
//	updates.go     pre-Conway update proposals: param_proposal
//	txcbor.go      Conway transaction CBOR (tx_cbor), required signers
//	cbor.go        CBOR/JSON for metadata, Plutus data and native scripts
//	vectors.go     the real on-chain examples placed on the chain
//	follow*.go     the chain follower (follow_gov.go: its votes): blocks appended to a seeded database
//	               as db-sync writes them at the tip, epoch boundaries, rollbacks,
//	               submitted transactions (follow_submitted.go)
//	demo_wallet.go the demo wallet: a known key, funded by one block
package chaingen
