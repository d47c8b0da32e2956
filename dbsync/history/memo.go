package history

import (
	"github.com/syncgate/syncgate/internal/platform/bounded"
)

// The history memo: what a history page found, kept once it cannot change.
//
// db-sync rolls back at most rollbackDepth blocks, so everything in a slot
// at or below the slot of block tip − rollbackDepth (the final slot) is
// final: no transaction there will appear, disappear or change. A history
// page whose answer depends only on final slots is therefore the same at
// every later tip, whatever the chain does next (its total and tip are
// not part of it: they are read per request). Such pages are remembered:
//
//   - cursor pages by (address, direction, fromSlot, offset, limit):
//     newest first, every transaction at or before fromSlot is read, so the
//     page is final when fromSlot is; oldest first, the page is final when
//     the first transaction after it (its next cursor) is in a final slot;
//   - deep offset pages by the rank of their first item (anchors.go:
//     ranks count from the oldest and never change), final when their
//     newest item is, and, oldest first, the item after them too.
//
// Transactions' inputs and outputs never change either; dbsync remembers
// those (its details memo). Both memos are per process and bounded in
// bytes (HISTORY_MEMO_MB, a quarter for pages and the rest for details);
// entries are read-only once stored, since requests share them.
type historyMemo struct {
	pages *bounded.Map[pageKey, memoPage]
}

// DefaultMemoBytes bounds the history memo (pages and the caller's
// transaction details) when options leave it 0.
const DefaultMemoBytes = 32 << 20

// PageMemoBytes is the pages' share of a memo of n bytes (0: the default):
// a quarter; transaction details take the rest.
func PageMemoBytes(n int) int {
	if n == 0 {
		n = DefaultMemoBytes
	}
	return n / 4
}

func newHistoryMemo(bytes int) historyMemo {
	if bytes < 0 {
		return historyMemo{} // off: nil maps store and find nothing
	}
	return historyMemo{pages: bounded.New[pageKey, memoPage](PageMemoBytes(bytes), nil)}
}

// pageKey names a final page. cursor pages are keyed by their fromSlot
// and offset; deep offset pages by the rank of their first item (from),
// with offset 0.
type pageKey struct {
	addr   string
	asc    bool
	cursor bool
	from   int64
	offset int
	limit  int
}

// memoPage is a final page's items and next cursor.
type memoPage struct {
	items []TxRef
	next  *int64
}

func (m historyMemo) page(k pageKey) (memoPage, bool) {
	if m.pages == nil {
		return memoPage{}, false
	}
	return m.pages.Get(k)
}

func (m historyMemo) rememberPage(k pageKey, p memoPage) {
	if m.pages == nil {
		return
	}
	cost := 64 + len(k.addr)
	for _, r := range p.items {
		cost += refCost(r)
	}
	m.pages.Set(k, p, cost)
}

// refCost approximates the bytes a reference holds (strings, big.Int
// words, struct header).
func refCost(r TxRef) int { return 120 + len(r.Hash) + len(r.BlockHash) }

// finalAt reports whether slot is final, given the final slot of the
// snapshot's tip (tx_history_head.sql; nil: the chain is not that long).
func finalAt(slot int64, finalSlot *int64) bool {
	return finalSlot != nil && slot <= *finalSlot
}

// finalBlocks is how far below the tip a block is final: one past the
// deepest rollback (Options.FinalDepth changes it for tests).
func (h *Engine) finalBlocks() int64 {
	if h.opts.FinalDepth > 0 {
		return h.opts.FinalDepth
	}
	return rollbackDepth + 1
}
