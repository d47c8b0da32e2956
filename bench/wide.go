package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"github.com/syncgate/syncgate/internal/cardano"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/blinklabs-io/gouroboros/ledger/common"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
	"golang.org/x/crypto/blake2b"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/sql"
)

// The wide address: `bench --add-wide N` appends to a seeded db-sync
// blocks after the tip whose transactions pay N outputs of plain lovelace
// to one new base address, whose stake part is one new stake key, so the
// UTxO and balance endpoints can be measured on an address and a stake key
// with N unspent outputs (the generator has none that wide). The address
// looks like a busy wallet (an exchange's deposit address): by default
// each transaction pays it one output plus one change output to another
// address, 50 transactions a block, over consecutive blocks 20 slots
// apart, so its UTxO list compresses like a real one (outputs of distinct
// transactions and blocks). --wide-per-tx and --wide-per-block change the
// shape (--wide-per-tx 200 --wide-per-block 1000000: one block of
// 200-output transactions, the bench's first shape).

var (
	sqlWideTip     = sqlfiles.BenchMust("bench/wide_tip.sql")
	sqlWidePresent = sqlfiles.BenchMust("bench/wide_present.sql")
	sqlWideIDs     = sqlfiles.BenchMust("bench/wide_ids.sql")
	sqlWideBlocks  = sqlfiles.BenchMust("bench/wide_block_insert.sql")
	sqlWideStake   = sqlfiles.BenchMust("bench/wide_stake_insert.sql")
	sqlWideTxs     = sqlfiles.BenchMust("bench/wide_tx_insert.sql")
	sqlWideTxOuts  = sqlfiles.BenchMust("bench/wide_tx_out_insert.sql")
)

var (
	widePerTxFlag = flag.Int("wide-per-tx", wideDefaultShape.PerTx,
		"--add-wide: outputs each transaction pays the wide address (each also pays one change output elsewhere)")
	widePerBlockFlag = flag.Int("wide-per-block", wideDefaultShape.PerBlock,
		"--add-wide: transactions a block (consecutive blocks, 20 slots apart)")
)

const (
	wideMaxOutputs  = 1_000_000
	wideMaxPerTx    = 1_000
	wideMaxPerBlock = 1_000_000
	// wideSlotGap: each wide block comes this many slots (seconds) after
	// the previous one (the first after the tip), mainnet's average block
	// interval.
	wideSlotGap = 20
	// wideBatch is the most rows one insert statement writes.
	wideBatch = 50_000
	// wideLabel seeds every hash and credential of the wide blocks: the
	// same address on every data set (results of different sets and runs
	// name the same one), none of the generator's (its are random).
	wideLabel = "syncgate bench wide address"
)

// wideShape is how the wide outputs are laid out: PerTx of them in each
// transaction (the last one the rest), PerBlock transactions in each block
// (the last one the rest).
type wideShape struct{ PerTx, PerBlock int }

var wideDefaultShape = wideShape{PerTx: 1, PerBlock: 50}

func (s wideShape) check() error {
	if s.PerTx < 1 || s.PerTx > wideMaxPerTx || s.PerBlock < 1 || s.PerBlock > wideMaxPerBlock {
		return fmt.Errorf("--add-wide: %d outputs a transaction, %d transactions a block; from 1 to %d and 1 to %d",
			s.PerTx, s.PerBlock, wideMaxPerTx, wideMaxPerBlock)
	}
	return nil
}

// wideHash is blake2b of the label and part, size bytes long (28 for a
// credential, 32 for a block or transaction hash).
func wideHash(size int, part string) []byte {
	h, err := blake2b.New(size, nil)
	if err != nil {
		panic(err)
	}
	h.Write([]byte(wideLabel + "/" + part))
	return h.Sum(nil)
}

// wideIdentity is the wide address and its stake key as db-sync stores
// them.
type wideIdentity struct {
	Address     string // bech32 base address (CIP-19 header type 0: key payment, key stake)
	PaymentCred []byte // tx_out.payment_cred
	StakeView   string // stake_address.view
	StakeRaw    []byte // stake_address.hash_raw: header e1 (e0 on testnets) and the credential
}

