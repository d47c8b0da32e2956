package chaingen

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/blinklabs-io/gouroboros/ledger/common"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/sql"
)

// The follower's statements (sql/chaingen/follow_*.sql). The templated
// ones are rendered for the database's layout by dbsync's renderer.
var (
	sqlFollowTip          = sqlfiles.Must("chaingen/follow_tip.sql")
	sqlFollowSystemStart  = sqlfiles.Must("chaingen/follow_system_start.sql")
	sqlFollowLastID       = sqlfiles.Must("chaingen/follow_last_id.sql")
	sqlFollowTokens       = sqlfiles.Must("chaingen/follow_tokens.sql")
	sqlFollowHasTxOut     = sqlfiles.Must("chaingen/follow_has_tx_out.sql")
	sqlFollowUTxOAssets   = sqlfiles.Must("chaingen/follow_utxo_assets.sql")
	sqlFollowStakeID      = sqlfiles.Must("chaingen/follow_stake_id.sql")
	sqlFollowLeaders      = sqlfiles.Must("chaingen/follow_leaders.sql")
	sqlFollowCostModel    = sqlfiles.Must("chaingen/follow_cost_model.sql")
	sqlFollowConsume      = sqlfiles.Must("chaingen/follow_consume.sql")
	sqlFollowEpochFinal   = sqlfiles.Compose("chaingen/follow_epoch_finalize.sql")
	sqlFollowEpochUpsert  = sqlfiles.Compose("chaingen/follow_epoch_upsert.sql")
	sqlFollowEpochStake   = sqlfiles.Must("chaingen/follow_epoch_stake.sql")
	sqlFollowRewards      = sqlfiles.Must("chaingen/follow_rewards.sql")
	sqlFollowConstitution = sqlfiles.Must("chaingen/follow_constitution.sql")
	sqlFollowGovParams    = sqlfiles.Must("chaingen/follow_gov_params.sql")
	sqlFollowGovBoundary  = sqlfiles.Must("chaingen/follow_gov_boundary.sql")
	sqlFollowGovReturn    = sqlfiles.Must("chaingen/follow_gov_return.sql")
	sqlFollowDRepDistr    = sqlfiles.Must("chaingen/follow_drep_distr.sql")
	sqlFollowGovVoters    = sqlfiles.Must("chaingen/follow_gov_voters.sql")
	sqlRollbackParamProp  = sqlfiles.Must("chaingen/follow_rollback_param_proposal.sql")
	sqlRollbackPoint      = sqlfiles.Must("chaingen/follow_rollback_point.sql")
	sqlRollbackTxTables   = sqlfiles.Must("chaingen/follow_rollback_tx_tables.sql")
	sqlRollbackTxRows     = sqlfiles.Must("chaingen/follow_rollback_tx_rows.sql")
	sqlRollbackUnconsume  = sqlfiles.Must("chaingen/follow_rollback_unconsume.sql")
	sqlRollbackMaTxOut    = sqlfiles.Must("chaingen/follow_rollback_ma_tx_out.sql")
	sqlRollbackTxIn       = sqlfiles.Must("chaingen/follow_rollback_tx_in.sql")
	sqlRollbackCollTxIn   = sqlfiles.Must("chaingen/follow_rollback_collateral_tx_in.sql")
	sqlRollbackRefTxIn    = sqlfiles.Must("chaingen/follow_rollback_reference_tx_in.sql")
	sqlRollbackTxOut      = sqlfiles.Must("chaingen/follow_rollback_tx_out.sql")
	sqlRollbackTx         = sqlfiles.Must("chaingen/follow_rollback_tx.sql")
	sqlRollbackEpochRows  = sqlfiles.Must("chaingen/follow_rollback_epoch_rows.sql")
	sqlRollbackEpochFinal = sqlfiles.Must("chaingen/follow_rollback_epoch_finalized.sql")
	sqlRollbackEpoch136   = sqlfiles.Must("chaingen/follow_rollback_epoch.sql")
	sqlRollbackBlock      = sqlfiles.Must("chaingen/follow_rollback_block.sql")

	// Rendered per layout (dbsync.Render); loaded here so that the file is
	// known to be used.
	_ = sqlfiles.Must(fileFollowAddress)
	_ = sqlfiles.Must(fileFollowUTxOs)
	_ = sqlfiles.Must(fileFollowPots)
	_ = sqlfiles.Must(fileFollowRecent)
)

