// Package touched follows a network's chain block by block and keeps, over
// a window of recent blocks, the last block that paid to or spent from each
// address, and the last that created or spent an output holding each
// native asset. An answer about an address read at one block is still the
// answer at a later block when no block between touched the address: a
// custodian's vault addresses mostly sit still between its polls, so their
// answers can outlive the tip they were read at instead of being read again
// at every block. An asset's holders change only when an output holding it
// is created or spent (a mint or burn has such an output), so its holder
// list outlives the tip the same way.
package touched

import (
	"context"
	"encoding/hex"
	"hash/maphash"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/syncgate/syncgate/dbsync"
)

// DefaultWindow is how many recent blocks a tracker knows the touches of
// (mainnet: about 40 minutes): an answer read further back is read again.
const DefaultWindow = 120

// catchUpTimeout bounds one background catch-up (a window of blocks).
const catchUpTimeout = 10 * time.Second

// Kind is what a movement touches: its address (the text db-sync stores),
// its payment credential (lower hex; Byron addresses have none), its
// stake address (db-sync's bech32 view; enterprise and Byron addresses
// have none) and the native assets its output holds (unit: policy and
// name in lower hex, as cardano.AssetID.Unit).
type Kind uint64

const (
	Address Kind = iota
	Credential
	Stake
	Asset
)

// String names the kind in cache keys: "address", "credential", "stake"
// or "asset".
func (k Kind) String() string {
	switch k {
	case Credential:
		return "credential"
	case Stake:
		return "stake"
	case Asset:
		return "asset"
	}
	return "address"
}

// digest names (kind, id) in the record.
func (t *Tracker) digest(kind Kind, id string) uint64 {
	return maphash.String(t.seed, id) ^ uint64(kind)*0x9e3779b97f4a7c15
}

// Point is a block: its height and its hash in hex, as dbsync.Tip names it.
type Point struct {
	Height int64
	Hash   string
}

// Tracker is one network's record of recent touches. Its zero value is not
// usable; make one with New.
type Tracker struct {
	db     *dbsync.DB
	window int64
	log    *slog.Logger

	mu sync.RWMutex
	// known: base ≥ 0. The touches of every block above base up to head
	// are in last; hashes holds the blocks base..head.
	base, head int64
	hashes     map[int64]string
	// last: an address's, credential's, stake address's or asset's
	// digest → the highest height above base that touched it. Digests
	// keep the map small (mainnet blocks touch about a thousand
	// addresses each, and rarely more assets); two ids sharing one only
	// make the quiet one look touched, which reads it again.
	last     map[uint64]int64
	seed     maphash.Seed
	prunedAt int64

	busy atomic.Bool
}

// New returns a tracker of db's chain over window blocks (≤ 0:
// DefaultWindow). It knows nothing until its first catch-up.
func New(db *dbsync.DB, window int, log *slog.Logger) *Tracker {
	if window <= 0 {
		window = DefaultWindow
	}
	if log == nil {
		log = slog.Default()
	}
	return &Tracker{db: db, window: int64(window), log: log, base: -1, head: -1, seed: maphash.MakeSeed()}
}

// Untouched reports whether the address, payment credential, stake
// address or asset id (kind) is known to have been neither paid nor spent from by
// any block after the lower of a and b up to the higher, both being blocks
// of the chain the tracker follows. Anything it does not know (a block
// outside its window, a hash that is not the one it holds at that height:
// a rollback, a server on another fork) is false.
func (t *Tracker) Untouched(kind Kind, id string, a, b Point) bool {
	lo, hi := min(a.Height, b.Height), max(a.Height, b.Height)
	t.mu.RLock()
	defer t.mu.RUnlock()
	if t.base < 0 || lo < t.base || hi > t.head {
		return false
	}
	if t.hashes[a.Height] != a.Hash || t.hashes[b.Height] != b.Hash {
		return false
	}
	h, ok := t.last[t.digest(kind, id)]
	return !ok || h <= lo
}

// Holds reports whether p is a block the tracker knows the touches up to.
func (t *Tracker) Holds(p Point) bool {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.base >= 0 && p.Height >= t.base && p.Height <= t.head && t.hashes[p.Height] == p.Hash
}

// Observe tells the tracker a block a server is at. When the tracker does
// not hold it, one catch-up runs in the background (requests meanwhile
// answer as they would without it).
func (t *Tracker) Observe(p Point) {
	if t.Holds(p) || !t.busy.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer t.busy.Store(false)
		ctx, cancel := context.WithTimeout(context.Background(), catchUpTimeout)
		defer cancel()
		if err := t.CatchUp(ctx); err != nil {
			t.log.Debug("touched addresses: catch-up failed", "network", t.db.Network.Name, "error", err)
		}
	}()
}