// wideIdentityFor encodes the wide address and stake key for a network.
func wideIdentityFor(mainnet bool) (wideIdentity, error) {
	return baseIdentity(mainnet, wideHash(28, "payment"), wideHash(28, "stake"))
}

// baseIdentity encodes a key-hash base address and its key-hash stake
// address (CIP-19) from the two credentials.
func baseIdentity(mainnet bool, pay, stake []byte) (wideIdentity, error) {
	var net uint8 = common.AddressNetworkTestnet
	if mainnet {
		net = common.AddressNetworkMainnet
	}
	a, err := common.NewAddressFromParts(common.AddressTypeKeyKey, net, pay, stake)
	if err != nil {
		return wideIdentity{}, fmt.Errorf("base address: %w", err)
	}
	sa, err := common.NewAddressFromParts(common.AddressTypeNoneKey, net, nil, stake)
	if err != nil {
		return wideIdentity{}, fmt.Errorf("stake address: %w", err)
	}
	raw, err := sa.Bytes()
	if err != nil {
		return wideIdentity{}, fmt.Errorf("stake address: %w", err)
	}
	return wideIdentity{Address: a.String(), PaymentCred: pay, StakeView: sa.String(), StakeRaw: raw}, nil
}

// wideChangeFor is the key-hash enterprise address (CIP-19 header type 6)
// every wide transaction pays its change to: not the wide address, and
// with no stake part, so it leaves the stake key's outputs alone.
func wideChangeFor(mainnet bool) (address string, paymentCred []byte, err error) {
	var net uint8 = common.AddressNetworkTestnet
	if mainnet {
		net = common.AddressNetworkMainnet
	}
	pay := wideHash(28, "change")
	a, err := common.NewAddressFromParts(common.AddressTypeKeyNone, net, pay, nil)
	if err != nil {
		return "", nil, fmt.Errorf("change address: %w", err)
	}
	return a.String(), pay, nil
}

// wideValue is the lovelace of wide output i: 1 to 10 ada, varied, so
// sums and sorts are not of identical values.
func wideValue(i int) int64 { return 1_000_000 + int64(i)*104_729%9_000_000 }

// wideChange is the lovelace of transaction t's change output: 2 to 50
// ada, varied.
func wideChange(t int) int64 { return 2_000_000 + int64(t)*7_919%48_000_000 }

// widePlan is the wide blocks, transactions and outputs, as the arrays the
// insert statements take (ids, slots and times are added when written:
// they depend on the database and its tip).
type widePlan struct {
	blocks, txs int
	// per block
	blockHashes [][]byte
	blockSize   []int32
	blockTxs    []int64
	// per transaction: its block (index into the blocks), its index in
	// the block, hash, out_sum, fee and size, and the index and lovelace
	// of its change output (after its wide outputs)
	txBlock     []int
	txIndex     []int32
	hashes      [][]byte
	outSum      []int64
	fee         []int64
	size        []int32
	changeIndex []int32
	changeValue []int64
	// per wide output: its transaction (index into the transactions),
	// output index and lovelace
	outTx []int
	index []int32
	value []int64

	lovelace int64 // every wide output's lovelace (change left out)
}

// planWide lays out n wide outputs in the shape s. A transaction's size is
// what its CBOR takes (about 65 bytes an output: a 57-byte address and the
// coin, plus the body's other fields), its fee the Shelley formula of
// those bytes (min_fee_a 44, min_fee_b 155381), a block's size a 900-byte
// header and its transactions.
func planWide(n int, s wideShape) widePlan {
	p := widePlan{txs: (n + s.PerTx - 1) / s.PerTx}
	p.blocks = (p.txs + s.PerBlock - 1) / s.PerBlock
	p.outTx, p.index, p.value = make([]int, n), make([]int32, n), make([]int64, n)
	for b := range p.blocks {
		p.blockHashes = append(p.blockHashes, wideHash(32, fmt.Sprintf("block/%d", b)))
		p.blockSize = append(p.blockSize, 900)
		p.blockTxs = append(p.blockTxs, int64(min(s.PerBlock, p.txs-b*s.PerBlock)))
	}
	for t := range p.txs {
		outs := min(s.PerTx, n-t*s.PerTx)
		var sum int64
		for j := range outs {
			i := t*s.PerTx + j
			p.outTx[i], p.index[i], p.value[i] = t, int32(j), wideValue(i)
			sum += p.value[i]
		}
		p.lovelace += sum
		change := wideChange(t)
		size := int32(60 + 65*(outs+1))
		b := t / s.PerBlock
		p.txBlock = append(p.txBlock, b)
		p.txIndex = append(p.txIndex, int32(t%s.PerBlock))
		p.hashes = append(p.hashes, wideHash(32, fmt.Sprintf("tx/%d", t)))
		p.outSum = append(p.outSum, sum+change)
		p.fee = append(p.fee, 155_381+44*int64(size))
		p.size = append(p.size, size)
		p.changeIndex = append(p.changeIndex, int32(outs))
		p.changeValue = append(p.changeValue, change)
		p.blockSize[b] += size
	}
	return p
}