const (
	fileFollowAddress = "chaingen/follow_address.sql"
	fileFollowUTxOs   = "chaingen/follow_utxos.sql"
	fileFollowPots    = "chaingen/follow_pots.sql"
	fileFollowRecent  = "chaingen/follow_recent_addresses.sql"
)

// utxosPerWallet bounds the unspent outputs the follower loads per
// address (the newest ones): enough to pay from, bounded for the whale.
const utxosPerWallet = 60

// Follower appends blocks to a seeded db-sync database as db-sync does
// while following the tip. Each block is one PostgreSQL transaction:
// the block row, then its transactions written by the generator's own
// writers (tx, tx_out, or address and tx_out in the address-table variant,
// ma_tx_out, tx_in in the core layout, tx_out.consumed_by_tx_id on the
// spent outputs in the consumed, prune and bootstrap layouts), and, for
// the first block of an epoch, what the generator writes at an epoch
// boundary: the finished epoch's epoch_finalized row (13.7; the 13.6 epoch
// table's current row is kept up to date at every block), member rewards,
// the stake snapshot (epoch_stake, epoch_stake_progress), ada_pots,
// epoch_param and epoch_state. Each transaction gets its CBOR (tx_cbor,
// tx.hash being its body's hash) and now and then required signers. Ids continue the tables' sequences, which the follower
// advances as db-sync's inserts would.
//
// Traffic: payments between the followed addresses (deposits to them every
// block or few), a native asset riding along now and then, and the
// transactions FollowOptions.Pending hands in. The follower's in-memory
// UTxO set of those addresses is loaded from the database at the start and
// after each rollback.
//
// A Follower is not safe for concurrent use.
type Follower struct {
	db     *sql.DB
	opts   FollowOptions
	v      Variant
	layout dbsync.Layout
	g      *gen

	tip         BlockRef
	leaders     []leaderRow
	txTables    []string
	stmtAddr    string
	stmtUTxOs   string
	stmtPots    string
	walletBy    map[string]int32
	spendable   []int32
	journal     []journalBlock
	queue       []PendingTx
	appended    int
	maxRollback int

	sinceRollback int
	// building: the outputs spent so far by the block being built.
	building []spentOut
	sub      submittedBlock
}

type leaderRow struct {
	id      int64
	vrf     string
	opCert  []byte
	counter int64
}

// journalBlock is a block this follower appended, kept while a rollback
// may still remove it.
type journalBlock struct {
	ref     BlockRef
	prev    BlockRef
	pending []PendingTx
}

// maxJournal bounds how far back the follower can roll back its own blocks.
const maxJournal = 16

