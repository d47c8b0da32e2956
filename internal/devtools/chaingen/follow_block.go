package chaingen

import (
	"context"
	"database/sql/driver"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"time"
)

// spentOut is an output a transaction of the block being built spends.
type spentOut struct {
	txID int64
	u    utxo
}

// slotAtTime is the slot whose time is t (the inverse of slotSeconds).
func slotAtTime(start, t time.Time) uint64 {
	secs := int64(t.Sub(start) / time.Second)
	if secs < 0 {
		return 0
	}
	if secs <= byronSlots*byronSlotSeconds {
		return uint64(secs / byronSlotSeconds)
	}
	return byronSlots + uint64(secs-byronSlots*byronSlotSeconds)
}

// epochOfSlot is the epoch a slot belongs to.
func epochOfSlot(slot uint64) int {
	if slot < byronSlots {
		return int(slot / byronEpochSlots)
	}
	return byronEpochs + int((slot-byronSlots)/shelleyEpochSlots)
}

// nextSlot is the next block's slot: SlotsPerBlock past the tip, or the
// wall clock's slot. It never leaves an epoch without blocks (a chain
// behind the clock catches up an epoch per block): an epoch's parameters,
// pots and stake snapshot hang off its first block.
func (f *Follower) nextSlot() uint64 {
	s := f.tip.Slot + f.opts.SlotsPerBlock
	if f.opts.SlotsPerBlock == 0 {
		s = max(slotAtTime(f.g.start, time.Now()), f.tip.Slot+1)
	}
	if next := f.tip.Epoch + 1; epochOfSlot(s) > next {
		s = epochFirstSlot(next)
	}
	return s
}

// AppendBlock appends one block on top of the tip, in one database
// transaction, and reports it.
func (f *Follower) AppendBlock(ctx context.Context) (ev FollowEvent, err error) {
	g := f.g
	prev := f.tip
	slot := f.nextSlot()
	epoch := epochOfSlot(slot)
	boundary := epoch > prev.Epoch
	var pots potsRow
	if boundary {
		if pots, err = f.queryPots(ctx, epoch); err != nil {
			return ev, err
		}
	}

	t := newTables(false, f.v)
	for _, tb := range t.all() {
		tb.stream = false
	}
	g.t, g.ctx = t, ctx
	g.ids.block++
	blockID := g.ids.block
	g.blockID, g.slot, g.blockTxs, g.blockSize = blockID, slot, 0, 0
	f.building = nil
	g.onSpend = func(txID int64, u utxo) { f.building = append(f.building, spentOut{txID, u}) }
	pend := f.queue
	f.queue = nil
	if f.opts.Pending != nil {
		pend = append(pend, f.opts.Pending()...)
	}
	defer func() {
		g.onSpend, g.nextTxHash = nil, nil
		if p := recover(); p != nil {
			err = followErr("build block", fmt.Errorf("%v", p))
		}
		if err != nil {
			// The block was not written: the in-memory coins go back to
			// what the database holds.
			if rerr := f.reloadUTxOs(context.WithoutCancel(ctx)); rerr != nil {
				err = errors.Join(err, rerr)
			}
			if rerr := f.loadIDs(context.WithoutCancel(ctx)); rerr != nil {
				err = errors.Join(err, rerr)
			}
			f.queue = pend // still to be included
		}
	}()

	txs, err := f.addSubmitted(ctx)
	if err != nil {
		return ev, err
	}
	var included []PendingTx
	for _, p := range pend {
		tx, ok, err := f.pendingTx(ctx, p)
		if err != nil {
			return ev, err
		}
		if !ok {
			f.queue = append(f.queue, p) // no funds in this block; try the next one
			continue
		}
		txs = append(txs, tx)
		included = append(included, p)
		if len(p.CBOR) > 0 {
			g.writeTxCbor(tx.ID, p.CBOR)
		}
	}
	if f.opts.TxsPerBlock > 0 && f.v.Mode != ModeDisable {
		n := g.intn(2*f.opts.TxsPerBlock + 1)
		for i := 0; i < n; i++ {
			if tx, ok := f.payment(); ok {
				txs = append(txs, tx)
			}
		}
	}

	if err := f.propose(ctx, txs, boundary, epoch); err != nil {
		return ev, err
	}
	if err := f.votes(ctx, txs); err != nil {
		return ev, err
	}

	// The block row, once its transactions are known.
	l := f.leaders[g.intn(len(f.leaders))]
	maj, mnr := protoOf(epoch)
	hash := g.bytes(32)
	bt := g.slotTime(slot)
	ref := BlockRef{ID: blockID, Hash: hex.EncodeToString(hash), BlockNo: prev.BlockNo + 1, Slot: slot, Epoch: epoch, Time: bt}
	t.block.int(blockID).bytea(hash).int(int64(epoch)).uint(slot).uint(slot - epochFirstSlot(epoch)).int(ref.BlockNo).
		ref(prev.ID).int(l.id).int(int64(900 + g.intn(250) + g.blockSize)).ts(bt).int(int64(g.blockTxs)).int(maj).int(mnr).
		text(l.vrf).bytea(l.opCert).int(l.counter).end()
	if boundary {
		g.ids.epochStakeProgress++
		t.epochStakeProgress.int(g.ids.epochStakeProgress).int(int64(epoch) + 1).bool(true).end()
		g.pots = pots
		g.writeAdaPotsAt(epoch, slot, blockID)
		g.writeEpochParamAt(epoch, blockID)
		g.writeEpochState(epoch, blockID)
	}

	if err := f.writeBlock(ctx, t, prev.Epoch, epoch, boundary, f.building); err != nil {
		return ev, err
	}
	f.tip = ref
	f.journal = append(f.journal, journalBlock{ref: ref, prev: prev, pending: included})
	if len(f.journal) > maxJournal {
		f.journal = f.journal[len(f.journal)-maxJournal:]
	}
	f.appended++
	f.submittedDone(ref)
	ev = FollowEvent{Kind: BlockAppended, Block: ref, Txs: txs, EpochStart: boundary}
	f.report(ev)
	return ev, nil
}