// wideManifestPath is where the manifest copy goes when --wide-manifest
// is not given: beside the input, named after n.
func wideManifestPath(in string, n int) string {
	return fmt.Sprintf("%s-wide%d.json", strings.TrimSuffix(in, ".json"), n)
}

// wideTip is the block the wide block follows.
type wideTip struct {
	ID            int64     `db:"id"`
	Hash          string    `db:"hash"`
	EpochNo       *int64    `db:"epoch_no"`
	SlotNo        int64     `db:"slot_no"`
	EpochSlotNo   *int64    `db:"epoch_slot_no"`
	BlockNo       *int64    `db:"block_no"`
	SlotLeaderID  int64     `db:"slot_leader_id"`
	Time          time.Time `db:"time"`
	ProtoMajor    int64     `db:"proto_major"`
	ProtoMinor    int64     `db:"proto_minor"`
	VRFKey        *string   `db:"vrf_key"`
	OpCert        []byte    `db:"op_cert"`
	OpCertCounter *int64    `db:"op_cert_counter"`
}

// widePresence is what the database already holds of the wide stake key:
// its outputs, their transactions and blocks, the last block and the
// parent of the first.
type widePresence struct {
	StakeAddressID int64      `db:"stake_address_id"`
	Outputs        int64      `db:"outputs"`
	TxCount        int64      `db:"tx_count"`
	Blocks         int64      `db:"blocks"`
	BlockHash      *string    `db:"block_hash"`
	SlotNo         *int64     `db:"slot_no"`
	BlockNo        *int64     `db:"block_no"`
	EpochNo        *int64     `db:"epoch_no"`
	Time           *time.Time `db:"time"`
	PreviousHash   *string    `db:"previous_hash"`
}

// wideSupported refuses the layouts --add-wide does not write: it knows
// the core and consumed tx_out layouts of the 13.7 schema (outputs carry
// their address; consumed_by_tx_id, where filled, stays NULL for unspent).
func wideSupported(caps dbsync.Capabilities, m *chaingen.Manifest) error {
	switch {
	case caps.Variant == "address" || m.AddressTable:
		return errors.New("--add-wide: this database keeps addresses in the address table (tx_out.address_id): " +
			"not supported, only the core and consumed layouts are")
	case caps.Variant != "core":
		return fmt.Errorf("--add-wide: unknown tx_out layout %q", caps.Variant)
	case caps.NoOutputs || caps.Pruned:
		return fmt.Errorf("--add-wide: layout %s is not supported, only core and consumed are", caps.LayoutName())
	case m.Schema != "" && m.Schema != chaingen.Schema137:
		return fmt.Errorf("--add-wide: schema %s is not supported (its epoch table would need the current epoch's row updated), only 13.7", m.Schema)
	}
	mode := chaingen.ModeCore
	if caps.UTxOMode == dbsync.ModeConsumed {
		mode = chaingen.ModeConsumed
	}
	if m.Mode != "" && m.Mode != mode {
		return fmt.Errorf("--add-wide: the manifest describes a %s-mode chain, the database is in %s mode: wrong manifest?", m.Mode, mode)
	}
	return nil
}

// addWide is addWideShaped with the shape --wide-per-tx and
// --wide-per-block give (by default one wide output a transaction, 50
// transactions a block).
func addWide(ctx context.Context, dbURL, inPath, outPath string, n int) error {
	return addWideShaped(ctx, dbURL, inPath, outPath, n, wideShape{PerTx: *widePerTxFlag, PerBlock: *widePerBlockFlag})
}