// NewFollower reads the database's tip, layout and the followed addresses'
// unspent outputs, ready to Step.
func NewFollower(ctx context.Context, db *sql.DB, opts FollowOptions) (*Follower, error) {
	f := &Follower{db: db, opts: opts, walletBy: map[string]int32{}, maxRollback: opts.MaxRollback}
	if f.maxRollback <= 0 {
		f.maxRollback = 3
	}
	if f.opts.TxsPerBlock == 0 {
		f.opts.TxsPerBlock = 2
	}
	if err := db.PingContext(ctx); err != nil {
		return nil, followErr("connect", err)
	}
	var err error
	if f.v, err = detectVariant(ctx, db, opts.Manifest); err != nil {
		return nil, err
	}
	// db-sync's relations the database lacks (one seeded by an older
	// generator) are created, so that every table a block may write exists;
	// on a database db-sync made, this changes nothing.
	if err := CreateVariantSchema(ctx, db, f.v); err != nil {
		return nil, followErr("schema", err)
	}
	f.layout = dbsync.Layout{Consumed: f.v.Mode.fillsConsumed(), AddressTable: f.v.AddressTable}
	for _, s := range []struct {
		file string
		dst  *string
	}{{fileFollowAddress, &f.stmtAddr}, {fileFollowUTxOs, &f.stmtUTxOs}, {fileFollowPots, &f.stmtPots}} {
		if *s.dst, err = dbsync.Render(s.file, f.layout, nil); err != nil {
			return nil, followErr(s.file, err)
		}
	}

	var hash []byte
	var blockNo, epoch int64
	var bt time.Time
	var maj, mnr int64
	if err := db.QueryRowContext(ctx, sqlFollowTip).Scan(&f.tip.ID, &hash, &blockNo, &f.tip.Slot, &epoch, &bt, &maj, &mnr); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, ErrNoChain
		}
		return nil, followErr("tip", err)
	}
	f.tip.Hash, f.tip.BlockNo, f.tip.Epoch, f.tip.Time = fmt.Sprintf("%x", hash), blockNo, int(epoch), bt.UTC()

	// The generator's state, reused for its transaction builder and row
	// writers: its per-epoch accounting covers the seeded epochs only, so
	// transactions are built under the tip epoch's rules (Conway) and the
	// follower keeps epochs itself.
	buildMode := f.v.Mode
	if buildMode == ModeBootstrap {
		buildMode = ModePrune // db-sync at the tip after a bootstrap: outputs and fees as in prune mode
	}
	g := newGen(ctx, Options{Seed: opts.Seed, Mode: buildMode, AddressTable: f.v.AddressTable, Schema: f.v.Schema}, nil)
	// The random stream starts from the seed and the tip: a follower
	// started again on a database it followed before draws new block (and
	// transaction) hashes, not the ones its first run already wrote.
	g.r = rand.New(rand.NewPCG(uint64(opts.Seed)^binary.BigEndian.Uint64(hash[:8]), uint64(f.tip.ID)))
	g.epoch = tipEpoch
	g.whale, g.dex, g.batcher, g.lock, g.refHolder, g.issuer68 = -1, -1, -1, -1, -1, -1
	g.hoskyIss, g.burnIss, g.maxIss, g.nftMinter, g.busy = -1, -1, -1, -1, -1
	if err := db.QueryRowContext(ctx, sqlFollowSystemStart).Scan(&g.start); err != nil {
		return nil, followErr("system start", err)
	}
	g.start = g.start.UTC()
	g.txHashByID = map[int64][]byte{}
	f.g = g
	if err := f.loadConstitution(ctx); err != nil {
		return nil, err
	}
	if err := f.loadIDs(ctx); err != nil {
		return nil, err
	}
	var cm int64
	if err := db.QueryRowContext(ctx, sqlFollowCostModel).Scan(&cm); err == nil && cm > 0 {
		g.costModels = map[int]int64{3: cm}
	}
	if err := f.loadLeaders(ctx); err != nil {
		return nil, err
	}
	rows, err := db.QueryContext(ctx, sqlRollbackTxTables)
	if err != nil {
		return nil, followErr("tables", err)
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return nil, followErr("tables", err)
		}
		f.txTables = append(f.txTables, name)
	}
	rows.Close()
	if err := f.loadWallets(ctx); err != nil {
		return nil, err
	}
	if err := f.reloadUTxOs(ctx); err != nil {
		return nil, err
	}
	f.logf("follow: %s layout, tip block %d (slot %d, epoch %d), %d addresses", f.v, f.tip.BlockNo, f.tip.Slot, f.tip.Epoch,
		len(g.wallets))
	return f, nil
}

// Tip is the newest block the follower knows (its own or the seeded one).
func (f *Follower) Tip() BlockRef { return f.tip }

// Appended counts the blocks this follower appended (rolled-back ones
// included).
func (f *Follower) Appended() int { return f.appended }

// Variant is the layout the follower writes.
func (f *Follower) Variant() Variant { return f.v }

// Addresses lists the followed addresses.
func (f *Follower) Addresses() []string {
	out := make([]string, len(f.g.wallets))
	for i := range f.g.wallets {
		out[i] = f.g.wallets[i].addr
	}
	return out
}