// describe reports the transaction just committed: its outputs, found in
// the wallets that received them, and its fee.
func (f *Follower) describe(txID int64, ws []int32, pending bool) FollowTx {
	g := f.g
	tx := FollowTx{ID: txID, Hash: hex.EncodeToString(g.curTxHash), Pending: pending}
	type out struct {
		index uint16
		o     FollowOutput
	}
	var outs []out
	seen := map[int32]bool{}
	for _, w := range ws {
		if seen[w] {
			continue
		}
		seen[w] = true
		for _, u := range g.wallets[w].utxos {
			if u.txID == txID {
				outs = append(outs, out{u.index, FollowOutput{Address: g.wallets[w].addr, Lovelace: u.value, Assets: len(u.assets)}})
			}
		}
	}
	slices.SortFunc(outs, func(a, b out) int { return int(a.index) - int(b.index) })
	var in, sum uint64
	for _, s := range f.building {
		if s.txID == txID {
			in += s.u.value
		}
	}
	for _, o := range outs {
		tx.Outputs = append(tx.Outputs, o.o)
		sum += o.o.Lovelace
	}
	if in > sum {
		tx.Fee = in - sum
	}
	return tx
}

// payment is one ordinary transaction between the followed addresses:
// a spendable one pays one or two others (sometimes with a native asset
// from its coins) and takes its change.
func (f *Follower) payment() (FollowTx, bool) {
	g := f.g
	var s int32 = -1
	for try := 0; try < 8; try++ {
		if len(f.spendable) == 0 {
			return FollowTx{}, false
		}
		w := f.spendable[g.intn(len(f.spendable))]
		if g.wallets[w].balance >= 10*ada {
			s = w
			break
		}
	}
	if s < 0 || len(g.wallets) < 2 {
		return FollowTx{}, false
	}
	sw := &g.wallets[s]
	k := 1 + g.intn(2)
	var outs []output
	ws := []int32{s}
	for i := 0; i < k; i++ {
		r := int32(g.intn(len(g.wallets)))
		if r == s || g.wallets[r].special {
			continue
		}
		v := uint64(g.logUniform(1.5, 400) * ada)
		outs = append(outs, output{w: r, value: v})
		ws = append(ws, r)
	}
	var total uint64
	for _, o := range outs {
		total += o.value
	}
	if len(outs) == 0 || total+5*ada > sw.balance {
		return FollowTx{}, false
	}
	var pre []input
	if g.chance(0.35) {
		pre = g.assetAlong(s, 4, outs)
	}
	txID, ok := g.pay(payReq{from: s, pre: pre, outs: outs, maxIns: 40})
	if !ok {
		g.restore(pre)
		return FollowTx{}, false
	}
	return f.describe(txID, ws, false), true
}

