// Package answer makes the data API's answers, as the bytes sent, and owns
// every cache of them: the answers cached under the chain tip they were
// read at (byTip, caches.go), UTxO lists streamed in segments with their
// gzip copies and the producer/follower takeover (utxo.go), the history
// pages asked for again (hot pages, history.go), the memo of written
// transactions (tx_json_memo.go) and the last /v1/epochs/latest answer
// (epoch.go). It sits between the HTTP handlers, which parse a request and
// write what this package answers, and the stores (dbsync, cache, the
// pool-stake and registry services).
//
// Adding an endpoint is one answer function here (usually one byTip or
// byTipEnvelope call around a store read) and one handler.
package answer

import (
	"github.com/syncgate/syncgate/internal/service/touched"
	"sync"
	"time"

	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/internal/platform/bounded"
	"github.com/syncgate/syncgate/internal/platform/spool"
	"github.com/syncgate/syncgate/internal/service/poolstats"
	"github.com/syncgate/syncgate/internal/service/registry"
	"github.com/syncgate/syncgate/node"
)

// Options is what the answers are made from. Nil parts degrade gracefully.
type Options struct {
	// Redis shares the caches between instances (nil: each instance's own
	// memory only).
	Redis *cache.Client
	// Spool keeps this instance's copies of long UTxO lists on disk (nil:
	// every repeat of one is read from Redis).
	Spool *spool.Spool
	// Registry is the CIP-26 token registry (nil: no registry metadata).
	Registry *registry.Registry
	// PoolStats is the stored live stake distribution (nil: live stake is
	// computed per pool on demand).
	PoolStats *poolstats.Stats
	// Mempool reads each network's node mempool (nil: the mempool routes
	// and ?pending= answer that it is not configured).
	Mempool *node.Mempool
	// Now is the clock (nil: time.Now); MaxTipLag is how far behind the
	// clock a tip still counts as caught up (/v1/epochs/latest).
	Now       func() time.Time
	MaxTipLag time.Duration
	Tuning    Tuning
}

// Tuning holds the sizes and bounds of the answer caches; a zero field
// means its default. Tests make them small to reach the paths that only
// long lists, deep pages or slow pools take.
type Tuning struct {
	// SegmentSize is a cached UTxO list's segment size (0: the cache
	// package's default).
	SegmentSize int
	// RecentCursorSlots is how near the tip a cursor page's fromSlot must
	// be for the page to be cached under the tip (0: 129 600, mainnet's
	// stability window).
	RecentCursorSlots int64
	// HotPageMaxBytes is the largest history page cached when asked for
	// again (0: 1 MiB).
	HotPageMaxBytes int
	// PoolOnDemandBudget bounds the exact live-stake computation of one
	// pool before the first background refresh (0: 3 s).
	PoolOnDemandBudget time.Duration
}

func (t Tuning) withDefaults() Tuning {
	if t.RecentCursorSlots == 0 {
		t.RecentCursorSlots = 129_600
	}
	if t.HotPageMaxBytes == 0 {
		t.HotPageMaxBytes = 1 << 20
	}
	if t.PoolOnDemandBudget == 0 {
		t.PoolOnDemandBudget = 3 * time.Second
	}
	return t
}

// Service makes the answers; one per server.
type Service struct {
	opts     Options
	tuning   Tuning
	caches   caches
	txJSON   txJSONMemo
	hotPages hotPages
	// epochAnswers: each network's last /v1/epochs/latest answer (epoch.go).
	epochAnswers sync.Map
	// activeTotals: each database's total active stake of the last epoch
	// asked for (pool_extras.go).
	activeTotals epochTotalMemo
	// mempoolTips: each network's last mempool snapshot and its tip
	// (mempool.go).
	mempoolTips sync.Map
	// pendingAnswers: ?pending= UTxO answers under tip and snapshot
	// (mempool.go).
	pendingAnswers *bounded.Map[string, pendingAnswer]
	// admit: which answers about one identifier are stored (caches.go).
	admit *cache.Admission
	// touched: each network's recently touched addresses, which decide
	// whether a kept answer still holds (kept.go).
	touched *touched.Set
	// longLists: UTxO lists found too long to keep across tips lately,
	// not looked up there (utxo_kept.go).
	longLists *bounded.Map[string, time.Time]
}

// New builds the answer caches over o.Redis.
func New(o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	t := o.Tuning.withDefaults()
	admit := cache.NewAdmission()
	return &Service{opts: o, tuning: t, caches: newCaches(o.Redis, o.Spool, t.SegmentSize, admit), admit: admit,
		txJSON: newTxJSONMemo(), hotPages: newHotPages(), pendingAnswers: newPendingAnswers(),
		touched: touched.NewSet(touched.DefaultWindow, nil), longLists: newLongLists()}
}
