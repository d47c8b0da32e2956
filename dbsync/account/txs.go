package account

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/sql"
)

// A stake key's transactions (Blockfrost's /accounts/{s}/transactions)
// are (transaction, address) pairs: one for each address carrying the key
// that the transaction pays to or spends from, in (tx id, address) order.
// A pair's rank (its place from the oldest) never changes: a new
// transaction has a greater id than every old one, so its pairs can only
// join at the newest end, and a rollback removes only the newest ids.
// So a deep page starts at a keyset anchor, a transaction whose first
// pair's rank is known, and skips fewer than two strides of pairs: page
// 1,000 costs what page 1 does once the key's anchors exist. They are
// harvested by one walk (accounts_txs_anchors.sql) the first time a page
// lies far from every anchor, remembered per process for the busiest keys
// (bounded), and checked against rollbacks before use. A newest-first page
// is the oldest-first page at rank total - offset - count read backwards,
// the total counted from the key's last anchor (at most two strides, the
// anchors walked on first when the chain has grown past them).

var (
	sqlAccountsTxsPage    = engine.Template("dbsync/accounts_txs_page.sql", engine.CustomInCore, nil)
	sqlAccountsTxsAnchors = engine.Template("dbsync/accounts_txs_anchors.sql", engine.CustomInCore, nil)
	sqlAccountsTxsCount   = engine.Template("dbsync/accounts_txs_count.sql", engine.CustomInCore, nil)
	sqlTxIs               = engine.Prepared(sqlfiles.Load("dbsync/tx_is.sql"))
)

const (
	// txsStride: anchors are about this many pairs apart.
	txsStride = 256
	// txsAnchorBudget bounds the anchors of every key of every network
	// (about 64 bytes each); the least recently used key goes first.
	txsAnchorBudget = 100_000
)

// TxPair is one item of Blockfrost's account_transactions_content.
type TxPair struct {
	Address     string `db:"address" json:"address"`
	TxHash      string `db:"tx_hash" json:"tx_hash"`
	TxIndex     int    `db:"tx_index" json:"tx_index"`
	BlockHeight int64  `db:"block_height" json:"block_height"`
	BlockTime   int64  `db:"block_time" json:"block_time"`
}

// TxsQuery is a page of a stake key's transaction pairs: Limit pairs after
// Offset, oldest first unless Desc, within transaction ids [Lo, Hi)
// (Blockfrost's from/to; Hi 0 means no bound).
type TxsQuery struct {
	PageQuery
	Lo, Hi int64
}

