package chaingen

import (
	"math/big"
	"math/bits"
	"time"
)

type epochAgg struct {
	outLo, outHi uint64
	fees         uint64
	txs, blocks  int64
	start, end   time.Time
	firstBlockID int64
	firstSlot    uint64
}

func (a *epochAgg) addOut(v uint64) {
	var c uint64
	a.outLo, c = bits.Add64(a.outLo, v, 0)
	a.outHi += c
}

// finalizeEpoch writes the epoch's row, with exactly the aggregates the
// epoch_current view would compute from block and tx: into epoch_finalized
// on 13.7 (which db-sync leaves empty when the epoch view is off, as with
// bootstrap or disabled outputs), into the epoch table on 13.6 (where the
// tip epoch gets its row too, from finish).
func (g *gen) finalizeEpoch(e int) {
	if !g.epochRows() {
		return
	}
	a := &g.epochAgg[e]
	out := new(big.Int).Lsh(new(big.Int).SetUint64(a.outHi), 64)
	out.Add(out, new(big.Int).SetUint64(a.outLo))
	g.t.epochFinalized.int(int64(e) + 1).num(out.String()).uint(a.fees).int(a.txs).int(a.blocks).
		int(int64(e)).ts(a.start).ts(a.end).end()
}

// boundary applies, at the start of epoch e, what the ledger does at the
// epoch transition, in the ledger's order: pay the rewards that become
// spendable now, take the stake snapshot (written as epoch_stake for e+1),
// retire pools whose retirement takes effect, compute last epoch's rewards
// (spendable at e+1), grow the treasury, and draw this epoch's block
// producers from the snapshot taken one epoch ago (epoch_stake for e).
func (g *gen) boundary(e int) {
	if e == firstShelley {
		g.treasury = treasuryStart
	}
	g.govBoundary(e)
	g.credit(e)
	g.snapshot(e)
	g.reap(e)
	g.writeDRepDistr(e)
	g.writePoolStats(e)
	if e-1 >= firstShelley+2 {
		g.computeRewards(e - 1)
	}
	delete(g.snaps, e-2)
	switch e {
	case firstShelley + 1:
		g.scheduleMIR("reserves", 20, e+1, 0)
	case firstShelley + 4:
		g.scheduleMIR("treasury", 3, e+1, 1_000_000*ada)
	}
	if e > firstShelley {
		g.treasury += uint64(0.0006 * float64(g.reserves()))
	}
	g.leaderDist = g.leaderDist[:0]
	per := map[int32]uint64{}
	for _, s := range g.snaps[e] {
		if g.pools[s.pool].registered {
			per[s.pool] += s.amount
		}
	}
	var cum uint64
	for p := range g.pools {
		if v := per[int32(p)]; v > 0 {
			cum += v
			g.leaderDist = append(g.leaderDist, leaderWeight{pool: int32(p), cum: cum})
		}
	}
	g.pots = potsRow{
		treasury: g.treasury, rewards: g.rewardTotal, utxo: g.utxoTotal,
		deposits: g.depositTotal, fees: g.feesByEpoch[e-1],
	}
	if g.gov != nil {
		g.pots.depDRep, g.pots.depProp = g.gov.depDRep, g.gov.depProp
	}
	g.pots.reserves = g.reserves()
	g.pendingEpoch = e
}

type potsRow struct {
	treasury, reserves, rewards, utxo, deposits, fees uint64
	depDRep, depProp                                  uint64 // DRep and proposal deposits (Conway)
}

// reserves is what is left of the maximum supply after every other pot
// (so the pots of an epoch always add up to the maximum supply).
func (g *gen) reserves() uint64 {
	r := maxSupply - g.treasury - g.rewardTotal - g.utxoTotal - g.depositTotal - g.feesByEpoch[max(g.epoch-1, 0)]
	if g.gov != nil {
		r -= g.gov.depDRep + g.gov.depProp
	}
	return r
}

func (g *gen) costModel(langs int) int64 {
	if g.costModels == nil {
		g.costModels = map[int]int64{}
	}
	if id, ok := g.costModels[langs]; ok {
		return id
	}
	sizes := []int{166, 175, 297}
	var b []byte
	b = append(b, '{')
	for l := 0; l < langs; l++ {
		if l > 0 {
			b = append(b, ',')
		}
		b = append(b, `"PlutusV`...)
		b = append(b, byte('1'+l))
		b = append(b, `":[`...)
		for i := 0; i < sizes[l]; i++ {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendInt(b, int64(g.logUniform(1, 3e6)))
		}
		b = append(b, ']')
	}
	b = append(b, '}')
	g.ids.costModel++
	id := g.ids.costModel
	h := hashOf(b)
	g.t.costModel.int(id).text(string(b)).bytea(h).end()
	g.costModels[langs] = id
	return id
}

