package chaingen

import (
	"encoding/hex"
	"math"
	"sort"
)

// genesis writes the Byron genesis pseudo-block and its distribution
// "transactions", one per genesis holder, as db-sync does.
func (g *gen) genesis() {
	g.ids.block++
	g.blockID = g.ids.block
	hash := g.bytes(32)
	g.ids.slotLeader++
	g.genesisLeader = g.ids.slotLeader
	g.t.slotLeader.int(g.genesisLeader).bytea(hash[:28]).null().text("Genesis slot leader").end()

	weights := make([]float64, len(g.genesisHolders))
	var total float64
	for i := range weights {
		weights[i] = 0.5 + g.r.Float64()
		total += weights[i]
	}
	var given uint64
	for i, h := range g.genesisHolders {
		v := uint64(float64(genesisSupply) * weights[i] / total)
		if i == len(g.genesisHolders)-1 {
			v = genesisSupply - given
		}
		given += v
		b := &txb{genesis: true, outs: []output{{w: h, value: v}}}
		g.commit(b)
	}
	g.t.block.int(g.blockID).bytea(hash).null().null().null().null().null().int(g.genesisLeader).
		int(0).ts(g.start).int(int64(len(g.genesisHolders))).int(0).int(0).null().null().null().end()
	g.prevBlock = g.blockID
}

type task struct {
	at float64
	fn func() bool
}

type blockPlan struct {
	slot uint64
	txs  int
	busy bool
}

func (g *gen) runEpoch(e int) error {
	g.epoch = e
	if e >= firstShelley {
		g.boundary(e)
	}
	tasks := g.planTasks(e)
	g.planGov(e)
	sort.SliceStable(tasks, func(i, j int) bool { return tasks[i].at < tasks[j].at })
	plan := g.planBlocks(e)
	total := g.quota[e]
	if e == busyEpoch {
		total -= busyTxs
	}
	if e < byronEpochs {
		g.ebb(e)
	}
	done, ti := 0, 0
	for i, bp := range plan {
		g.beginBlock(bp.slot)
		if !bp.busy && g.gov != nil {
			g.govTick(i == len(plan)-1)
		}
		for k := 0; k < bp.txs; k++ {
			if bp.busy {
				g.busyTx()
				continue
			}
			left := total - done
			if ti < len(tasks) && (tasks[ti].at*float64(total) <= float64(done) || len(tasks)-ti >= left) {
				t := tasks[ti]
				ti++
				if !t.fn() {
					g.ordinaryTx()
				}
			} else {
				g.ordinaryTx()
			}
			done++
		}
		g.endBlock()
		if g.opts.Progress != nil && !g.record {
			g.opts.Progress(int(g.ids.tx), g.opts.Txs)
		}
		if err := g.checkCtx(); err != nil {
			return err
		}
	}
	if g.mir != nil {
		g.sendMIR(g.mir)
		g.mir = nil
	}
	if e < tipEpoch {
		g.finalizeEpoch(e)
	}
	g.logf("epoch %d: %d transactions so far, %d blocks", e, g.ids.tx, g.ids.block)
	return nil
}

// planBlocks spreads the epoch's transactions over blocks at increasing
// slots; per-block counts vary (some blocks are empty). The busy epoch gets
// one extra block holding busyTxs transactions.
func (g *gen) planBlocks(e int) []blockPlan {
	first, length := epochFirstSlot(e), epochLength(e)
	if e == tipEpoch {
		length = tipEpochSlot + 1
	}
	q := g.quota[e]
	per := g.txPerBlock
	if e < firstShelley {
		per = 3
	}
	busy := 0
	if e == busyEpoch {
		q -= busyTxs
		busy = 1
	}
	nb := clamp(q/per, 20, int(length/3))
	nb += busy
	busyAt := -1
	if busy == 1 {
		busyAt = nb * 3 / 5
	}
	weights := make([]float64, nb)
	var sum float64
	for i := range weights {
		if i == busyAt || g.chance(0.04) {
			continue
		}
		weights[i] = -math.Log(1 - g.r.Float64())
		sum += weights[i]
	}
	plan := make([]blockPlan, nb)
	gap := length / uint64(nb)
	var acc float64
	given := 0
	for i := range plan {
		plan[i].slot = first + uint64(i)*gap + uint64(g.intn(int(gap)))
		if i == busyAt {
			plan[i].busy, plan[i].txs = true, busyTxs
			continue
		}
		acc += weights[i]
		upto := int(math.Round(float64(q) * acc / sum))
		if i == nb-1 {
			upto = q
		}
		plan[i].txs = upto - given
		given = upto
	}
	if e == tipEpoch {
		plan[nb-1].slot = tipSlot
	}
	return plan
}