// TransactionsPage reads one page of the stake key's transaction pairs.
func TransactionsPage(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q TxsQuery) ([]TxPair, error) {
	if q.Hi <= 0 {
		q.Hi = math.MaxInt64
	}
	var rows []TxPair
	err := read(ctx, db, key, func(tx *dbsync.Snapshot, h head) error {
		if h.AddrID == nil {
			return dbsync.ErrNotFound
		}
		w := pairWalk{ctx: ctx, db: db, tx: tx, stake: *h.AddrID, anchors: txsAnchorsOf(db), stride: TxsStride(db)}
		var err error
		rows, err = w.page(q)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("account.TransactionsPage: %w", err)
	}
	return rows, nil
}

// pairWalk reads one key's pairs in one snapshot.
type pairWalk struct {
	ctx     context.Context
	db      *dbsync.DB
	tx      *dbsync.Snapshot
	stake   int64
	anchors *txsAnchors
	stride  int64
}

// page answers q: the ranks it covers, read oldest first.
func (w pairWalk) page(q TxsQuery) ([]TxPair, error) {
	lo, err := w.rank(q.Lo)
	if err != nil {
		return nil, err
	}
	if !q.Desc {
		return w.read(lo+int64(q.Offset), int64(q.Limit), q.Hi)
	}
	hi, err := w.rank(q.Hi)
	if err != nil {
		return nil, err
	}
	end := hi - int64(q.Offset)
	start := max(lo, end-int64(q.Limit))
	if end <= start {
		return []TxPair{}, nil
	}
	rows, err := w.read(start, end-start, q.Hi)
	slices.Reverse(rows)
	return rows, err
}

// read returns limit pairs from rank r on, below the tx id hi.
func (w pairWalk) read(r, limit, hi int64) ([]TxPair, error) {
	a, err := w.near(r)
	if err != nil {
		return nil, err
	}
	rows := []TxPair{}
	err = w.tx.SelectContext(w.ctx, &rows, w.db.Engine().For(sqlAccountsTxsPage), w.stake, a.id, hi, r-a.rank, limit)
	return rows, err
}

// near returns a valid anchor at or below rank r at most two strides
// before it, harvesting anchors when there is none (the start of the
// history, rank 0 at tx id 0, is one).
func (w pairWalk) near(r int64) (txsAnchor, error) {
	a, err := w.below(func(x txsAnchor) bool { return x.rank <= r })
	if err != nil || r-a.rank < 2*w.stride {
		return a, err
	}
	if err := w.harvest(a, r-a.rank, math.MaxInt64); err != nil {
		return a, err
	}
	return w.below(func(x txsAnchor) bool { return x.rank <= r })
}

// rank returns how many pairs have a transaction id below id (0 for 0).
func (w pairWalk) rank(id int64) (int64, error) {
	if id <= 0 {
		return 0, nil
	}
	limit := 2 * w.stride
	for harvested := false; ; harvested = true {
		a, err := w.below(func(x txsAnchor) bool { return x.id <= id })
		if err != nil {
			return 0, err
		}
		if harvested { // one transaction of many pairs may remain: count it
			limit = math.MaxInt64 - 1
		}
		var n int64
		if err := w.tx.GetContext(w.ctx, &n, w.db.Engine().For(sqlAccountsTxsCount), w.stake, a.id, id, limit+1); err != nil {
			return 0, err
		}
		if n <= limit {
			return a.rank + n, nil
		}
		// Far from every anchor: harvest up to id, then count again.
		if err := w.harvest(a, math.MaxInt64, id); err != nil {
			return 0, err
		}
	}
}

// below returns the anchor of greatest rank that keep accepts, after
// checking that its transaction is still on the chain (a failed check
// forgets it and every later one, and looks again).
func (w pairWalk) below(keep func(txsAnchor) bool) (txsAnchor, error) {
	for {
		a, ok := w.anchors.last(w.stake, keep)
		if !ok {
			return txsAnchor{}, nil
		}
		var valid bool
		if err := w.tx.GetContext(w.ctx, &valid, sqlTxIs, a.id, a.hash); err != nil {
			return txsAnchor{}, err
		}
		if valid {
			return a, nil
		}
		w.anchors.forgetFrom(w.stake, a.id)
	}
}

// harvest walks up to walk pairs from anchor a, below tx id hi, and
// remembers the anchors on the way.
func (w pairWalk) harvest(a txsAnchor, walk, hi int64) error {
	var rows []struct {
		Rank int64  `db:"rank"`
		ID   int64  `db:"id"`
		Hash []byte `db:"hash"`
	}
	if err := w.tx.SelectContext(w.ctx, &rows, w.db.Engine().For(sqlAccountsTxsAnchors), w.stake, a.id, hi, walk, w.stride, a.rank); err != nil {
		return err
	}
	found := make([]txsAnchor, len(rows))
	for i, r := range rows {
		found[i] = txsAnchor{rank: r.Rank, id: r.ID, hash: r.Hash}
	}
	w.anchors.add(w.stake, found)
	return nil
}

// txsAnchor is a transaction of a key's pairs and its first pair's rank.
type txsAnchor struct {
	rank, id int64
	hash     []byte
}

// txsAnchors are one network's anchors of every key, bounded.
type txsAnchors struct {
	mu     sync.Mutex
	by     map[int64]*keyAnchors
	count  int
	clock  uint64
	budget int
}

type keyAnchors struct {
	list []txsAnchor // by rank (and tx id)
	used uint64
}

// last returns the anchor of greatest rank that keep accepts (anchors are
// sorted by rank and id alike).
func (t *txsAnchors) last(stake int64, keep func(txsAnchor) bool) (txsAnchor, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	k := t.by[stake]
	if k == nil {
		return txsAnchor{}, false
	}
	t.clock++
	k.used = t.clock
	i, _ := slices.BinarySearchFunc(k.list, true, func(x txsAnchor, _ bool) int {
		if keep(x) {
			return -1
		}
		return 1
	})
	if i == 0 {
		return txsAnchor{}, false
	}
	return k.list[i-1], true
}

// add remembers anchors of a key (a rank already known is kept).
func (t *txsAnchors) add(stake int64, in []txsAnchor) {
	if len(in) == 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	k := t.by[stake]
	if k == nil {
		k = &keyAnchors{}
		t.by[stake] = k
	}
	t.clock++
	k.used = t.clock
	for _, x := range in {
		i, found := slices.BinarySearchFunc(k.list, x.rank, func(y txsAnchor, r int64) int { return cmp.Compare(y.rank, r) })
		if !found {
			k.list = slices.Insert(k.list, i, x)
			t.count++
		}
	}
	for t.count > t.budget && len(t.by) > 1 {
		t.evictOldest(stake)
	}
	if t.count > t.budget { // one key alone: keep every other anchor
		kept := k.list[:0]
		for i, x := range k.list {
			if i%2 == 0 {
				kept = append(kept, x)
			}
		}
		t.count -= len(k.list) - len(kept)
		k.list = kept
	}
}

// evictOldest forgets the least recently used key other than keep.
func (t *txsAnchors) evictOldest(keep int64) {
	oldest, at := int64(0), uint64(math.MaxUint64)
	for s, k := range t.by {
		if s != keep && k.used < at {
			oldest, at = s, k.used
		}
	}
	t.count -= len(t.by[oldest].list)
	delete(t.by, oldest)
}

// forgetFrom drops a key's anchors at tx id from and after (a rollback).
func (t *txsAnchors) forgetFrom(stake, from int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	k := t.by[stake]
	if k == nil {
		return
	}
	i := slices.IndexFunc(k.list, func(x txsAnchor) bool { return x.id >= from })
	if i >= 0 {
		t.count -= len(k.list) - i
		k.list = k.list[:i]
	}
}

var (
	txsAnchorsMu  sync.Mutex
	txsAnchorsBy  = map[*dbsync.DB]*txsAnchors{}
	txsStrideOver = map[*dbsync.DB]int64{}
)

// txsAnchorsOf returns db's anchors (one set per network's database).
func txsAnchorsOf(db *dbsync.DB) *txsAnchors {
	txsAnchorsMu.Lock()
	defer txsAnchorsMu.Unlock()
	t := txsAnchorsBy[db]
	if t == nil {
		t = &txsAnchors{by: map[int64]*keyAnchors{}, budget: txsAnchorBudget}
		txsAnchorsBy[db] = t
	}
	return t
}

// TxsStride is the anchor stride of db's pair walks.
func TxsStride(db *dbsync.DB) int64 {
	txsAnchorsMu.Lock()
	defer txsAnchorsMu.Unlock()
	if s := txsStrideOver[db]; s > 0 {
		return s
	}
	return txsStride
}

// SetTxsStride replaces db's anchor stride and forgets its anchors (tests:
// a small stride makes short histories use anchors).
func SetTxsStride(db *dbsync.DB, stride int64) {
	txsAnchorsMu.Lock()
	defer txsAnchorsMu.Unlock()
	txsStrideOver[db] = stride
	delete(txsAnchorsBy, db)
}