// detectVariant takes the layout from the manifest, or from what db-sync
// records in extra_migrations and the tables present.
func detectVariant(ctx context.Context, db *sql.DB, m *Manifest) (Variant, error) {
	if m != nil && m.Mode != "" {
		v := Variant{Mode: m.Mode, AddressTable: m.AddressTable, Schema: m.Schema}.normal()
		return v, v.valid()
	}
	var v Variant
	rows, err := db.QueryContext(ctx, sqlFollowTokens)
	if err != nil {
		return v, followErr("extra_migrations", err)
	}
	tokens := map[string]bool{}
	for rows.Next() {
		var tok string
		if err := rows.Scan(&tok); err != nil {
			rows.Close()
			return v, followErr("extra_migrations", err)
		}
		tokens[tok] = true
	}
	rows.Close()
	switch {
	case tokens[tokenBootStart]:
		v.Mode = ModeBootstrap
	case tokens[tokenPrune]:
		v.Mode = ModePrune
	case tokens[tokenConsumed]:
		v.Mode = ModeConsumed
	default:
		v.Mode = ModeCore
		var has bool
		if err := db.QueryRowContext(ctx, sqlFollowHasTxOut).Scan(&has); err != nil {
			return v, followErr("tx_out", err)
		}
		if !has {
			v.Mode = ModeDisable
		}
	}
	v.AddressTable = tokens[tokenAddress]
	fin, err := tableExists(ctx, db, "epoch_finalized")
	if err != nil {
		return v, followErr("epoch_finalized", err)
	}
	v.Schema = Schema137
	if !fin {
		v.Schema = Schema136
	}
	return v.normal(), nil
}

// idCounter maps each table's name to the generator's id counter for it.
func (g *gen) idCounter(name string) *int64 {
	m := map[string]*int64{
		"block": &g.ids.block, "tx": &g.ids.tx, "tx_out": &g.ids.txOut, "tx_in": &g.ids.txIn,
		"ma_tx_out": &g.ids.maTxOut, "ma_tx_mint": &g.ids.maTxMint, "multi_asset": &g.ids.multiAsset,
		"stake_address": &g.ids.stakeAddress, "pool_hash": &g.ids.poolHash, "slot_leader": &g.ids.slotLeader,
		"collateral_tx_in": &g.ids.collTxIn, "collateral_tx_out": &g.ids.collTxOut, "reference_tx_in": &g.ids.refTxIn,
		"tx_metadata": &g.ids.txMetadata, "datum": &g.ids.datum, "redeemer": &g.ids.redeemer,
		"redeemer_data": &g.ids.redeemerData, "script": &g.ids.script, "cost_model": &g.ids.costModel,
		"stake_registration": &g.ids.stakeReg, "stake_deregistration": &g.ids.stakeDereg,
		"delegation": &g.ids.delegation, "withdrawal": &g.ids.withdrawal, "epoch_stake": &g.ids.epochStake,
		"epoch_stake_progress": &g.ids.epochStakeProgress, "pool_update": &g.ids.poolUpdate,
		"pool_relay": &g.ids.poolRelay, "pool_owner": &g.ids.poolOwner, "pool_retire": &g.ids.poolRetire,
		"pool_metadata_ref": &g.ids.poolMetaRef, "ada_pots": &g.ids.adaPots, "epoch_param": &g.ids.epochParam,
		"drep_hash": &g.ids.drepHash, "delegation_vote": &g.ids.delegationVote,
		"off_chain_pool_data": &g.ids.offChainPoolData, "address": &g.ids.address,
		"extra_key_witness": &g.ids.extraKeyWitness, "tx_cbor": &g.ids.txCbor, "treasury": &g.ids.treasury,
		"reserve": &g.ids.reserve, "pot_transfer": &g.ids.potTransfer, "param_proposal": &g.ids.paramProposal,
		"epoch_state": &g.ids.epochState, "constitution": &g.ids.constitution, "voting_anchor": &g.ids.votingAnchor,
		"drep_registration": &g.ids.drepRegistration, "drep_distr": &g.ids.drepDistr,
		"gov_action_proposal": &g.ids.govActionProposal, "voting_procedure": &g.ids.votingProcedure,
		"committee": &g.ids.committee, "committee_member": &g.ids.committeeMember, "committee_hash": &g.ids.committeeHash,
		"committee_registration": &g.ids.committeeRegistration, "committee_de_registration": &g.ids.committeeDeRegistration,
		"treasury_withdrawal": &g.ids.treasuryWithdrawal, "pool_stat": &g.ids.poolStat,
		"off_chain_vote_data": &g.ids.offChainVoteData, "off_chain_vote_drep_data": &g.ids.offChainVoteDrepData,
		"off_chain_vote_gov_action_data": &g.ids.offChainVoteGovActionData,
		"off_chain_vote_fetch_error":     &g.ids.offChainVoteFetchError, "off_chain_vote_author": &g.ids.offChainVoteAuthor,
		"off_chain_vote_reference": &g.ids.offChainVoteReference,
	}
	return m[name]
}