// awaitPoll is how often Await looks whether the catch-up got there.
const awaitPoll = 5 * time.Millisecond

// Await is Observe that waits, until ctx ends, for the tracker to hold p
// (a new tip: its catch-up reads a block's movements, milliseconds), for
// an answer whose read costs more than waiting; false when it did not.
func (t *Tracker) Await(ctx context.Context, p Point) bool {
	tick := time.NewTicker(awaitPoll)
	defer tick.Stop()
	for !t.Holds(p) {
		t.Observe(p)
		select {
		case <-ctx.Done():
			return false
		case <-tick.C:
		}
	}
	return true
}

// CatchUp reads, on the primary, the blocks after the tracker's head up to
// a window of them, and records who they touched. A head whose hash
// changed (a rollback) or a tip more than a window ahead starts the
// record afresh at db-sync's tip: nothing read before it is vouched for.
func (t *Tracker) CatchUp(ctx context.Context) error {
	t.mu.RLock()
	base, head, headHash := t.base, t.head, t.hashes[t.head]
	t.mu.RUnlock()
	var heights []int64
	var ranges []dbsync.HeightRange
	if base >= 0 {
		heights = []int64{head}
		ranges = []dbsync.HeightRange{{From: head + 1, To: head + t.window}}
	}
	read, err := t.db.ReadChain(ctx, heights, ranges)
	if err != nil {
		return err
	}
	tip := Point{Height: read.Tip.Height, Hash: hex.EncodeToString(read.Tip.Hash)}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.base != base || t.head != head {
		return nil // someone else moved it meanwhile
	}
	if base < 0 || hex.EncodeToString(read.Hashes[head]) != headHash || tip.Height-head > t.window {
		t.restart(tip)
		return nil
	}
	for _, b := range read.Blocks {
		if b.Height != t.head+1 {
			t.restart(tip) // a gap: the chain changed under the read
			return nil
		}
		for _, tx := range b.Txs {
			for _, m := range tx.Outputs {
				t.touch(m, b.Height)
			}
			for _, m := range tx.Inputs {
				t.touch(m, b.Height)
			}
		}
		t.head = b.Height
		t.hashes[b.Height] = hex.EncodeToString(b.Hash)
	}
	t.prune()
	return nil
}

// touch records that block height moved m.
func (t *Tracker) touch(m dbsync.Movement, height int64) {
	t.last[t.digest(Address, m.Address)] = height
	if m.PaymentCred != "" {
		t.last[t.digest(Credential, m.PaymentCred)] = height
	}
	if m.StakeAddress != "" {
		t.last[t.digest(Stake, m.StakeAddress)] = height
	}
	for _, a := range m.Assets {
		t.last[t.digest(Asset, a.Unit)] = height
	}
}

// restart forgets everything and starts the record at p.
func (t *Tracker) restart(p Point) {
	t.base, t.head = p.Height, p.Height
	t.hashes = map[int64]string{p.Height: p.Hash}
	t.last = map[uint64]int64{}
	t.prunedAt = p.Height
}

// prune keeps the window: the base follows the head, and every quarter
// window the addresses last touched at or below the base are dropped (a
// question about them needs a block above the base anyway).
func (t *Tracker) prune() {
	if t.head-t.base <= t.window {
		return
	}
	newBase := t.head - t.window
	for h := t.base; h < newBase; h++ {
		delete(t.hashes, h)
	}
	t.base = newBase
	if t.base-t.prunedAt < t.window/4 {
		return
	}
	for a, h := range t.last {
		if h <= t.base {
			delete(t.last, a)
		}
	}
	t.prunedAt = t.base
}

// Set is the trackers of a server's networks, made on first need.
type Set struct {
	window int
	log    *slog.Logger
	by     sync.Map // network name → *Tracker
}

// NewSet returns an empty set whose trackers keep window blocks (≤ 0:
// DefaultWindow).
func NewSet(window int, log *slog.Logger) *Set {
	return &Set{window: window, log: log}
}

// For returns db's network's tracker. A nil Set has none (nil).
func (s *Set) For(db *dbsync.DB) *Tracker {
	if s == nil {
		return nil
	}
	if t, ok := s.by.Load(db.Network.Name); ok {
		return t.(*Tracker)
	}
	t, _ := s.by.LoadOrStore(db.Network.Name, New(db, s.window, s.log))
	return t.(*Tracker)
}
