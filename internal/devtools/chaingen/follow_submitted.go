package chaingen

import (
	"context"
	"database/sql"
	"errors"
	"strconv"

	"github.com/blinklabs-io/gouroboros/ledger"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/node/demonode"
	"github.com/syncgate/syncgate/sql"
)

// Submitted is where the follower takes transactions submitted to a node
// (FollowOptions.Submitted: the demo node's mempool, demonode.Mempool).
// Each block starts with them, written from their CBOR as db-sync writes a
// transaction it reads in a block: tx (its real hash, fee, out_sum, size,
// validity interval), tx_out (and address, stake_address rows it needs),
// ma_tx_out (and multi_asset rows with CIP-14 fingerprints), tx_in or
// consumed_by_tx_id, tx_metadata, tx_cbor and extra_key_witness (rows of
// the block's COPY tables, numbered by the generator's id counters like
// the follower's own transactions'). Only what demonode accepts is written: a
// transaction it cannot apply any more (an input gone, its TTL passed) is
// dropped. With outputs disabled (the disable layout) none is included.
type Submitted interface {
	// Pending lists the waiting transactions' CBOR, oldest first.
	Pending() [][]byte
	// Included reports a committed block (hash hex, slot): the
	// transactions it took (ids, hex) and the ones dropped (id → why).
	Included(block string, slot uint64, included []string, dropped map[string]string)
	// RolledBack reports a rollback to a tip at tipSlot: the removed
	// blocks (hashes hex); their transactions are pending again.
	RolledBack(tipSlot uint64, removed []string)
}

var (
	sqlFollowAssetID = sqlfiles.Must("chaingen/follow_asset_id.sql")
	_                = sqlfiles.Must(fileFollowSubmittedInput)
)

const fileFollowSubmittedInput = "chaingen/follow_submitted_input.sql"

// submittedBlock is what the block being built took from Submitted (and
// the demo wallet's funding, demo_wallet.go).
type submittedBlock struct {
	included []string
	dropped  map[string]string
	// outs: outputs submitted transactions of this block created, which
	// later ones may spend.
	outs map[demonode.Input]input
	// Stake and asset entries this block created: their rows exist only
	// once it commits (submittedDone), else they are written again.
	newStakes, newAssets []int32

	stmtInput string
	fund      *demoFunding
}

// addSubmitted writes the submitted transactions (and a pending demo
// funding) at the start of the block being built.
func (f *Follower) addSubmitted(ctx context.Context) ([]FollowTx, error) {
	s := &f.sub
	for _, k := range s.newStakes { // the previous block did not commit
		f.g.stakes[k].id = 0
	}
	for _, a := range s.newAssets {
		f.g.assets[a].id = 0
	}
	s.included, s.dropped, s.newStakes, s.newAssets = nil, map[string]string{}, nil, nil
	s.outs = map[demonode.Input]input{}
	var txs []FollowTx
	if s.fund != nil {
		tx, err := f.writeFunding(ctx)
		if err != nil {
			return nil, err
		}
		txs = append(txs, tx)
	}
	if f.opts.Submitted == nil || f.v.Mode == ModeDisable {
		return txs, nil
	}
	if s.stmtInput == "" {
		var err error
		if s.stmtInput, err = dbsync.Render(fileFollowSubmittedInput, f.layout, nil); err != nil {
			return nil, followErr(fileFollowSubmittedInput, err)
		}
	}
	for _, raw := range f.opts.Submitted.Pending() {
		tx, ok, err := f.writeSubmitted(ctx, raw)
		if err != nil {
			return nil, err
		}
		if ok {
			txs = append(txs, tx)
		}
	}
	return txs, nil
}

