package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/blinklabs-io/gouroboros/ledger/common"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
	"golang.org/x/crypto/blake2b"

	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/chaingen"
	sqlfiles "github.com/syncgate/syncgate/sql"
)

// The wide address: `bench --add-wide N` appends to a seeded db-sync one
// block after the tip whose transactions pay N outputs of plain lovelace
// to one new base address, whose stake part is one new stake key, so the
// UTxO and balance endpoints can be measured on an address and a stake key
// with N unspent outputs (the generator has none that wide). A real
// transaction holds at most a few hundred outputs: the block holds
// ceil(N/200) transactions of 200 (the last one the rest).

var (
	sqlWideTip     = sqlfiles.BenchMust("bench/wide_tip.sql")
	sqlWidePresent = sqlfiles.BenchMust("bench/wide_present.sql")
	sqlWideBlock   = sqlfiles.BenchMust("bench/wide_block_insert.sql")
	sqlWideStake   = sqlfiles.BenchMust("bench/wide_stake_insert.sql")
	sqlWideTxs     = sqlfiles.BenchMust("bench/wide_tx_insert.sql")
	sqlWideTxOuts  = sqlfiles.BenchMust("bench/wide_tx_out_insert.sql")
)

const (
	wideOutputsPerTx = 200
	wideMaxOutputs   = 1_000_000
	// wideSlotGap: the wide block comes this many slots (seconds) after
	// the tip, mainnet's average block interval.
	wideSlotGap = 20
	// wideLabel seeds every hash and credential of the wide block: the
	// same address on every data set (results of different sets and runs
	// name the same one), none of the generator's (its are random).
	wideLabel = "syncgate bench wide address"
)

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

// wideValue is the lovelace of output i (counted across the block): 1 to
// 10 ada, varied, so sums and sorts are not of identical values.
func wideValue(i int) int64 { return 1_000_000 + int64(i)*104_729%9_000_000 }

// widePlan is the wide block's transactions and outputs, as the arrays the
// insert statements take.
type widePlan struct {
	txs int
	// per transaction
	hashes [][]byte
	outSum []int64
	fee    []int64
	size   []int32
	// per output
	blockIndex []int32
	index      []int32
	value      []int64

	lovelace  int64 // every output's lovelace
	blockSize int32
}

