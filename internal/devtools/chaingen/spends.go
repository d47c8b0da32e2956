package chaingen

import (
	"bytes"
	"math"
	"slices"
)

// history is what the dry first pass of the consumed, prune and bootstrap
// modes learns about the whole chain before anything is written: who spends
// each output, and (for prune and bootstrap) enough to decide which outputs
// db-sync would have deleted or never inserted, and under which ids.
type history struct {
	consumed []uint32 // per tx_out.id: the spending tx.id, 0 while unspent

	// prune: per block_no, the highest tx.id in blocks 1..block_no (0
	// while there is none), and the Shelley-era block count.
	blockLastTx   []uint32
	shelleyBlocks int64

	// bootstrap: per tx_out.id its tx and index and asset count; per tx.id
	// its hash.
	outTx     []uint32
	outIndex  []uint16
	outAssets []uint16
	txHash    [][32]byte
}

func newHistory(m Mode) *history {
	h := &history{consumed: []uint32{0}}
	if m == ModePrune {
		h.blockLastTx = []uint32{0}
	}
	if m == ModeBootstrap {
		h.outTx, h.outIndex, h.outAssets, h.txHash = []uint32{0}, []uint16{0}, []uint16{0}, [][32]byte{{}}
	}
	return h
}

// recordOut notes a new output during the dry pass.
func (h *history) recordOut(id, txID int64, index int, assets int) {
	for int64(len(h.consumed)) <= id {
		h.consumed = append(h.consumed, 0)
	}
	if h.outTx != nil {
		h.outTx = append(h.outTx, uint32(txID))
		h.outIndex = append(h.outIndex, uint16(index))
		h.outAssets = append(h.outAssets, uint16(assets))
	}
}

// recordTx notes a transaction's hash (bootstrap only).
func (h *history) recordTx(txID int64, hash []byte) {
	if h.txHash == nil {
		return
	}
	for int64(len(h.txHash)) <= txID {
		h.txHash = append(h.txHash, [32]byte{})
	}
	copy(h.txHash[txID][:], hash)
}

// recordBlock notes the end of a numbered block (prune only).
func (h *history) recordBlock(blockNo int64, lastTx int64, txs int, shelley bool) {
	if h.blockLastTx == nil {
		return
	}
	last := h.blockLastTx[len(h.blockLastTx)-1]
	if txs > 0 {
		last = uint32(lastTx)
	}
	for int64(len(h.blockLastTx)) <= blockNo {
		h.blockLastTx = append(h.blockLastTx, last)
	}
	if shelley {
		h.shelleyBlocks++
	}
}

// PruneFacts say which spent outputs a pruned database has lost. db-sync
// deletes, every 10·k blocks, the outputs spent by transactions at least
// 2·k blocks below that block (k is the security parameter; 2160 on
// mainnet, where a prune runs once an epoch and keeps about a day of spent
// outputs). The generator's chain has far fewer blocks per epoch than
// mainnet, so it scales k by its block density: the same share of an epoch.
type PruneFacts struct {
	SecurityParam    int64 `json:"security_param"`      // k of the generated chain
	PruneInterval    int64 `json:"prune_interval"`      // 10·k blocks between prune runs
	LastPruneBlockNo int64 `json:"last_prune_block_no"` // block_no of the last run (0: none ran)
	MaxPrunedTxID    int64 `json:"max_pruned_tx_id"`    // outputs with consumed_by_tx_id ≤ this are gone (0: none)
}

// outputPlan is what the second pass writes for tx_out and ma_tx_out.
type outputPlan struct {
	mode     Mode
	consumed []uint32
	maxTx    uint32   // prune: drop outputs spent by tx.id ≤ maxTx
	newID    []uint32 // bootstrap: per generated tx_out.id, its id in the ledger-ordered load (0: not loaded)
	maBase   []uint32 // bootstrap: per loaded tx_out.id, the ma_tx_out.id before its first asset
	prune    *PruneFacts
}

// planOutputs turns the dry pass's history into the second pass's plan.
// tipBlockNo is the last block_no of the chain.
func planOutputs(m Mode, h *history, tipBlockNo int64) *outputPlan {
	p := &outputPlan{mode: m}
	if h != nil {
		p.consumed = h.consumed
	}
	switch m {
	case ModePrune:
		p.prune = pruneFacts(h, tipBlockNo)
		p.maxTx = uint32(p.prune.MaxPrunedTxID)
	case ModeBootstrap:
		p.maxTx = math.MaxUint32
		p.ledgerOrder(h)
	}
	return p
}

// pruneFacts computes k for the generated chain (mainnet's 2160 scaled by
// Shelley-era blocks per epoch against mainnet's 21600, at least 2) and
// where db-sync's last prune run left the chain.
func pruneFacts(h *history, tipBlockNo int64) *PruneFacts {
	span := float64(tipSlot - epochFirstSlot(firstShelley) + 1)
	perEpoch := float64(h.shelleyBlocks) * shelleyEpochSlots / span
	k := max(int64(2), int64(math.Round(perEpoch*2160/21600)))
	f := &PruneFacts{SecurityParam: k, PruneInterval: 10 * k}
	f.LastPruneBlockNo = tipBlockNo - tipBlockNo%f.PruneInterval
	if cutoff := f.LastPruneBlockNo - 2*k; f.LastPruneBlockNo > 0 && cutoff >= 1 && cutoff < int64(len(h.blockLastTx)) {
		f.MaxPrunedTxID = int64(h.blockLastTx[cutoff])
	}
	return f
}

// ledgerOrder numbers the outputs still unspent at the tip as db-sync's
// bootstrap loads them from the ledger's UTxO map: by (tx hash, index).
// Their assets follow in that order.
func (p *outputPlan) ledgerOrder(h *history) {
	var live []uint32
	for id := 1; id < len(h.consumed); id++ {
		if h.consumed[id] == 0 {
			live = append(live, uint32(id))
		}
	}
	slices.SortFunc(live, func(a, b uint32) int {
		if c := bytes.Compare(h.txHash[h.outTx[a]][:], h.txHash[h.outTx[b]][:]); c != 0 {
			return c
		}
		return int(h.outIndex[a]) - int(h.outIndex[b])
	})
	p.newID = make([]uint32, len(h.consumed))
	p.maBase = make([]uint32, len(live)+1)
	var ma uint32
	for i, old := range live {
		p.newID[old] = uint32(i + 1)
		p.maBase[i+1] = ma
		ma += uint32(h.outAssets[old])
	}
}

// keeps reports whether the output with this generated id gets a tx_out row.
func (p *outputPlan) keeps(id int64) bool {
	switch p.mode {
	case ModeDisable:
		return false
	case ModePrune, ModeBootstrap:
		c := p.consumed[id]
		return c == 0 || c > p.maxTx
	}
	return true
}

// consumedBy is the tx_out.consumed_by_tx_id to write (0: NULL).
func (p *outputPlan) consumedBy(id int64) int64 {
	if !p.mode.fillsConsumed() || int(id) >= len(p.consumed) {
		return 0
	}
	return int64(p.consumed[id])
}