// loadIDs sets the generator's id counters to the tables' sequences.
func (f *Follower) loadIDs(ctx context.Context) error {
	for _, tb := range newTables(false, f.v).all() {
		p := f.g.idCounter(tb.name)
		if p == nil || tb.cols[0] != "id" {
			continue
		}
		if err := f.db.QueryRowContext(ctx, sqlFollowLastID, tb.name).Scan(p); err != nil {
			return followErr("sequence of "+tb.name, err)
		}
	}
	return nil
}

func (f *Follower) loadLeaders(ctx context.Context) error {
	rows, err := f.db.QueryContext(ctx, sqlFollowLeaders)
	if err != nil {
		return followErr("slot leaders", err)
	}
	defer rows.Close()
	for rows.Next() {
		var l leaderRow
		if err := rows.Scan(&l.id, &l.vrf, &l.opCert, &l.counter); err != nil {
			return followErr("slot leaders", err)
		}
		f.leaders = append(f.leaders, l)
	}
	if err := rows.Err(); err != nil {
		return followErr("slot leaders", err)
	}
	if len(f.leaders) == 0 {
		return followErr("slot leaders", errors.New("no pool produced a recent block"))
	}
	return nil
}

// followedAddresses: the manifest's key-locked addresses, then
// opts.Addresses; without either, the addresses of recent unspent outputs.
func (f *Follower) followedAddresses(ctx context.Context) ([]string, error) {
	var addrs []string
	if m := f.opts.Manifest; m != nil {
		addrs = append(addrs, m.Whale.Address)
		for _, a := range m.Addresses {
			addrs = append(addrs, a.Address)
		}
		addrs = append(addrs, m.AssetAddress.Address, m.ByronAddress.Address)
		addrs = append(addrs, m.Credentials.Payment.Addresses...)
	}
	addrs = append(addrs, f.opts.Addresses...)
	if len(addrs) > 0 || f.v.Mode == ModeDisable {
		return addrs, nil
	}
	q, err := dbsync.Render(fileFollowRecent, f.layout, nil)
	if err != nil {
		return nil, followErr(fileFollowRecent, err)
	}
	rows, err := f.db.QueryContext(ctx, q)
	if err != nil {
		return nil, followErr("recent addresses", err)
	}
	defer rows.Close()
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			return nil, followErr("recent addresses", err)
		}
		addrs = append(addrs, a)
	}
	return addrs, rows.Err()
}

func (f *Follower) loadWallets(ctx context.Context) error {
	addrs, err := f.followedAddresses(ctx)
	if err != nil {
		return err
	}
	for _, a := range addrs {
		if a == "" {
			continue
		}
		w, err := f.walletFor(ctx, a)
		if err != nil {
			return err
		}
		if !f.g.wallets[w].script {
			f.spendable = append(f.spendable, w)
		}
	}
	return nil
}

// walletFor returns the generator wallet of an address, made from its
// newest tx_out row (or, for an address the database has not seen, from
// the address itself).
func (f *Follower) walletFor(ctx context.Context, addr string) (int32, error) {
	if w, ok := f.walletBy[addr]; ok {
		return w, nil
	}
	g := f.g
	wl := wallet{addr: addr, stake: -1, fundedPos: -1, kind: wBase}
	var stakeID int64
	err := f.db.QueryRowContext(ctx, f.stmtAddr, addr).Scan(&wl.addrID, &wl.script, &wl.payCred, &stakeID)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		a, perr := common.NewAddress(addr)
		if perr != nil {
			return -1, followErr("address "+addr, perr)
		}
		switch a.Type() {
		case common.AddressTypeByron:
			wl.kind = wByron
		case common.AddressTypeScriptKey, common.AddressTypeScriptScript, common.AddressTypeScriptNone,
			common.AddressTypeScriptPointer:
			wl.script = true
			h := a.PaymentKeyHash()
			wl.payCred = h[:]
		default:
			h := a.PaymentKeyHash()
			wl.payCred = h[:]
		}
		if sa := a.StakeAddress(); sa != nil {
			if raw, berr := sa.Bytes(); berr == nil {
				if e := f.db.QueryRowContext(ctx, sqlFollowStakeID, raw).Scan(&stakeID); e != nil && !errors.Is(e, sql.ErrNoRows) {
					return -1, followErr("stake address of "+addr, e)
				}
			}
		}
	case err != nil:
		return -1, followErr("address "+addr, err)
	}
	if stakeID > 0 {
		g.stakes = append(g.stakes, stakeKey{id: stakeID, pool: -1, regEpoch: -1, drep: -1})
		wl.stake = int32(len(g.stakes) - 1)
	}
	if wl.script {
		wl.special = true // receives only: the follower holds no script witness
	}
	g.wallets = append(g.wallets, wl)
	w := int32(len(g.wallets) - 1)
	if wl.stake >= 0 {
		g.stakes[wl.stake].wallets = append(g.stakes[wl.stake].wallets, w)
	}
	f.walletBy[addr] = w
	return w, nil
}