// pendingTx includes one submitted transaction, paid by the richest
// followed address.
func (f *Follower) pendingTx(ctx context.Context, p PendingTx) (FollowTx, bool, error) {
	g := f.g
	var from int32 = -1
	for _, w := range f.spendable {
		if from < 0 || g.wallets[w].balance > g.wallets[from].balance {
			from = w
		}
	}
	if from < 0 || f.v.Mode == ModeDisable {
		return FollowTx{}, false, nil
	}
	var outs []output
	ws := []int32{from}
	for _, o := range p.To {
		w, err := f.walletFor(ctx, o.Address)
		if err != nil {
			return FollowTx{}, false, err
		}
		outs = append(outs, output{w: w, value: max(o.Lovelace, minAda(0))})
		ws = append(ws, w)
	}
	if len(outs) == 0 {
		return FollowTx{}, false, errors.New("chaingen: follow: a pending transaction without outputs")
	}
	if len(p.Hash) == 32 {
		g.nextTxHash = slices.Clone(p.Hash)
	} else if len(p.CBOR) > 0 {
		g.noCBOR = true // stored as given, under a hash of its own
	}
	txID, ok := g.pay(payReq{from: from, outs: outs, maxIns: 60})
	g.nextTxHash, g.noCBOR = nil, false
	if !ok {
		return FollowTx{}, false, nil
	}
	return f.describe(txID, ws, true), true, nil
}

// queryPots reads what epoch e's pots are made of and completes them as
// the generator does: the treasury grows from the reserves, which hold
// whatever the other pots leave of the maximum supply.
func (f *Follower) queryPots(ctx context.Context, e int) (potsRow, error) {
	var p potsRow
	var vals [5]string
	if err := f.db.QueryRowContext(ctx, f.stmtPots, e).Scan(&vals[0], &vals[1], &vals[2], &vals[3], &vals[4]); err != nil {
		return p, followErr("pots", err)
	}
	var n [5]uint64
	for i, s := range vals {
		v, ok := new(big.Int).SetString(s, 10)
		if !ok || !v.IsUint64() {
			return p, followErr("pots", fmt.Errorf("value %q", s))
		}
		n[i] = v.Uint64()
	}
	p = potsRow{treasury: n[0], rewards: n[1], deposits: n[2], fees: n[3], utxo: n[4]}
	used := func() uint64 { return p.treasury + p.rewards + p.deposits + p.fees + p.utxo }
	if used() < maxSupply {
		p.treasury += uint64(0.0006 * float64(maxSupply-used()))
	}
	if u := used(); u < maxSupply {
		p.reserves = maxSupply - u
	}
	return p, nil
}

