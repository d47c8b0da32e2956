package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
	"golang.org/x/crypto/blake2b"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/sql"
)

// The big entities: `bench --add-big` appends to a seeded db-sync blocks
// after the tip holding the sizes the Blockfrost targets name, written as
// db-sync writes them:
//
//   - one minting policy with 100,000 assets, minted 100 a transaction,
//     each transaction paying its 100 to one output of the minter's base
//     address (multi_asset, ma_tx_mint, tx_out, ma_tx_out);
//   - one DRep (drep_hash, drep_registration) with 50,000 delegators: new
//     stake keys registered and vote-delegated 50 a transaction
//     (stake_registration, delegation_vote), each paid one output holding
//     lovelace and one unit of the policy's first asset, minted in the
//     same transaction (an airdrop), so that asset is held by 50,001
//     addresses and the delegators' live stake comes from their outputs;
//   - one stake address (the minter's stake key) with 500 leader reward
//     rows. db-sync's reward.earned_epoch is generated (spendable - 2) and
//     the routes list the rows spendable by the tip's epoch, so on a
//     chain of 12 epochs the rows are leader rewards of 50 pools in each
//     of the 10 earned epochs spendable now (a multi-pool operator's
//     reward account): the same 500 rows the route sorts, not 500
//     distinct epochs, which would need the chain 490 epochs longer.
//
// The transactions go 50 a block, 20 slots apart, in the tip's epoch.

var (
	sqlBigPresent    = sqlfiles.BenchMust("bench/big_present.sql")
	sqlBigKnownBlock = sqlfiles.BenchMust("bench/big_known_block.sql")
	sqlBigTxs        = sqlfiles.BenchMust("bench/big_tx_insert.sql")
	sqlBigTxOuts     = sqlfiles.BenchMust("bench/big_tx_out_insert.sql")
	sqlBigAssets     = sqlfiles.BenchMust("bench/big_multi_asset_insert.sql")
	sqlBigMints      = sqlfiles.BenchMust("bench/big_ma_tx_mint_insert.sql")
	sqlBigHeld       = sqlfiles.BenchMust("bench/big_ma_tx_out_insert.sql")
	sqlBigStake      = sqlfiles.BenchMust("bench/big_stake_insert.sql")
	sqlBigStakeReg   = sqlfiles.BenchMust("bench/big_stake_registration_insert.sql")
	sqlBigVotes      = sqlfiles.BenchMust("bench/big_delegation_vote_insert.sql")
	sqlBigDRep       = sqlfiles.BenchMust("bench/big_drep_insert.sql")
	sqlBigDRepReg    = sqlfiles.BenchMust("bench/big_drep_registration_insert.sql")
	sqlBigPools      = sqlfiles.BenchMust("bench/big_pools.sql")
	sqlBigRewards    = sqlfiles.BenchMust("bench/big_reward_insert.sql")
)

const (
	bigLabel         = "syncgate bench big entities"
	bigAssetsPerTx   = 100
	bigDelegatesPerT = 50
	bigTxsPerBlock   = 50
	bigStakeDeposit  = 2_000_000
	bigDRepDeposit   = 500_000_000
)

// bigSizes are the entities' sizes: assets under the policy, reward rows
// of the account, delegators of the DRep.
type bigSizes struct{ Assets, Rewards, Delegators int }

var bigTargetSizes = bigSizes{Assets: 100_000, Rewards: 500, Delegators: 50_000}

// bigRefs names the big entities in the manifest copy ("big_entities").
type bigRefs struct {
	Policy        string `json:"policy"` // hex
	Assets        int    `json:"assets"`
	HeldAsset     string `json:"held_asset"` // unit (policy and name, hex): the airdropped first asset
	Holders       int    `json:"holders"`
	RewardAccount string `json:"reward_account"`
	Rewards       int    `json:"rewards"`
	DRep          string `json:"drep"` // CIP-105 drep1…
	DRepHex       string `json:"drep_hex"`
	Delegators    int    `json:"delegators"`
}

// bigManifest is a manifest copy with the big entities named.
type bigManifest struct {
	*chaingen.Manifest
	Big *bigRefs `json:"big_entities,omitempty"`
}

