package demonode

import (
	"slices"
	"sync"

	"github.com/blinklabs-io/gouroboros/protocol/localtxmonitor"
)

// DefaultCapacityBytes is the mempool's capacity: twice mainnet's
// maximum block body size, as cardano-node sizes its mempool.
const DefaultCapacityBytes = 2 * 90112

// keptBlocks bounds how many blocks' transactions the mempool remembers
// for rollbacks: more than the chain follower ever rolls back.
const keptBlocks = 64

// Mempool holds the transactions the demo node accepted, in arrival order,
// until a block takes them. It is what LocalTxMonitor lists and what the
// chain follower includes (Pending, Included, RolledBack: the chaingen
// follower's Submitted hooks). Safe for concurrent use.
//
// After a rollback the transactions of the removed blocks come back to the
// front of the mempool, in chain order, and the follower puts them in its
// next block: the other nodes of a real network still hold them, and the
// winning fork soon carries them, so a wallet sees them pending again,
// then confirmed. A transaction that can no longer be applied when its
// next block is built (its validity interval passed, an input gone) is
// dropped, as a node drops what its mempool can no longer validate.
type Mempool struct {
	mu       sync.Mutex
	txs      []*Tx
	bytes    int
	capacity int
	tipSlot  uint64
	blocks   []includedBlock // oldest first
	logf     func(format string, args ...any)
}

type includedBlock struct {
	hash string
	txs  []*Tx
}

func newMempool(capacity int, tipSlot uint64, logf func(string, ...any)) *Mempool {
	if capacity <= 0 {
		capacity = DefaultCapacityBytes
	}
	return &Mempool{capacity: capacity, tipSlot: tipSlot, logf: logf}
}

// Pending returns the waiting transactions' CBOR in mempool order.
func (m *Mempool) Pending() [][]byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([][]byte, len(m.txs))
	for i, t := range m.txs {
		out[i] = t.Raw
	}
	return out
}

// Len is the number of waiting transactions.
func (m *Mempool) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.txs)
}

// Has reports whether the transaction with this id (hex) is waiting.
func (m *Mempool) Has(hash string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.indexOf(hash) >= 0
}

func (m *Mempool) indexOf(hash string) int {
	return slices.IndexFunc(m.txs, func(t *Tx) bool { return t.HashHex() == hash })
}

// Included records a block the chain follower committed at slot: the
// included transactions (ids, hex) leave the mempool, remembered with the
// block for a rollback; the dropped ones leave it for good.
func (m *Mempool) Included(block string, slot uint64, included []string, dropped map[string]string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tipSlot = slot
	b := includedBlock{hash: block}
	for _, h := range included {
		if i := m.indexOf(h); i >= 0 {
			b.txs = append(b.txs, m.txs[i])
			m.remove(i)
		}
	}
	for h, why := range dropped {
		if i := m.indexOf(h); i >= 0 {
			m.remove(i)
			m.log("demo node: dropped transaction %s from the mempool: %s", h, why)
		}
	}
	m.blocks = append(m.blocks, b)
	if len(m.blocks) > keptBlocks {
		m.blocks = m.blocks[len(m.blocks)-keptBlocks:]
	}
}

// RolledBack takes back, at the front of the mempool and in chain order,
// the transactions of the removed blocks (hashes, any order); tipSlot is
// the new tip's slot.
func (m *Mempool) RolledBack(tipSlot uint64, removed []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tipSlot = tipSlot
	var back []*Tx
	kept := m.blocks[:0]
	for _, b := range m.blocks {
		if slices.Contains(removed, b.hash) {
			back = append(back, b.txs...)
			continue
		}
		kept = append(kept, b)
	}
	m.blocks = kept
	for _, t := range back {
		m.bytes += len(t.Raw)
	}
	if len(back) > 0 {
		m.log("demo node: %d transactions of rolled-back blocks are back in the mempool", len(back))
	}
	m.txs = append(back, m.txs...)
}

func (m *Mempool) remove(i int) {
	m.bytes -= len(m.txs[i].Raw)
	m.txs = slices.Delete(m.txs, i, i+1)
}

// add appends an accepted transaction (the caller holds mu and checked
// it against the mempool's ledger state).
func (m *Mempool) add(t *Tx) { m.txs = append(m.txs, t); m.bytes += len(t.Raw) }

// slot is the slot the mempool's transactions are validated for: one past
// the tip, as a node's LocalTxMonitor reports it.
func (m *Mempool) slot() uint64 { return m.tipSlot + 1 }

// spentBy returns the waiting transaction spending in, if any (mu held).
func (m *Mempool) spentBy(in Input) *Tx {
	for _, t := range m.txs {
		if slices.Contains(t.Inputs, in) {
			return t
		}
	}
	return nil
}

// produced returns the output in names when a waiting transaction
// creates it (mu held): spending it chains on that transaction.
func (m *Mempool) produced(in Input) (Output, bool) {
	for _, t := range m.txs {
		if t.Hash == in.TxHash && int(in.Index) < len(t.Outputs) {
			return t.Outputs[in.Index], true
		}
	}
	return Output{}, false
}

// snapshot is what a LocalTxMonitor acquisition sees.
func (m *Mempool) snapshot(localtxmonitor.CallbackContext) (uint64, uint32, []localtxmonitor.TxAndEraId, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	txs := make([]localtxmonitor.TxAndEraId, len(m.txs))
	for i, t := range m.txs {
		txs[i] = localtxmonitor.TxAndEraId{EraId: uint(t.EraID), Tx: t.Raw}
	}
	return m.slot(), uint32(m.capacity), txs, nil
}

func (m *Mempool) log(format string, args ...any) {
	if m.logf != nil {
		m.logf(format, args...)
	}
}