func (g *gen) writeEpochParam(e int) { g.writeEpochParamAt(e, g.epochAgg[e].firstBlockID) }

// writeEpochParamAt writes epoch e's parameters, in force from block
// blockID (the epoch's first block).
func (g *gen) writeEpochParamAt(e int, blockID int64) {
	era := eraOf(e)
	maj, mnr := protoOf(e)
	d := 0.0
	if e < firstShelley+2 {
		d = 1
	}
	g.ids.epochParam++
	t := g.t.epochParam
	maxBlock, maxTx := int64(65536), int64(16384)
	if era >= eraAlonzo {
		maxBlock = 90112
	}
	minUtxo := uint64(1_000_000)
	if era >= eraAlonzo {
		minUtxo = 0
	}
	t.int(g.ids.epochParam).int(int64(e)).int(minFeeA).int(minFeeB).int(maxBlock).int(maxTx).int(1100).
		uint(keyDeposit).uint(poolDeposit).int(18).int(500).float(0.3).float(0.003).float(0.2).float(d).
		int(maj).int(mnr).uint(minUtxo).uint(minPoolCost).bytea(g.bytes(32))
	if era >= eraAlonzo {
		langs := 1
		if era == eraBabbage {
			langs = 2
		} else if era == eraConway {
			langs = 3
		}
		t.int(g.costModel(langs)).float(0.0577).float(0.0000721).uint(g.param("max_tx_ex_mem", 14_000_000)).
			uint(10_000_000_000).uint(g.param("max_block_ex_mem", 62_000_000)).uint(20_000_000_000).uint(5000).int(150).int(3)
	} else {
		t.null().null().null().null().null().null().null().null().null().null()
	}
	t.int(blockID).null()
	switch era {
	case eraAlonzo:
		t.uint(34482)
	case eraBabbage, eraConway:
		t.uint(4310)
	default:
		t.null()
	}
	if era == eraConway {
		t.float(0.51).float(0.51).float(0.51).float(0.51).
			float(0.67).float(0.67).float(0.6).float(0.75).float(0.6).float(0.67).float(0.67).float(0.67).float(0.67).float(0.67).
			uint(7).uint(146).uint(govLifetime).uint(govActionDeposit).uint(drepDeposit).uint(drepActivity).float(0.51).float(15)
	} else {
		for i := 0; i < 22; i++ {
			t.null()
		}
	}
	t.end()
}

func (g *gen) writeAdaPots(e int) {
	g.writeAdaPotsAt(e, g.epochAgg[e].firstSlot, g.epochAgg[e].firstBlockID)
}

// writeAdaPotsAt writes g.pots as epoch e's pots, taken at the epoch's
// first block (blockID, at slot).
func (g *gen) writeAdaPotsAt(e int, slot uint64, blockID int64) {
	p := g.pots
	g.ids.adaPots++
	g.t.adaPots.int(g.ids.adaPots).uint(slot).int(int64(e)).uint(p.treasury).uint(p.reserves).
		uint(p.rewards).uint(p.utxo).uint(p.deposits).uint(p.fees).int(blockID).uint(p.depDRep).uint(p.depProp).end()
}

// finish writes what the tip epoch already knows: its epoch row so far on
// 13.6, and the rewards earned in the previous epoch, not spendable until
// the next one.
func (g *gen) finish() {
	if g.opts.Schema == Schema136 {
		g.finalizeEpoch(tipEpoch)
	}
	g.writeProposals()
	for _, r := range g.pendingRew {
		if r.spendable == tipEpoch+1 && g.stakes[r.stake].registered {
			g.t.reward.int(g.ensureStake(r.stake)).text(r.typ).uint(r.amount).int(int64(r.spendable)).
				int(g.ensurePoolHash(r.pool)).end()
			g.stakes[r.stake].rewards++
			g.stats.rewards++
		}
	}
}

// epochRows: whether db-sync maintains per-epoch rows in this variant. On
// 13.7 it does so only while epoch_sync_enabled is on, which it switches
// off for bootstrap and disabled outputs.
func (g *gen) epochRows() bool {
	return g.opts.Schema == Schema136 || !g.opts.Mode.inOutDisabled()
}

// param is an epoch parameter as enacted governance left it (def: the
// chain's constant).
func (g *gen) param(name string, def uint64) uint64 {
	if g.gov != nil {
		if v, ok := g.gov.params[name]; ok {
			return v
		}
	}
	if v, ok := g.followParams[name]; ok {
		return v
	}
	return def
}