// writeSubmitted writes one submitted transaction, or drops it (ok false)
// when it cannot be applied at this block.
func (f *Follower) writeSubmitted(ctx context.Context, raw []byte) (FollowTx, bool, error) {
	g, s := f.g, &f.sub
	// The node decoded what it accepted: these cannot fail.
	era, err := ledger.DetermineTransactionType(raw)
	if err != nil {
		return FollowTx{}, false, nil
	}
	tx, err := demonode.Decode(uint16(era), raw)
	if err != nil {
		return FollowTx{}, false, nil
	}
	hash := tx.HashHex()
	slot := g.slot
	if (tx.InvalidHereafter != nil && slot >= *tx.InvalidHereafter) || (tx.InvalidBefore != nil && slot < *tx.InvalidBefore) {
		s.dropped[hash] = "OutsideValidityIntervalUTxO at slot " + strconv.FormatUint(slot, 10)
		return FollowTx{}, false, nil
	}
	var ins []input
	for _, in := range tx.Inputs {
		r, ok, err := f.resolveInput(ctx, in)
		if err != nil {
			return FollowTx{}, false, err
		}
		if !ok {
			s.dropped[hash] = "BadInputsUTxO " + in.String()
			return FollowTx{}, false, nil
		}
		ins = append(ins, r)
	}
	g.ids.tx++
	txID := g.ids.tx
	g.curTxHash = tx.Hash[:]
	// The follower's own payments may spend its outputs later: their CBOR
	// names this hash.
	g.recordTxHash(txID, g.curTxHash)
	out := FollowTx{ID: txID, Hash: hash, Fee: tx.Fee, Pending: true}
	var outSum uint64
	for _, o := range tx.Outputs {
		outSum += o.Lovelace
	}
	t := g.t.tx.int(txID).bytea(tx.Hash[:]).int(g.blockID).int(int64(g.blockTxs)).uint(outSum).uint(tx.Fee).int(0).
		int(int64(len(raw)))
	for _, b := range []*uint64{tx.InvalidBefore, tx.InvalidHereafter} {
		if b == nil {
			t.null()
		} else {
			t.uint(*b)
		}
	}
	t.bool(true).int(0).int(0).end()
	g.blockTxs++
	g.blockSize += len(raw)
	for i, o := range tx.Outputs {
		w, err := f.receiver(ctx, o.Address)
		if err != nil {
			return FollowTx{}, false, err
		}
		spec := output{w: w, value: o.Lovelace}
		for _, a := range o.Assets {
			id, err := f.assetFor(ctx, a.Policy, a.Name)
			if err != nil {
				return FollowTx{}, false, err
			}
			spec.assets = append(spec.assets, assetQty{asset: id, qty: a.Quantity})
		}
		g.emitOut(txID, i, &spec, true)
		s.outs[demonode.Input{TxHash: tx.Hash, Index: uint32(i)}] = input{w: w, redeemer: -1,
			u: utxo{outID: g.ids.txOut, txID: txID, index: uint16(i), value: o.Lovelace, assets: spec.assets}}
		out.Outputs = append(out.Outputs, FollowOutput{Address: g.wallets[w].addr, Lovelace: o.Lovelace, Assets: len(o.Assets)})
	}
	for _, in := range ins {
		if i := g.findUTxO(in.w, in.u.outID); i >= 0 {
			g.take(in.w, i) // the follower's own traffic must not spend it again
		}
		g.spend(txID, in, 0)
	}
	for _, m := range tx.Metadata {
		g.ids.txMetadata++
		g.t.txMetadata.int(g.ids.txMetadata).uint(m.Label).text(m.JSON).bytea(m.Bytes).int(txID).end()
	}
	g.writeTxCbor(txID, raw)
	for _, h := range tx.RequiredSigners {
		g.writeSigner(txID, append([]byte(nil), h[:]...))
	}
	s.included = append(s.included, hash)
	return out, true, nil
}

// resolveInput resolves an input of a submitted transaction: an output a
// submitted transaction of this block created, else an unspent output in
// the database. ok is false when it is neither.
func (f *Follower) resolveInput(ctx context.Context, in demonode.Input) (input, bool, error) {
	s := &f.sub
	if r, ok := s.outs[in]; ok {
		delete(s.outs, in)
		return r, true, nil
	}
	var u utxo
	var addr, value string
	var unspent bool
	err := f.db.QueryRowContext(ctx, s.stmtInput, in.TxHash[:], int64(in.Index)).Scan(&u.outID, &u.txID, &addr, &value, &unspent)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return input{}, false, nil
	case err != nil:
		return input{}, false, followErr("submitted input", err)
	case !unspent:
		return input{}, false, nil
	}
	for _, b := range f.building { // spent earlier in this block
		if b.u.outID == u.outID {
			return input{}, false, nil
		}
	}
	if u.value, err = strconv.ParseUint(value, 10, 64); err != nil {
		return input{}, false, followErr("submitted input", err)
	}
	u.index = uint16(in.Index)
	w, err := f.walletFor(ctx, addr)
	if err != nil {
		return input{}, false, err
	}
	return input{w: w, u: u, redeemer: -1}, true, nil
}

// submittedDone tells Submitted what the committed block took.
func (f *Follower) submittedDone(ref BlockRef) {
	s := &f.sub
	s.newStakes, s.newAssets = nil, nil
	if s.fund != nil {
		s.fund.done = true
		s.fund = nil
	}
	if f.opts.Submitted != nil {
		f.opts.Submitted.Included(ref.Hash, ref.Slot, s.included, s.dropped)
	}
}

// submittedRolledBack tells Submitted which blocks a rollback removed.
func (f *Follower) submittedRolledBack(ev FollowEvent) {
	if f.opts.Submitted == nil {
		return
	}
	hashes := make([]string, len(ev.Removed))
	for i, b := range ev.Removed {
		hashes[i] = b.Hash
	}
	f.opts.Submitted.RolledBack(ev.Block.Slot, hashes)
}