func (g *gen) ebb(e int) {
	g.ids.block++
	id := g.ids.block
	if g.ebbLeaderID == 0 {
		g.ids.slotLeader++
		g.ebbLeaderID = g.ids.slotLeader
		g.t.slotLeader.int(g.ebbLeaderID).bytea(make([]byte, 28)).null().text("Epoch boundary slot leader").end()
	}
	t := g.slotTime(epochFirstSlot(e))
	g.t.block.int(id).bytea(g.bytes(32)).int(int64(e)).null().null().null().ref(g.prevBlock).int(g.ebbLeaderID).
		int(int64(800 + g.intn(300))).ts(t).int(0).int(0).int(0).null().null().null().end()
	g.prevBlock = id
	a := &g.epochAgg[e]
	a.blocks++
	if a.start.IsZero() {
		a.start = t
	}
	a.end = t
}

func (g *gen) beginBlock(slot uint64) {
	g.ids.block++
	g.blockID = g.ids.block
	g.blockNo++
	g.slot = slot
	g.blockTxs, g.blockSize = 0, 0
	e := g.epoch
	a := &g.epochAgg[e]
	if a.firstBlockID == 0 {
		a.firstBlockID, a.firstSlot = g.blockID, slot
	}
	// The leader.
	g.leader = -1
	switch {
	case e < firstShelley:
		i := g.intn(len(g.byronDelegates))
		if g.byronDelegateIDs[i] == 0 {
			g.ids.slotLeader++
			g.byronDelegateIDs[i] = g.ids.slotLeader
			h := g.byronDelegates[i]
			g.t.slotLeader.int(g.ids.slotLeader).bytea(h).null().text("ByronGenesis-" + hex.EncodeToString(h[:8])).end()
		}
		g.leaderID = g.byronDelegateIDs[i]
	case len(g.leaderDist) == 0:
		i := g.intn(len(g.genesisDelegates))
		if g.shelleyDelegateIDs[i] == 0 {
			g.ids.slotLeader++
			g.shelleyDelegateIDs[i] = g.ids.slotLeader
			h := g.genesisDelegates[i]
			g.t.slotLeader.int(g.ids.slotLeader).bytea(h).null().text("ShelleyGenesis-" + hex.EncodeToString(h[:8])).end()
		}
		g.leaderID = g.shelleyDelegateIDs[i]
	default:
		x := g.r.Uint64N(g.leaderDist[len(g.leaderDist)-1].cum)
		i := sort.Search(len(g.leaderDist), func(i int) bool { return g.leaderDist[i].cum > x })
		p := g.leaderDist[i].pool
		pl := &g.pools[p]
		if pl.leaderID == 0 {
			g.ids.slotLeader++
			pl.leaderID = g.ids.slotLeader
			g.t.slotLeader.int(pl.leaderID).bytea(pl.hash).int(g.ensurePoolHash(p)).
				text("Pool-" + hex.EncodeToString(pl.hash[:8])).end()
		}
		g.leader, g.leaderID = p, pl.leaderID
	}
	if g.pendingEpoch == e && e >= firstShelley {
		g.writeEpochParam(e)
		g.writeAdaPots(e)
		g.writeEpochState(e, g.blockID)
		g.pendingEpoch = -1
	}
}

func (g *gen) endBlock() {
	e := g.epoch
	size := 900 + g.intn(250) + g.blockSize
	maj, mnr := protoOf(e)
	t := g.t.block
	hash := g.bytes(32)
	t.int(g.blockID).bytea(hash).int(int64(e)).uint(g.slot).uint(g.slot - epochFirstSlot(e)).
		int(g.blockNo).ref(g.prevBlock).int(g.leaderID).int(int64(size)).ts(g.slotTime(g.slot)).
		int(int64(g.blockTxs)).int(maj).int(mnr)
	switch {
	case e < firstShelley:
		t.null().null().null()
	case g.leader >= 0:
		pl := &g.pools[g.leader]
		t.text(pl.vrfKey).bytea(pl.opCert).int(pl.opCounter)
		pl.blocks[e]++
	default:
		// A VRF key is 32 bytes (vrf_vk1… of 65 characters): one made from
		// the delegate's 28-byte hash, so the chain's randomness is unchanged.
		t.text(bech32Of("vrf_vk", hashOf(g.genesisDelegates[g.intn(7)]))).bytea(g.bytes(32)).int(0)
	}
	t.end()
	if g.record {
		g.hist.recordBlock(g.blockNo, g.ids.tx, g.blockTxs, e >= firstShelley)
	}
	g.prevBlock = g.blockID
	a := &g.epochAgg[e]
	a.blocks++
	bt := g.slotTime(g.slot)
	if a.start.IsZero() {
		a.start = bt
	}
	a.end = bt
	g.lastBlockHash = hash
	g.lastSlot = g.slot
	if g.blockID == g.stats.busyBlock {
		g.stats.busyHash = hash
	}
}