// addWideShaped gives the db-sync database at dbURL the wide address with
// n unspent outputs laid out in shape s, in one transaction, and writes a
// copy of the manifest at inPath to outPath naming it (WideAddress,
// WideStakeKey; Tip is the last new block, Counts include the new rows).
// It is idempotent: when the database already holds the wide address with
// n outputs in the transactions and blocks of s it adds nothing and only
// writes the copy; with another count or shape, or when the manifest does
// not describe the database, it refuses.
func addWideShaped(ctx context.Context, dbURL, inPath, outPath string, n int, s wideShape) error {
	if dbURL == "" {
		return errors.New("--add-wide needs --db")
	}
	if n < 1 || n > wideMaxOutputs {
		return fmt.Errorf("--add-wide: %d outputs; from 1 to %d", n, wideMaxOutputs)
	}
	if err := s.check(); err != nil {
		return err
	}
	m, nw, err := readManifestNetwork(inPath)
	if err != nil {
		return err
	}
	id, err := wideIdentityFor(nw.Mainnet)
	if err != nil {
		return err
	}
	changeAddr, changeCred, err := wideChangeFor(nw.Mainnet)
	if err != nil {
		return err
	}
	if w := m.WideAddress; w != nil && w.Address != id.Address {
		return fmt.Errorf("--add-wide: the manifest names another wide address (%s) than this bench's (%s)", w.Address, id.Address)
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
		return err
	}

	start := time.Now()
	p := planWide(n, s)
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	var tip wideTip
	if err := tx.GetContext(ctx, &tip, sqlWideTip); err != nil {
		return fmt.Errorf("--add-wide: the tip: %w", err)
	}
	tip.Time = dbsync.AsUTC(tip.Time)
	var have widePresence
	switch err := tx.GetContext(ctx, &have, sqlWidePresent, id.StakeRaw); {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return fmt.Errorf("--add-wide: looking for the wide address: %w", err)
	default:
		return wideAlready(m, id, have, n, p, outPath)
	}
	if m.WideAddress != nil {
		return fmt.Errorf("--add-wide: the manifest names the wide address %s but the database does not hold it: wrong manifest?", id.Address)
	}
	if m.Tip.BlockHash != "" && m.Tip.BlockHash != tip.Hash {
		return fmt.Errorf("--add-wide: the manifest's tip is block %s, the database's %s: wrong manifest?", m.Tip.BlockHash, tip.Hash)
	}
	epochLength := int64(m.Layout.EpochLength)
	if epochLength == 0 {
		epochLength = 432_000
	}
	span := int64(p.blocks) * wideSlotGap
	switch {
	case tip.EpochNo == nil || tip.EpochSlotNo == nil || tip.BlockNo == nil || tip.ProtoMajor < 2:
		return errors.New("--add-wide: the tip is not a Shelley-era block")
	case *tip.EpochSlotNo+span >= epochLength:
		// The blocks stay in the tip's epoch (no epoch rows to write).
		return fmt.Errorf("--add-wide: %d blocks take %d slots, the tip is %d slots from its epoch's end: fewer outputs or more transactions a block",
			p.blocks, span, epochLength-*tip.EpochSlotNo)
	}

	var stakeID int64
	if err := tx.GetContext(ctx, &stakeID, sqlWideStake, id.StakeRaw, id.StakeView); err != nil {
		return fmt.Errorf("--add-wide: stake address: %w", err)
	}
	var blockIDs, txIDs []int64
	if err := tx.SelectContext(ctx, &blockIDs, sqlWideIDs, "block", p.blocks); err != nil {
		return fmt.Errorf("--add-wide: block ids: %w", err)
	}
	if err := tx.SelectContext(ctx, &txIDs, sqlWideIDs, "tx", p.txs); err != nil {
		return fmt.Errorf("--add-wide: transaction ids: %w", err)
	}
	slices.Sort(blockIDs)
	slices.Sort(txIDs)

	// Blocks: block b is tip+1+b, (b+1)*wideSlotGap slots after the tip.
	slot, epochSlot, blockNo, prev := make([]int64, p.blocks), make([]int64, p.blocks), make([]int64, p.blocks), make([]int64, p.blocks)
	for b := range p.blocks {
		gap := int64(b+1) * wideSlotGap
		slot[b], epochSlot[b], blockNo[b] = tip.SlotNo+gap, *tip.EpochSlotNo+gap, *tip.BlockNo+int64(b)+1
		prev[b] = tip.ID
		if b > 0 {
			prev[b] = blockIDs[b-1]
		}
	}
	err = wideBatches(p.blocks, func(lo, hi int) error {
		_, err := tx.ExecContext(ctx, sqlWideBlocks, *tip.EpochNo, tip.SlotLeaderID, tip.ProtoMajor, tip.ProtoMinor,
			tip.VRFKey, tip.OpCert, tip.OpCertCounter, tip.SlotNo, tip.Time,
			pq.Array(blockIDs[lo:hi]), pq.ByteaArray(p.blockHashes[lo:hi]), pq.Array(slot[lo:hi]), pq.Array(epochSlot[lo:hi]),
			pq.Array(blockNo[lo:hi]), pq.Array(prev[lo:hi]), pq.Array(p.blockSize[lo:hi]), pq.Array(p.blockTxs[lo:hi]))
		return err
	})
	if err != nil {
		return fmt.Errorf("--add-wide: blocks: %w", err)
	}

	// Transactions, then their change outputs (one each), then the wide
	// outputs.
	txBlockID, ttl := make([]int64, p.txs), make([]int64, p.txs)
	for t, b := range p.txBlock {
		txBlockID[t], ttl[t] = blockIDs[b], slot[b]+7200
	}
	err = wideBatches(p.txs, func(lo, hi int) error {
		_, err := tx.ExecContext(ctx, sqlWideTxs, pq.Array(txIDs[lo:hi]), pq.Array(txBlockID[lo:hi]), pq.Array(p.txIndex[lo:hi]),
			pq.ByteaArray(p.hashes[lo:hi]), pq.Array(p.outSum[lo:hi]), pq.Array(p.fee[lo:hi]), pq.Array(p.size[lo:hi]),
			pq.Array(ttl[lo:hi]))
		return err
	})
	if err != nil {
		return fmt.Errorf("--add-wide: transactions: %w", err)
	}
	err = wideBatches(p.txs, func(lo, hi int) error {
		return wideOutputs(ctx, tx, changeAddr, changeCred, nil, txIDs[lo:hi], p.changeIndex[lo:hi], p.changeValue[lo:hi])
	})
	if err != nil {
		return fmt.Errorf("--add-wide: change outputs: %w", err)
	}
	outTxID := make([]int64, n)
	for i, t := range p.outTx {
		outTxID[i] = txIDs[t]
	}
	err = wideBatches(n, func(lo, hi int) error {
		return wideOutputs(ctx, tx, id.Address, id.PaymentCred, &stakeID, outTxID[lo:hi], p.index[lo:hi], p.value[lo:hi])
	})
	if err != nil {
		return fmt.Errorf("--add-wide: outputs: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	out := *m
	last := p.blocks - 1
	applyWide(&out, id, n, p.txs, p.blocks, chaingen.Tip{Slot: uint64(slot[last]), BlockNo: blockNo[last],
		BlockHash: fmt.Sprintf("%x", p.blockHashes[last]), Epoch: int(*tip.EpochNo),
		Time: tip.Time.Add(time.Duration(slot[last]-tip.SlotNo) * time.Second)})
	if err := out.WriteFile(outPath); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "bench: added %d outputs (%d lovelace) in %d transactions (%d a transaction, and change) "+
		"in blocks %d to %d to %s (stake key %s), in %s; manifest %s\n",
		n, p.lovelace, p.txs, s.PerTx, blockNo[0], blockNo[last], id.Address, id.StakeView, time.Since(start).Round(time.Millisecond), outPath)
	return nil
}

// wideBatches calls write on [lo, hi) ranges of at most wideBatch of n
// rows, in order.
func wideBatches(n int, write func(lo, hi int) error) error {
	for lo := 0; lo < n; lo += wideBatch {
		if err := write(lo, min(lo+wideBatch, n)); err != nil {
			return err
		}
	}
	return nil
}

// wideOutputs writes outputs to one address (stakeID nil for one without
// a stake part) and checks they all were.
func wideOutputs(ctx context.Context, tx *sqlx.Tx, address string, cred []byte, stakeID *int64, txIDs []int64, index []int32, value []int64) error {
	res, err := tx.ExecContext(ctx, sqlWideTxOuts, address, cred, stakeID, pq.Array(txIDs), pq.Array(index), pq.Array(value))
	if err != nil {
		return err
	}
	if rows, err := res.RowsAffected(); err != nil || rows != int64(len(value)) {
		return fmt.Errorf("%d outputs written, want %d (%v)", rows, len(value), err)
	}
	return nil
}

// wideAlready handles a database that holds the wide address: with n
// outputs in the transactions and blocks of plan p nothing is added and
// the manifest copy is written (naming the blocks when the manifest
// predates them), otherwise it refuses.
func wideAlready(m *chaingen.Manifest, id wideIdentity, have widePresence, n int, p widePlan, outPath string) error {
	if have.Outputs != int64(n) {
		return fmt.Errorf("--add-wide: the database already holds the wide address %s with %d outputs, not %d (a database gets one wide address; seed another for another size)",
			id.Address, have.Outputs, n)
	}
	if have.TxCount != int64(p.txs) || have.Blocks != int64(p.blocks) {
		return fmt.Errorf("--add-wide: the database already holds the wide address %s in %d transactions and %d blocks, not %d and %d: "+
			"written in another shape (--wide-per-tx, --wide-per-block); seed another database for this one",
			id.Address, have.TxCount, have.Blocks, p.txs, p.blocks)
	}
	out := *m
	switch {
	case m.WideAddress != nil:
		if m.WideAddress.UTxOs != n {
			return fmt.Errorf("--add-wide: the manifest gives the wide address %d outputs, the database %d", m.WideAddress.UTxOs, n)
		}
	case have.BlockHash == nil || have.SlotNo == nil || have.BlockNo == nil || have.EpochNo == nil || have.Time == nil:
		return fmt.Errorf("--add-wide: the wide stake key %s is in the database without its blocks", id.StakeView)
	case have.PreviousHash == nil || *have.PreviousHash != m.Tip.BlockHash:
		return fmt.Errorf("--add-wide: the database holds the wide address in blocks up to %s, which do not follow the manifest's tip %s: wrong manifest?",
			*have.BlockHash, m.Tip.BlockHash)
	default:
		applyWide(&out, id, n, p.txs, p.blocks, chaingen.Tip{Slot: uint64(*have.SlotNo), BlockNo: *have.BlockNo,
			BlockHash: *have.BlockHash, Epoch: int(*have.EpochNo), Time: dbsync.AsUTC(*have.Time)})
	}
	if err := out.WriteFile(outPath); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "bench: the database already holds the wide address %s with %d outputs; nothing added; manifest %s\n",
		id.Address, n, outPath)
	return nil
}

