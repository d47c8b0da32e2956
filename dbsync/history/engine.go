// Package history is the history engine under package dbsync: one page
// of an address's transaction history (Page) and its count (Count), with
// what makes them cheap on long histories: anchors for deep offsets
// (anchors.go), counts that follow the chain from a remembered base
// (count.go), a memo of final pages (memo.go) and the unspent-output
// index's marks for recent pages. It runs its statements in a snapshot
// the caller opens on the connection engine (dbsync/engine).
package history

import (
	"github.com/syncgate/syncgate/dbsync/engine"
)

// Options tune an Engine; zero fields take the defaults.
type Options struct {
	// MemoBytes bounds the memo of final pages (0: DefaultMemoBytes; below
	// 0: off).
	MemoBytes int
	// SmallOutputs: addresses with fewer outputs read their history whole
	// (0: smallHistoryOutputs; below 0: never).
	SmallOutputs int
	// DenseOutputs fixes the output count from which a core-mode address
	// counts as dense (0: computed, see denseOutputs).
	DenseOutputs int64
	// FinalDepth makes blocks this far below the tip final for the memo
	// (0: past db-sync's deepest rollback), so tests on short chains reach it.
	FinalDepth int64
	// AnchorStride replaces anchorStride (0: the default); tests use a
	// small one so short histories exercise anchors.
	AnchorStride int
}

// Engine is one network's history engine: what it remembers between
// requests (anchors, count bases, final pages, output counts) over the
// network's connection engine.
type Engine struct {
	eng  *engine.Engine
	opts Options
	// recent: newest-first history pages read from the index's marks
	// (tx_history_recent.sql), see historyWalk.fetchRecent.
	recent recentPages
	// counts: addresses' history counts, remembered to count on from.
	counts historyCounts
	// anchors: remembered places in long histories.
	anchors historyAnchors
	// memo: final history pages.
	memo historyMemo
	// txOutEstimate: tx_out's size for the core history walk (denseOutputs).
	txOutEstimate rowEstimate
	// outputsSeen: core-mode addresses' output counts (Page).
	outputsSeen outputCounts
}

// New returns the history engine over eng.
func New(eng *engine.Engine, o Options) *Engine {
	if o.SmallOutputs == 0 {
		o.SmallOutputs = smallHistoryOutputs
	}
	h := &Engine{eng: eng, opts: o, memo: newHistoryMemo(o.MemoBytes), counts: newHistoryCounts()}
	h.anchors.stride = int64(o.AnchorStride)
	return h
}

// Options returns the options the engine was made with.
func (h *Engine) Options() Options { return h.opts }

// caps is what detection found on the primary (zero before it is ready).
func (h *Engine) caps() engine.Capabilities { c, _ := h.eng.Capabilities(); return c }