// planWide lays out n outputs in transactions of wideOutputsPerTx. A
// transaction's size is what its CBOR takes (about 65 bytes an output: a
// 57-byte address and the coin, plus the body's other fields) and its fee
// the Shelley formula of those bytes (min_fee_a 44, min_fee_b 155381).
func planWide(n int) widePlan {
	p := widePlan{txs: (n + wideOutputsPerTx - 1) / wideOutputsPerTx, blockSize: 900}
	p.blockIndex, p.index, p.value = make([]int32, n), make([]int32, n), make([]int64, n)
	for t := range p.txs {
		outs := min(wideOutputsPerTx, n-t*wideOutputsPerTx)
		var sum int64
		for j := range outs {
			i := t*wideOutputsPerTx + j
			p.blockIndex[i], p.index[i], p.value[i] = int32(t), int32(j), wideValue(i)
			sum += p.value[i]
		}
		size := int32(60 + 65*outs)
		p.hashes = append(p.hashes, wideHash(32, fmt.Sprintf("tx/%d", t)))
		p.outSum = append(p.outSum, sum)
		p.fee = append(p.fee, 155_381+44*int64(size))
		p.size = append(p.size, size)
		p.lovelace += sum
		p.blockSize += size
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

// widePresence is what the database already holds of the wide stake key.
type widePresence struct {
	StakeAddressID int64      `db:"stake_address_id"`
	Outputs        int64      `db:"outputs"`
	BlockHash      *string    `db:"block_hash"`
	SlotNo         *int64     `db:"slot_no"`
	BlockNo        *int64     `db:"block_no"`
	EpochNo        *int64     `db:"epoch_no"`
	Time           *time.Time `db:"time"`
	TxCount        *int64     `db:"tx_count"`
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

// addWide gives the db-sync database at dbURL the wide address with n
// unspent outputs, in one transaction, and writes a copy of the manifest
// at inPath to outPath naming it (WideAddress, WideStakeKey; Tip and
// Counts include the new block). It is idempotent: when the database
// already holds the wide address with n outputs it adds nothing and only
// writes the copy; with another count, or when the manifest does not
// describe the database, it refuses.
func addWide(ctx context.Context, dbURL, inPath, outPath string, n int) error {
	if dbURL == "" {
		return errors.New("--add-wide needs --db")
	}
	if n < 1 || n > wideMaxOutputs {
		return fmt.Errorf("--add-wide: %d outputs; from 1 to %d", n, wideMaxOutputs)
	}
	m, err := chaingen.ReadManifest(inPath)
	if err != nil {
		return err
	}
	if m.Network == "" {
		m.Network = "mainnet"
	}
	nw, ok := config.NetworkByName(m.Network)
	if !ok {
		return fmt.Errorf("unknown network %q in the manifest", m.Network)
	}
	id, err := wideIdentityFor(nw.Mainnet)
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
		return wideAlready(m, id, have, n, outPath)
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
	switch {
	case tip.EpochNo == nil || tip.EpochSlotNo == nil || tip.BlockNo == nil || tip.ProtoMajor < 2:
		return errors.New("--add-wide: the tip is not a Shelley-era block")
	case *tip.EpochSlotNo+wideSlotGap >= epochLength:
		return fmt.Errorf("--add-wide: the tip is within %d slots of its epoch's end", wideSlotGap)
	}

	p := planWide(n)
	var stakeID, blockID int64
	if err := tx.GetContext(ctx, &stakeID, sqlWideStake, id.StakeRaw, id.StakeView); err != nil {
		return fmt.Errorf("--add-wide: stake address: %w", err)
	}
	blockHash := wideHash(32, "block")
	blockTime := tip.Time.Add(wideSlotGap * time.Second)
	slot := tip.SlotNo + wideSlotGap
	if err := tx.GetContext(ctx, &blockID, sqlWideBlock, blockHash, *tip.EpochNo, slot, *tip.EpochSlotNo+wideSlotGap,
		*tip.BlockNo+1, tip.ID, tip.SlotLeaderID, p.blockSize, blockTime, p.txs, tip.ProtoMajor, tip.ProtoMinor,
		tip.VRFKey, tip.OpCert, tip.OpCertCounter); err != nil {
		return fmt.Errorf("--add-wide: block: %w", err)
	}
	if _, err := tx.ExecContext(ctx, sqlWideTxs, blockID, slot+7200, pq.ByteaArray(p.hashes), pq.Array(p.outSum),
		pq.Array(p.fee), pq.Array(p.size)); err != nil {
		return fmt.Errorf("--add-wide: transactions: %w", err)
	}
	res, err := tx.ExecContext(ctx, sqlWideTxOuts, blockID, id.Address, id.PaymentCred, stakeID,
		pq.Array(p.blockIndex), pq.Array(p.index), pq.Array(p.value))
	if err != nil {
		return fmt.Errorf("--add-wide: outputs: %w", err)
	}
	if rows, err := res.RowsAffected(); err != nil || rows != int64(n) {
		return fmt.Errorf("--add-wide: %d outputs written, want %d (%v)", rows, n, err)
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	out := *m
	blockNo := *tip.BlockNo + 1
	applyWide(&out, id, n, p.txs, chaingen.Tip{Slot: uint64(slot), BlockNo: blockNo, BlockHash: fmt.Sprintf("%x", blockHash),
		Epoch: int(*tip.EpochNo), Time: blockTime})
	if err := out.WriteFile(outPath); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "bench: added %d outputs (%d lovelace) in %d transactions to %s (stake key %s), block %d, in %s; manifest %s\n",
		n, p.lovelace, p.txs, id.Address, id.StakeView, blockNo, time.Since(start).Round(time.Millisecond), outPath)
	return nil
}

// wideAlready handles a database that holds the wide address: with n
// outputs nothing is added and the manifest copy is written (naming the
// block when the manifest predates it), otherwise it refuses.
func wideAlready(m *chaingen.Manifest, id wideIdentity, have widePresence, n int, outPath string) error {
	if have.Outputs != int64(n) {
		return fmt.Errorf("--add-wide: the database already holds the wide address %s with %d outputs, not %d (a database gets one wide address; seed another for another size)",
			id.Address, have.Outputs, n)
	}
	out := *m
	switch {
	case m.WideAddress != nil:
		if m.WideAddress.UTxOs != n {
			return fmt.Errorf("--add-wide: the manifest gives the wide address %d outputs, the database %d", m.WideAddress.UTxOs, n)
		}
	case have.BlockHash == nil || have.TxCount == nil || have.SlotNo == nil || have.BlockNo == nil || have.EpochNo == nil || have.Time == nil:
		return fmt.Errorf("--add-wide: the wide stake key %s is in the database without its block", id.StakeView)
	case have.PreviousHash == nil || *have.PreviousHash != m.Tip.BlockHash:
		return fmt.Errorf("--add-wide: the database holds the wide address in block %s, which does not follow the manifest's tip %s: wrong manifest?",
			*have.BlockHash, m.Tip.BlockHash)
	default:
		applyWide(&out, id, n, int(*have.TxCount), chaingen.Tip{Slot: uint64(*have.SlotNo), BlockNo: *have.BlockNo,
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
// and counts past the wide block (txs transactions, n outputs, one stake
// address).
func applyWide(m *chaingen.Manifest, id wideIdentity, n, txs int, tip chaingen.Tip) {
	m.WideAddress = &chaingen.AddressRef{Address: id.Address, TxCount: int64(txs), StakeAddress: id.StakeView, UTxOs: n}
	m.WideStakeKey = &chaingen.StakeRef{StakeAddress: id.StakeView, UTxOs: int64(n)}
	m.Tip = tip
	m.Counts.Txs += int64(txs)
	m.Counts.Outputs += int64(n)
	m.Counts.TxOut += int64(n)
	m.Counts.Blocks++
	m.Counts.StakeAddresses++
}