// writeBlock writes one block in one transaction, in db-sync's order: at
// an epoch boundary the finished epoch, rewards and the stake snapshot;
// the block, its transactions and their outputs, assets and inputs; the
// spent outputs' consumed_by_tx_id; the new epoch's pots and parameters;
// then the sequences move past the ids used.
func (f *Follower) writeBlock(ctx context.Context, t *tables, prevEpoch, epoch int, boundary bool, spends []spentOut) error {
	conn, err := f.db.Conn(ctx)
	if err != nil {
		return followErr("connection", err)
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		bt, ok1 := dc.(driver.ConnBeginTx)
		pc, ok2 := dc.(driver.ConnPrepareContext)
		ex, ok3 := dc.(driver.ExecerContext)
		if !ok1 || !ok2 || !ok3 {
			return errors.New("chaingen: follow: the postgres driver lacks BeginTx/PrepareContext/ExecContext")
		}
		exec := func(what, query string, args ...any) error {
			nv := make([]driver.NamedValue, len(args))
			for i, a := range args {
				switch v := a.(type) {
				case int:
					a = int64(v)
				case uint64:
					a = strconv.FormatUint(v, 10)
				case float64:
					a = strconv.FormatFloat(v, 'g', -1, 64)
				}
				nv[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
			}
			if _, err := ex.ExecContext(ctx, query, nv); err != nil {
				return followErr(what, err)
			}
			return nil
		}
		tx, err := bt.BeginTx(ctx, driver.TxOptions{})
		if err != nil {
			return followErr("begin", err)
		}
		done := false
		defer func() {
			if !done {
				_ = tx.Rollback()
			}
		}()
		if boundary {
			if f.v.Schema == Schema137 && f.epochRows() {
				if err := exec("epoch_finalized", sqlFollowEpochFinal, prevEpoch); err != nil {
					return err
				}
			}
			if err := exec("reward", sqlFollowRewards, epoch, memberRate); err != nil {
				return err
			}
			if err := exec("epoch_stake", sqlFollowEpochStake, epoch); err != nil {
				return err
			}
			if eraOf(epoch) >= eraConway {
				if err := exec("proposals", sqlFollowGovBoundary, epoch); err != nil {
					return err
				}
				if err := exec("drep_distr", sqlFollowDRepDistr, epoch, drepActivity); err != nil {
					return err
				}
			}
		}
		first := []*table{t.slotLeader, t.stakeAddress, t.multiAsset, t.block, t.tx}
		if t.address != nil {
			first = append(first, t.address)
		}
		first = append(first, t.txOut, t.maTxOut, t.txIn)
		order := append([]*table(nil), first...)
		for _, tb := range t.all() {
			if !slices.Contains(first, tb) {
				order = append(order, tb)
			}
		}
		for _, tb := range order {
			tb.finish()
			if len(tb.chunks) == 0 {
				continue
			}
			job := copyJob{table: tb.name, cols: tb.cols, src: tb.chunkSource()}
			if err := copyOne(ctx, pc, job); err != nil {
				return followErr("copy "+tb.name, err)
			}
		}
		if f.v.Mode.fillsConsumed() {
			for _, s := range spends {
				if err := exec("consumed_by_tx_id", sqlFollowConsume, s.txID, s.u.outID); err != nil {
					return err
				}
			}
		}
		if f.v.Schema == Schema136 {
			if boundary {
				if err := exec("epoch", sqlFollowEpochUpsert, prevEpoch); err != nil {
					return err
				}
			}
			if err := exec("epoch", sqlFollowEpochUpsert, epoch); err != nil {
				return err
			}
		}
		for _, tb := range t.all() {
			if tb.rows == 0 || tb.cols[0] != "id" {
				continue
			}
			if p := f.g.idCounter(tb.name); p != nil {
				if err := exec("sequence of "+tb.name, sqlSequenceSet, tb.name, *p); err != nil {
					return err
				}
			}
		}
		done = true
		if err := tx.Commit(); err != nil {
			return followErr("commit", err)
		}
		return nil
	})
}

// epochRows: whether db-sync keeps per-epoch rows in this layout (see
// gen.epochRows).
func (f *Follower) epochRows() bool {
	return f.v.Schema == Schema136 || !f.v.Mode.inOutDisabled()
}