// applyWide names the wide address and stake key in m and moves its tip
// and counts past the wide blocks (txs transactions, each with one change
// output besides the n wide outputs, in blocks blocks; one stake address).
func applyWide(m *chaingen.Manifest, id wideIdentity, n, txs, blocks int, tip chaingen.Tip) {
	m.WideAddress = &chaingen.AddressRef{Address: id.Address, TxCount: int64(txs), StakeAddress: id.StakeView, UTxOs: n}
	m.WideStakeKey = &chaingen.StakeRef{StakeAddress: id.StakeView, UTxOs: int64(n)}
	m.Tip = tip
	m.Counts.Txs += int64(txs)
	m.Counts.Outputs += int64(n + txs)
	m.Counts.TxOut += int64(n + txs)
	m.Counts.Blocks += int64(blocks)
	m.Counts.StakeAddresses++
}

// readManifestNetwork reads the seed's manifest and the network it names
// (mainnet when it names none): what the steps adding to a seeded chain
// (--add-wide, --add-big) start from.
func readManifestNetwork(path string) (*chaingen.Manifest, cardano.Network, error) {
	m, err := chaingen.ReadManifest(path)
	if err != nil {
		return nil, cardano.Network{}, err
	}
	if m.Network == "" {
		m.Network = "mainnet"
	}
	nw, ok := cardano.NetworkByName(m.Network)
	if !ok {
		return nil, cardano.Network{}, fmt.Errorf("unknown network %q in the manifest", m.Network)
	}
	return m, nw, nil
}