// readBigRefs returns the big entities a manifest names (nil: none).
func readBigRefs(path string) (*bigRefs, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	var m struct {
		Big *bigRefs `json:"big_entities"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("manifest %s: %w", path, err)
	}
	return m.Big, nil
}

func writeBigManifest(path string, m *chaingen.Manifest, big *bigRefs) error {
	b, err := json.MarshalIndent(bigManifest{Manifest: m, Big: big}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

func bigHash(size int, part string) []byte {
	h, err := blake2b.New(size, nil)
	if err != nil {
		panic(err)
	}
	h.Write([]byte(bigLabel + "/" + part))
	return h.Sum(nil)
}

// bigAssetName is asset i's name: "BIG" and six digits.
func bigAssetName(i int) []byte { return []byte(fmt.Sprintf("BIG%06d", i)) }

// bigPresence is big_present.sql's row.
type bigPresence struct {
	Assets       int64      `db:"assets"`
	Delegators   int64      `db:"delegators"`
	Rewards      int64      `db:"rewards"`
	BlockHash    *string    `db:"block_hash"`
	SlotNo       *int64     `db:"slot_no"`
	BlockNo      *int64     `db:"block_no"`
	EpochNo      *int64     `db:"epoch_no"`
	Time         *time.Time `db:"time"`
	PreviousHash *string    `db:"previous_hash"`
}

// bigIdentity is every key the big entities are made of, for a network.
type bigIdentity struct {
	policy  []byte
	minter  wideIdentity // the minter's base address; its stake key is the reward account
	drepRaw []byte
	drep    cardano.DRepID
}

func bigIdentityFor(mainnet bool) (bigIdentity, error) {
	minter, err := baseIdentity(mainnet, bigHash(28, "minter/payment"), bigHash(28, "minter/stake"))
	if err != nil {
		return bigIdentity{}, err
	}
	id := bigIdentity{policy: bigHash(28, "policy"), minter: minter, drepRaw: bigHash(28, "drep")}
	copy(id.drep.Hash[:], id.drepRaw)
	return id, nil
}

func (id bigIdentity) refs(s bigSizes) *bigRefs {
	return &bigRefs{Policy: fmt.Sprintf("%x", id.policy), Assets: s.Assets,
		HeldAsset: fmt.Sprintf("%x%x", id.policy, bigAssetName(0)), Holders: s.Delegators + 1,
		RewardAccount: id.minter.StakeView, Rewards: s.Rewards,
		DRep: id.drep.CIP105(), DRepHex: fmt.Sprintf("%x", id.drepRaw), Delegators: s.Delegators}
}

// addBig gives the db-sync database at dbURL the big entities of sizes s
// in one transaction and writes the manifest at inPath, copied, to
// outPath naming them (big_entities; Tip the last new block, Counts with
// the new rows). Idempotent: when the database holds them at these sizes
// it adds nothing and only writes the copy; at other sizes it refuses.
func addBig(ctx context.Context, dbURL, inPath, outPath string, s bigSizes) error {
	if dbURL == "" {
		return errors.New("--add-big needs --db")
	}
	m, nw, err := readManifestNetwork(inPath)
	if err != nil {
		return err
	}
	id, err := bigIdentityFor(nw.Mainnet)
	if err != nil {
		return err
	}
	db, err := sqlx.Open("postgres", dbURL)
	if err != nil {
		return err
	}
	defer db.Close()
	caps, err := dbsync.DetectCapabilities(ctx, db)
	if err != nil {
		return err
	}
	if err := wideSupported(caps, m); err != nil {
		return fmt.Errorf("--add-big: %w", err)
	}
	start := time.Now()
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	var tip wideTip
	if err := tx.GetContext(ctx, &tip, sqlWideTip); err != nil {
		return fmt.Errorf("--add-big: the tip: %w", err)
	}
	tip.Time = dbsync.AsUTC(tip.Time)
	var have bigPresence
	switch err := tx.GetContext(ctx, &have, sqlBigPresent, id.policy, id.drepRaw, id.minter.StakeRaw); {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return fmt.Errorf("--add-big: looking for the big entities: %w", err)
	default:
		return bigAlready(m, id, have, s, outPath)
	}
	var known bool
	if err := tx.GetContext(ctx, &known, sqlBigKnownBlock, m.Tip.BlockHash); err != nil {
		return err
	}
	if !known {
		return fmt.Errorf("--add-big: the manifest's tip %s is not on this database's chain: wrong manifest?", m.Tip.BlockHash)
	}
	if tip.EpochNo == nil || tip.EpochSlotNo == nil || tip.BlockNo == nil || tip.ProtoMajor < 2 {
		return errors.New("--add-big: the tip is not a Shelley-era block")
	}
	w := &bigWriter{ctx: ctx, tx: tx, id: id, s: s, tip: tip, mainnet: nw.Mainnet}
	if err := w.plan(m); err != nil {
		return err
	}
	if err := w.write(); err != nil {
		return fmt.Errorf("--add-big: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	out := *m
	last := len(w.blockIDs) - 1
	applyBig(&out, s, w.txs, len(w.blockIDs), len(w.outID), len(w.heldQty), chaingen.Tip{Slot: uint64(w.slot[last]), BlockNo: w.blockNo[last],
		BlockHash: fmt.Sprintf("%x", w.blockHashes[last]), Epoch: int(*tip.EpochNo),
		Time: tip.Time.Add(time.Duration(w.slot[last]-tip.SlotNo) * time.Second)})
	if err := writeBigManifest(outPath, &out, id.refs(s)); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "bench: added policy %x (%d assets), DRep %s (%d delegators), reward account %s (%d rewards) "+
		"in %d transactions, blocks %d to %d, in %s; manifest %s\n",
		id.policy, s.Assets, id.drep.CIP105(), s.Delegators, id.minter.StakeView, s.Rewards, w.txs,
		w.blockNo[0], w.blockNo[last], time.Since(start).Round(time.Millisecond), outPath)
	return nil
}

// bigAlready writes the manifest copy for a database that holds the big
// entities at sizes s, or refuses when they are of other sizes.
func bigAlready(m *chaingen.Manifest, id bigIdentity, have bigPresence, s bigSizes, outPath string) error {
	if have.Assets != int64(s.Assets) || have.Delegators != int64(s.Delegators) || have.Rewards != int64(s.Rewards) {
		return fmt.Errorf("--add-big: the database holds the big entities with %d assets, %d delegators and %d rewards, not %d, %d and %d (seed another database for other sizes)",
			have.Assets, have.Delegators, have.Rewards, s.Assets, s.Delegators, s.Rewards)
	}
	out := *m
	if big, err := readBigRefs(outPath); err == nil && big != nil {
		prev, err := chaingen.ReadManifest(outPath) // an earlier run's copy: kept as it is
		if err != nil {
			return err
		}
		out = *prev
	} else {
		if have.BlockHash == nil || have.SlotNo == nil || have.BlockNo == nil || have.EpochNo == nil || have.Time == nil {
			return errors.New("--add-big: the big entities are in the database without their blocks")
		}
		// The counts are left as the input manifest says: they predate or
		// include the entities, which this run cannot tell.
		out.Tip = chaingen.Tip{Slot: uint64(*have.SlotNo), BlockNo: *have.BlockNo, BlockHash: *have.BlockHash,
			Epoch: int(*have.EpochNo), Time: dbsync.AsUTC(*have.Time)}
	}
	if err := writeBigManifest(outPath, &out, id.refs(s)); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "bench: the database already holds the big entities; nothing added; manifest %s\n", outPath)
	return nil
}

// applyBig moves m's tip and counts past the big blocks.
func applyBig(m *chaingen.Manifest, s bigSizes, txs, blocks, outputs, held int, tip chaingen.Tip) {
	m.Tip = tip
	m.Counts.Txs += int64(txs)
	m.Counts.Outputs += int64(outputs)
	m.Counts.TxOut += int64(outputs)
	m.Counts.Blocks += int64(blocks)
	m.Counts.StakeAddresses += int64(s.Delegators + 1)
	m.Counts.MultiAssets += int64(s.Assets)
	m.Counts.MaTxOut += int64(held)
	m.Counts.Rewards += int64(s.Rewards)
	m.Counts.VoteDelegations += int64(s.Delegators)
	m.Counts.DReps++
}

// bigWriter lays the entities out in transactions and blocks and writes
// them: transaction 0 registers the DRep and the reward account, then come
// the mints (100 assets each), then the airdrops (50 delegators each).
type bigWriter struct {
	ctx     context.Context
	tx      *sqlx.Tx
	id      bigIdentity
	s       bigSizes
	tip     wideTip
	mainnet bool

	mints, drops, txs int
	blockIDs, txIDs   []int64
	blockHashes       [][]byte
	slot, blockNo     []int64
	// per transaction
	txHash               [][]byte
	outSum, fee, deposit []int64
	size                 []int32
	// per output
	outID, outTx, outValue, outStake []int64
	outIndex                         []int32
	outAddr                          []string
	outCred                          [][]byte
	// assets held by outputs, and mints
	heldQty, heldOut, heldIdent []int64
	mintQty, mintTx, mintIdent  []int64
	assetIDs                    []int64
	stakeIDs                    []int64 // the delegators', then the reward account's
	dels                        []wideIdentity
}

func (w *bigWriter) ids(table string, n int) ([]int64, error) {
	var ids []int64
	if err := w.tx.SelectContext(w.ctx, &ids, sqlWideIDs, table, n); err != nil {
		return nil, fmt.Errorf("--add-big: %s ids: %w", table, err)
	}
	slices.Sort(ids)
	return ids, nil
}

// plan takes the ids and lays out blocks, transactions and outputs.
func (w *bigWriter) plan(m *chaingen.Manifest) error {
	w.mints = (w.s.Assets + bigAssetsPerTx - 1) / bigAssetsPerTx
	w.drops = (w.s.Delegators + bigDelegatesPerT - 1) / bigDelegatesPerT
	w.txs = 1 + w.mints + w.drops
	blocks := (w.txs + bigTxsPerBlock - 1) / bigTxsPerBlock
	epochLength := int64(m.Layout.EpochLength)
	if epochLength == 0 {
		epochLength = 432_000
	}
	if *w.tip.EpochSlotNo+int64(blocks)*wideSlotGap >= epochLength {
		return fmt.Errorf("--add-big: %d blocks do not fit in the tip's epoch", blocks)
	}
	var err error
	if w.blockIDs, err = w.ids("block", blocks); err != nil {
		return err
	}
	if w.txIDs, err = w.ids("tx", w.txs); err != nil {
		return err
	}
	if w.assetIDs, err = w.ids("multi_asset", w.s.Assets); err != nil {
		return err
	}
	if w.stakeIDs, err = w.ids("stake_address", w.s.Delegators+1); err != nil {
		return err
	}
	if w.outID, err = w.ids("tx_out", 1+w.mints+w.s.Delegators); err != nil {
		return err
	}
	for b := range blocks {
		w.blockHashes = append(w.blockHashes, bigHash(32, fmt.Sprintf("block/%d", b)))
		w.slot = append(w.slot, w.tip.SlotNo+int64(b+1)*wideSlotGap)
		w.blockNo = append(w.blockNo, *w.tip.BlockNo+int64(b)+1)
	}
	rewardStake := w.stakeIDs[len(w.stakeIDs)-1]
	w.dels = make([]wideIdentity, w.s.Delegators)
	for d := range w.dels {
		if w.dels[d], err = baseIdentity(w.mainnet, bigHash(28, fmt.Sprintf("delegator/%d/payment", d)),
			bigHash(28, fmt.Sprintf("delegator/%d/stake", d))); err != nil {
			return err
		}
	}
	out := 0
	pay := func(t int, index int32, addr string, cred []byte, stake int64, value int64) int64 {
		id := w.outID[out]
		out++
		w.outTx, w.outIndex, w.outAddr, w.outCred = append(w.outTx, w.txIDs[t]), append(w.outIndex, index), append(w.outAddr, addr), append(w.outCred, cred)
		w.outStake, w.outValue = append(w.outStake, stake), append(w.outValue, value)
		w.outSum[t] += value
		return id
	}
	for t := range w.txs {
		w.txHash = append(w.txHash, bigHash(32, fmt.Sprintf("tx/%d", t)))
		w.outSum, w.deposit = append(w.outSum, 0), append(w.deposit, 0)
		var size int32
		switch {
		case t == 0: // the DRep's and the reward account's registrations
			pay(t, 0, w.id.minter.Address, w.id.minter.PaymentCred, rewardStake, 5_000_000)
			w.deposit[t], size = bigDRepDeposit+bigStakeDeposit, 400
		case t <= w.mints: // mint k: assets [100k, 100k+100) to one output
			k := t - 1
			o := pay(t, 0, w.id.minter.Address, w.id.minter.PaymentCred, rewardStake, 2_000_000+int64(k)%1000*1000)
			for i := k * bigAssetsPerTx; i < min((k+1)*bigAssetsPerTx, w.s.Assets); i++ {
				w.mintQty, w.mintTx, w.mintIdent = append(w.mintQty, 1), append(w.mintTx, w.txIDs[t]), append(w.mintIdent, w.assetIDs[i])
				w.heldQty, w.heldOut, w.heldIdent = append(w.heldQty, 1), append(w.heldOut, o), append(w.heldIdent, w.assetIDs[i])
			}
			size = int32(300 + 45*bigAssetsPerTx)
		default: // airdrop k: delegators [50k, 50k+50)
			k := t - 1 - w.mints
			n := 0
			for d := k * bigDelegatesPerT; d < min((k+1)*bigDelegatesPerT, w.s.Delegators); d++ {
				o := pay(t, int32(n), w.dels[d].Address, w.dels[d].PaymentCred, w.stakeIDs[d], 1_500_000+int64(d)*104_729%48_000_000)
				w.heldQty, w.heldOut, w.heldIdent = append(w.heldQty, 1), append(w.heldOut, o), append(w.heldIdent, w.assetIDs[0])
				n++
			}
			w.mintQty, w.mintTx, w.mintIdent = append(w.mintQty, int64(n)), append(w.mintTx, w.txIDs[t]), append(w.mintIdent, w.assetIDs[0])
			w.deposit[t], size = int64(n)*bigStakeDeposit, int32(200+160*n)
		}
		w.size, w.fee = append(w.size, size), append(w.fee, 155_381+44*int64(size))
	}
	return nil
}

func (w *bigWriter) exec(what, query string, args ...any) error {
	if _, err := w.tx.ExecContext(w.ctx, query, args...); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// write inserts every row, parents first.
func (w *bigWriter) write() error {
	ctx, tx, tip := w.ctx, w.tx, w.tip
	blocks := len(w.blockIDs)
	epochSlot, prev, size, count := make([]int64, blocks), make([]int64, blocks), make([]int32, blocks), make([]int64, blocks)
	for b := range blocks {
		epochSlot[b] = *tip.EpochSlotNo + int64(b+1)*wideSlotGap
		prev[b] = tip.ID
		if b > 0 {
			prev[b] = w.blockIDs[b-1]
		}
		size[b] = 900
	}
	txBlock, txIndex, ttl := make([]int64, w.txs), make([]int32, w.txs), make([]int64, w.txs)
	for t := range w.txs {
		b := t / bigTxsPerBlock
		txBlock[t], txIndex[t], ttl[t] = w.blockIDs[b], int32(t%bigTxsPerBlock), w.slot[b]+7200
		size[b] += w.size[t]
		count[b]++
	}
	if err := w.exec("blocks", sqlWideBlocks, *tip.EpochNo, tip.SlotLeaderID, tip.ProtoMajor, tip.ProtoMinor,
		tip.VRFKey, tip.OpCert, tip.OpCertCounter, tip.SlotNo, tip.Time,
		pq.Array(w.blockIDs), pq.ByteaArray(w.blockHashes), pq.Array(w.slot), pq.Array(epochSlot),
		pq.Array(w.blockNo), pq.Array(prev), pq.Array(size), pq.Array(count)); err != nil {
		return err
	}
	if err := w.exec("transactions", sqlBigTxs, pq.Array(w.txIDs), pq.Array(txBlock), pq.Array(txIndex), pq.ByteaArray(w.txHash),
		pq.Array(w.outSum), pq.Array(w.fee), pq.Array(w.deposit), pq.Array(w.size), pq.Array(ttl)); err != nil {
		return err
	}
	// Stake addresses: the delegators', then the reward account's.
	raws, views := make([][]byte, len(w.stakeIDs)), make([]string, len(w.stakeIDs))
	for d, ident := range w.dels {
		raws[d], views[d] = ident.StakeRaw, ident.StakeView
	}
	raws[w.s.Delegators], views[w.s.Delegators] = w.id.minter.StakeRaw, w.id.minter.StakeView
	if err := w.exec("stake addresses", sqlBigStake, pq.Array(w.stakeIDs), pq.ByteaArray(raws), pq.Array(views)); err != nil {
		return err
	}
	var drepID int64
	if err := tx.GetContext(ctx, &drepID, sqlBigDRep, w.id.drepRaw, w.id.drep.CIP105()); err != nil {
		return fmt.Errorf("DRep: %w", err)
	}
	if err := w.exec("DRep registration", sqlBigDRepReg, w.txIDs[0], 0, bigDRepDeposit, drepID); err != nil {
		return err
	}
	// Registrations: the reward account's in transaction 0 (certificate
	// 1), each delegator's in its airdrop (certificates 0-49, the vote
	// delegations 50-99).
	regAddr, regIndex, regTx := []int64{w.stakeIDs[w.s.Delegators]}, []int32{1}, []int64{w.txIDs[0]}
	var voteAddr, voteTx []int64
	var voteIndex []int32
	for d := range w.s.Delegators {
		t := w.txIDs[1+w.mints+d/bigDelegatesPerT]
		regAddr, regIndex, regTx = append(regAddr, w.stakeIDs[d]), append(regIndex, int32(d%bigDelegatesPerT)), append(regTx, t)
		voteAddr, voteIndex, voteTx = append(voteAddr, w.stakeIDs[d]), append(voteIndex, int32(bigDelegatesPerT+d%bigDelegatesPerT)), append(voteTx, t)
	}
	if err := w.exec("stake registrations", sqlBigStakeReg, pq.Array(regAddr), pq.Array(regIndex), pq.Array(regTx), *tip.EpochNo, bigStakeDeposit); err != nil {
		return err
	}
	if err := w.exec("vote delegations", sqlBigVotes, pq.Array(voteAddr), pq.Array(voteIndex), pq.Array(voteTx), drepID); err != nil {
		return err
	}
	if err := w.writeAssets(); err != nil {
		return err
	}
	return w.writeRewards()
}

// writeAssets writes the outputs, the policy's assets, their mints and
// the assets the outputs hold, in batches.
func (w *bigWriter) writeAssets() error {
	if err := wideBatches(len(w.outID), func(lo, hi int) error {
		return w.exec("outputs", sqlBigTxOuts, pq.Array(w.outID[lo:hi]), pq.Array(w.outTx[lo:hi]), pq.Array(w.outIndex[lo:hi]),
			pq.Array(w.outAddr[lo:hi]), pq.ByteaArray(w.outCred[lo:hi]), pq.Array(w.outStake[lo:hi]), pq.Array(w.outValue[lo:hi]))
	}); err != nil {
		return err
	}
	names, prints := make([][]byte, w.s.Assets), make([]string, w.s.Assets)
	for i := range w.s.Assets {
		a := cardano.AssetID{Name: bigAssetName(i)}
		copy(a.Policy[:], w.id.policy)
		names[i], prints[i] = a.Name, a.Fingerprint()
	}
	if err := wideBatches(w.s.Assets, func(lo, hi int) error {
		return w.exec("assets", sqlBigAssets, w.id.policy, pq.Array(w.assetIDs[lo:hi]), pq.ByteaArray(names[lo:hi]), pq.Array(prints[lo:hi]))
	}); err != nil {
		return err
	}
	if err := wideBatches(len(w.mintQty), func(lo, hi int) error {
		return w.exec("mints", sqlBigMints, pq.Array(w.mintQty[lo:hi]), pq.Array(w.mintTx[lo:hi]), pq.Array(w.mintIdent[lo:hi]))
	}); err != nil {
		return err
	}
	return wideBatches(len(w.heldQty), func(lo, hi int) error {
		return w.exec("held assets", sqlBigHeld, pq.Array(w.heldQty[lo:hi]), pq.Array(w.heldOut[lo:hi]), pq.Array(w.heldIdent[lo:hi]))
	})
}

// writeRewards writes the reward account's leader rewards: row i earned
// in epoch i / P from pool i % P, P pools an epoch over the epochs whose
// rewards are spendable by the tip's epoch (earned 0 to epoch-2).
func (w *bigWriter) writeRewards() error {
	if w.s.Rewards == 0 {
		return nil
	}
	epochs := *w.tip.EpochNo - 1
	if epochs < 1 {
		return errors.New("rewards: the tip's epoch is below 2: no reward is spendable yet")
	}
	perEpoch := (int64(w.s.Rewards) + epochs - 1) / epochs
	var pools []int64
	if err := w.tx.SelectContext(w.ctx, &pools, sqlBigPools, perEpoch); err != nil {
		return fmt.Errorf("pools: %w", err)
	}
	if int64(len(pools)) < perEpoch {
		return fmt.Errorf("rewards: %d rows over %d epochs need %d pools, the chain has %d", w.s.Rewards, epochs, perEpoch, len(pools))
	}
	amount, spendable, pool := make([]int64, w.s.Rewards), make([]int64, w.s.Rewards), make([]int64, w.s.Rewards)
	for i := range w.s.Rewards {
		amount[i], spendable[i], pool[i] = 340_000_000+int64(i)*7_919%90_000_000, int64(i)/perEpoch+2, pools[int64(i)%perEpoch]
	}
	return w.exec("rewards", sqlBigRewards, w.stakeIDs[w.s.Delegators], pq.Array(amount), pq.Array(spendable), pq.Array(pool))
}
