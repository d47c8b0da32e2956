package bf

import (
	"context"
	"math/big"
	"slices"
	"sync"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/outputs"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/platform/bounded"
	"github.com/syncgate/syncgate/node"
)

// The mempool routes answer from the node's mempool snapshot (one per
// network, shared by every request: node.Mempool), not from db-sync's
// tip, so they are not cached under it: a snapshot is at most a second or
// so old, and its lists are cut from it per request. Blockfrost's order
// is the time of submission: the node lists its mempool oldest first, so
// asc is the node's order and desc the reverse.

// MempoolItem is one item of Blockfrost's mempool_content and
// mempool_addresses_content.
type MempoolItem struct {
	TxHash string `json:"tx_hash"`
}

// Mempool answers GET /mempool: the page of the snapshot's transactions.
func (a *Answers) Mempool(ctx context.Context, db *dbsync.DB, p Paging) ([]byte, error) {
	snap, err := a.svc.MempoolSnapshot(ctx, db.Network)
	if err != nil {
		return nil, err
	}
	return encode(mempoolPage(snap, allPositions(len(snap.Txs)), p))
}

// MempoolByAddress answers GET /mempool/addresses/{address}: the page of
// the snapshot's transactions that pay to the address or spend one of its
// outputs (their regular inputs; collateral is spent only by a failing
// script), each once. An address no mempool transaction touches has an
// empty list.
func (a *Answers) MempoolByAddress(ctx context.Context, db *dbsync.DB, addr cardano.Address, p Paging) ([]byte, error) {
	snap, err := a.svc.MempoolSnapshot(ctx, db.Network)
	if err != nil {
		return nil, err
	}
	v, err := a.mempool.inputView(ctx, db, snap)
	if err != nil {
		return nil, err
	}
	var at []int
	for _, r := range snap.OutputsToAddress(addr.String()) {
		at = append(at, r.Tx)
	}
	at = append(at, v.spendsFrom[addr.String()]...)
	slices.Sort(at)
	return encode(mempoolPage(snap, slices.Compact(at), p))
}

func allPositions(n int) []int {
	at := make([]int, n)
	for i := range at {
		at[i] = i
	}
	return at
}

// mempoolPage is page p of the snapshot's transactions at the positions
// (ascending), in p's order.
func mempoolPage(snap *node.Snapshot, at []int, p Paging) []MempoolItem {
	out := []MempoolItem{}
	for k := p.Offset(); k < len(at) && len(out) < p.Count; k++ {
		i := k
		if p.Desc {
			i = len(at) - 1 - k
		}
		out = append(out, MempoolItem{TxHash: snap.Txs[at[i]].Hash})
	}
	return out
}

// spentOutput is what a mempool transaction's input spends.
type spentOutput struct {
	Address  string
	Lovelace *big.Int
}

// spentMemoBytes bounds the outputs remembered as db-sync resolved them
// (about 150 bytes each: some 50,000 inputs, many mempools' worth).
const spentMemoBytes = 8 << 20

// mempoolMemo is the dialect's mempool state. The outputs the inputs of
// mempool transactions spend are remembered as db-sync gave them: an
// output named by its transaction's hash never changes, and a transaction
// stays in the mempool for many snapshots, so each input is looked up
// once, not once a snapshot. An output db-sync does not hold (yet) is not
// remembered. The zero value is ready for use.
type mempoolMemo struct {
	once  sync.Once
	spent *bounded.Map[string, spentOutput]

	mu    sync.Mutex
	views map[string]*inputView // by network: the latest snapshot's
}

func (m *mempoolMemo) init() {
	m.once.Do(func() {
		m.spent = bounded.New[string, spentOutput](spentMemoBytes, nil)
		m.views = map[string]*inputView{}
	})
}

// inputView indexes one snapshot's regular inputs by the address of the
// output each spends: built once per snapshot by the first request that
// needs it, which the others wait for.
type inputView struct {
	snap       *node.Snapshot
	done       chan struct{}
	err        error
	spendsFrom map[string][]int // address → positions of the transactions, ascending, each once
}

// viewBuildTimeout bounds one snapshot's view (a db-sync statement for
// the inputs not yet resolved); each request waits no longer than its own
// deadline.
const viewBuildTimeout = 10 * time.Second

// inputView returns snap's view, building it if no request has.
func (m *mempoolMemo) inputView(ctx context.Context, db *dbsync.DB, snap *node.Snapshot) (*inputView, error) {
	m.init()
	m.mu.Lock()
	v := m.views[db.Network.Name]
	if v == nil || v.snap != snap {
		v = &inputView{snap: snap, done: make(chan struct{})}
		m.views[db.Network.Name] = v
		m.mu.Unlock()
		// Built for every request waiting on it, so not cut short by the
		// one that started it leaving.
		bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), viewBuildTimeout)
		v.err = m.build(bctx, db, v)
		cancel()
		if v.err != nil {
			// The next request tries again.
			m.mu.Lock()
			if m.views[db.Network.Name] == v {
				delete(m.views, db.Network.Name)
			}
			m.mu.Unlock()
		}
		close(v.done)
	} else {
		m.mu.Unlock()
	}
	select {
	case <-v.done:
		return v, v.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (m *mempoolMemo) build(ctx context.Context, db *dbsync.DB, v *inputView) error {
	var all []node.Input
	for _, tx := range v.snap.Txs {
		all = append(all, tx.Inputs...)
	}
	spent, err := m.resolve(ctx, db, v.snap, all)
	if err != nil {
		return err
	}
	v.spendsFrom = map[string][]int{}
	for i, tx := range v.snap.Txs {
		for _, in := range tx.Inputs {
			if o, ok := spent[in]; ok {
				at := v.spendsFrom[o.Address]
				if len(at) == 0 || at[len(at)-1] != i {
					v.spendsFrom[o.Address] = append(at, i)
				}
			}
		}
	}
	return nil
}

// resolve finds the outputs the inputs spend: an output of another
// transaction in the snapshot, else one remembered, else db-sync's (one
// statement for all the rest). An input found nowhere is left out.
func (m *mempoolMemo) resolve(ctx context.Context, db *dbsync.DB, snap *node.Snapshot, ins []node.Input) (map[node.Input]spentOutput, error) {
	m.init()
	found := make(map[node.Input]spentOutput, len(ins))
	var ask []dbsync.OutputRef
	asked := map[node.Input]bool{}
	key := func(in node.Input) string { return db.Network.Name + ":" + in.String() }
	for _, in := range ins {
		if _, ok := found[in]; ok || asked[in] {
			continue
		}
		if tx, ok := snap.Tx(in.TxHash); ok && int(in.Index) < len(tx.Outputs) {
			o := tx.Outputs[in.Index]
			found[in] = spentOutput{Address: o.Address, Lovelace: o.Lovelace}
			continue
		}
		if o, ok := m.spent.Get(key(in)); ok {
			found[in] = o
			continue
		}
		asked[in] = true
		ask = append(ask, dbsync.OutputRef{TxHash: in.TxHash, Index: in.Index})
	}
	rows, err := outputs.ByRef(ctx, db, ask)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		q, ok := new(big.Int).SetString(r.Lovelace, 10)
		if !ok {
			continue
		}
		in := node.Input{TxHash: ask[r.Pos].TxHash, Index: ask[r.Pos].Index}
		o := spentOutput{Address: r.Address, Lovelace: q}
		found[in] = o
		m.spent.Set(key(in), o, len(key(in))+len(o.Address)+64)
	}
	return found, nil
}