// reloadUTxOs replaces the in-memory UTxO set of the spendable wallets with
// their newest unspent outputs in the database.
func (f *Follower) reloadUTxOs(ctx context.Context) error {
	g := f.g
	for i := range g.wallets {
		wl := &g.wallets[i]
		wl.utxos, wl.balance, wl.fundedPos = nil, 0, -1
	}
	for i := range g.stakes {
		g.stakes[i].utxoBal, g.stakes[i].utxos = 0, 0
	}
	g.funded, g.utxoTotal = nil, 0
	g.txHashByID = map[int64][]byte{}
	if f.v.Mode == ModeDisable {
		return nil
	}
	type row struct {
		w int32
		u utxo
	}
	var all []row
	var ids []int64
	for _, w := range f.spendable {
		rows, err := f.db.QueryContext(ctx, f.stmtUTxOs, g.wallets[w].addr, utxosPerWallet)
		if err != nil {
			return followErr("unspent outputs", err)
		}
		for rows.Next() {
			var u utxo
			var value string
			var hash []byte
			if err := rows.Scan(&u.outID, &u.txID, &u.index, &value, &hash); err != nil {
				rows.Close()
				return followErr("unspent outputs", err)
			}
			if u.value, err = strconv.ParseUint(value, 10, 64); err != nil {
				rows.Close()
				return followErr("unspent outputs", err)
			}
			g.txHashByID[u.txID] = hash
			all = append(all, row{w, u})
			ids = append(ids, u.outID)
		}
		rows.Close()
	}
	assets := map[int64][]assetQty{}
	if len(ids) > 0 {
		rows, err := f.db.QueryContext(ctx, sqlFollowUTxOAssets, pq.Array(ids))
		if err != nil {
			return followErr("assets", err)
		}
		for rows.Next() {
			var outID, maID int64
			var policy, name []byte
			var fp, qty string
			if err := rows.Scan(&outID, &maID, &policy, &name, &fp, &qty); err != nil {
				rows.Close()
				return followErr("assets", err)
			}
			q, err := strconv.ParseUint(qty, 10, 64)
			if err != nil {
				continue // above 2^64-1 cannot be; leave such an output's asset out
			}
			key := string(policy) + string(name)
			a, ok := g.assetBy[key]
			if !ok {
				g.assets = append(g.assets, asset{policy: policy, name: name, id: maID, fingerprint: fp})
				a = int32(len(g.assets) - 1)
				g.assetBy[key] = a
			}
			assets[outID] = addAssets(assets[outID], []assetQty{{asset: a, qty: q}})
		}
		rows.Close()
	}
	// Oldest first, as the wallet's list grows.
	for i := len(all) - 1; i >= 0; i-- {
		r := all[i]
		r.u.assets = assets[r.u.outID]
		g.addUTxO(r.w, r.u)
	}
	return nil
}

// loadConstitution reads the constitution and committee in force, which
// each new epoch's governance state names, and the parameters governance
// changed, which each new epoch keeps.
func (f *Follower) loadConstitution(ctx context.Context) error {
	if err := f.db.QueryRowContext(ctx, sqlFollowConstitution).Scan(&f.g.constitutionID, &f.g.followCommittee); err != nil {
		return followErr("constitution", err)
	}
	return f.loadGovParams(ctx)
}
