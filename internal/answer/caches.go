package answer

import (
	"time"

	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/platform/spool"
)

// NotFoundTTL is how long a 404 is remembered under the tip it was read at.
// It stays true for that tip, like any answer; the TTL is shorter than the
// answers' only because clients can invent unknown ids without end.
const NotFoundTTL = time.Minute

// caches are the server's read-through caches. Each is named by its Redis
// keys' first part (also its label in the cache metrics); the key layouts
// below are shared with other instances, older versions included, so keep
// them as they are.
type caches struct {
	// txtotal:<network>:<tip hash>:<address digest>
	txTotal *cache.Cache[int64]
	// pool:<network>:<pool hex>:epoch:<epoch>
	poolTotals *cache.Cache[dbsync.PoolEpochTotals]
	// activestake:<network>:<epoch>
	activeStake *cache.Cache[string]
	// An epoch's protocol parameters, the data object only (epoch_params.go):
	// epochparams:<network>:<epoch> for past epochs,
	// epochparams:<network>:<epoch>:at:<tip epoch> for the current and next,
	// epochparams:<network>:latest:at:<tip epoch>
	epochParams *cache.Cache[[]byte]

	// Whole answers, as sent, under the tip they were read at:
	// <name>:<network>:<tip hash>:<parameters…> (see byTip). A key's
	// answer never changes, so each instance serves the ones it holds
	// from process memory first (cache.Options.LocalFirst, 5 s).
	asset          *cache.Cache[[]byte] // asset: <asset id>:<metadata source>
	assetHolders   *cache.Cache[[]byte] // assetholders: <asset id>:<limit>:<offset>
	poolInfo       *cache.Cache[[]byte] // poolinfo: <pool hex>
	poolDelegators *cache.Cache[[]byte] // pooldelegators: <pool hex>:<limit>:<offset>
	poolMeta       *cache.Cache[[]byte] // poolmeta: <pool hex>
	poolDelegCount *cache.Cache[[]byte] // pooldelegcount: <pool hex>
	poolBlocks     *cache.Cache[[]byte] // poolblocks: <pool hex>
	// account: summary:<stake address>, or <route>:<stake address>:<limit>:<offset>:<asc>
	account *cache.Cache[[]byte]
	// tx: <tx hash>:<groupByPolicy>
	tx *cache.Cache[[]byte]
	// A transaction kept across tips while its block stays on the chain
	// (history.go): txkept:<network>:<tx hash>:<groupByPolicy>, the value
	// [<height>,"<block hash>",<answer read at that block>].
	txKept *cache.Cache[[]byte]
	// history: first pages, <detailed:<address digest>:<groupByPolicy>|light:<address digest>>:<limit>:<asc>,
	// and other pages (near the tip or asked for again), the same with
	// :from:<fromSlot>:<offset> (cursor pages) or :offset:<offset>
	historyPage *cache.Cache[[]byte]
	// The same pages kept across tips while no block touches the address
	// (history.go): historykept:<network>:<the history key's parameters>,
	// the value [<height>,"<block hash>",<page read at that block>].
	historyKept *cache.Cache[[]byte]
	// balance: <address|stake|credential>:<id>:<groupByPolicy>
	balance *cache.Cache[[]byte]
	// A balance by address, payment credential or stake key kept across
	// tips while no block touches it (balance.go):
	// balancekept:<network>:<address|credential|stake>:<id>:<groupByPolicy>,
	// the value [<height>,"<block hash>",<answer read at that block>].
	balanceKept *cache.Cache[[]byte]
	// UTxO lists, in segments (they can run to tens of megabytes):
	// utxos:<network>:<tip hash>:<address|stake|credential>:<id>
	utxos *cache.Segments
	// Short UTxO lists of an address, payment credential or stake key kept
	// across tips while no block touches it (utxo_kept.go):
	// utxoskept:<network>:<address|credential|stake>:<id>, the value
	// [<height>,"<block hash>",<list read at that block>].
	utxosKept *cache.Cache[[]byte]
	// Answers of another dialect (Blockfrost's, internal/answer/blockfrost)
	// under the tip: dialect:<network>:<tip hash>:<dialect>:<route>:<parameters…>
	dialect *cache.Cache[[]byte]
	// Their answers kept across tips (kept.go): about one transaction while
	// its block stays on the chain (dialect_tx.go), about an address or a
	// payment credential while no block touches it (dialect_kept.go), and
	// their short lists (dialect_list.go):
	// dialectkept:<network>:<dialect>:<route>:<tx hash or parameters…>,
	// the value [<height>,"<block hash>",<answer read at that block>].
	dialectKept *cache.Cache[[]byte]
	// A fact that is final for an epoch, for another dialect's answers
	// (dialect_chain.go): epochfact:<network>:<name>:<epoch>
	epochFact *cache.Cache[[]byte]
	// Their lists under the tip, in blocks of listBlock items
	// (dialect_list.go): dialectlist:<network>:<tip hash>:<dialect>:<route>:<parameters…>:<block>,
	// block 0 [<items in the list>,[<items>]], the others [<items>].
	dialectList *cache.Cache[[]byte]
	// Their gzip copies (lists in segments only, utxo_gzip.go), same keys:
	// utxosgz:<network>:<tip hash>:<address|stake|credential>:<id>
	utxosGzip *cache.Segments
}

// historyPageLocalBytes bounds the history pages each instance holds in
// process: detailed pages run to 400 kB (a busy slot's), and a
// cache's local store keeps no value over a quarter of its bound.
const historyPageLocalBytes = 16 << 20

// newCaches builds the caches over rc (nil: local stores only); long UTxO
// lists are also copied into sp (nil: not), in segments of segmentSize
// (0: the cache package's default).
//
// The answers about one identifier (balances, transactions, history
// pages, UTxO lists) are stored only when their key is asked for again
// (admit, cache.Admission; a tip-keyed key under the same tip, a kept one
// at any): most tip-keyed keys are asked for once (a custodian polling
// each of its addresses once a block), and storing them
// was a Redis write and its memory for nothing; a first ask is not looked
// up either, which saved a Redis round trip per cold request.
func newCaches(rc *cache.Client, sp *spool.Spool, segmentSize int, admit *cache.Admission) caches {
	// underTip is a cache of whole answers keyed under the tip (see
	// byTip): a key's answer never changes, so it is LocalFirst.
	underTip := func(name string, o cache.Options) *cache.Cache[[]byte] {
		o.LocalFirst = true
		return cache.NewRawJSON(rc, name, o)
	}
	poolAnswers := func(name string) *cache.Cache[[]byte] {
		return underTip(name, cache.Options{TTL: poolResponseTTL, NotFound: ErrPoolNotFound, NegativeTTL: NotFoundTTL})
	}
	return caches{
		// Totals are keyed under the tip too.
		txTotal:     cache.NewJSON[int64](rc, "txtotal", cache.Options{TTL: historyTotalTTL, LocalFirst: true}),
		poolTotals:  cache.NewJSON[dbsync.PoolEpochTotals](rc, "pool", cache.Options{TTL: poolTotalsTTL}),
		activeStake: cache.NewJSON[string](rc, "activestake", cache.Options{TTL: poolTotalsTTL}),
		// A key's value never changes: served from process memory first.
		epochParams: cache.NewRawJSON(rc, "epochparams", cache.Options{TTL: epochParamsTTL, LocalFirst: true,
			NotFound: ErrEpochParamsNotFound, NegativeTTL: NotFoundTTL}),

		asset:          underTip("asset", cache.Options{TTL: assetCacheTTL, NotFound: ErrAssetNotFound, NegativeTTL: NotFoundTTL}),
		assetHolders:   underTip("assetholders", cache.Options{TTL: assetCacheTTL, NotFound: ErrAssetNotFound, NegativeTTL: NotFoundTTL}),
		poolInfo:       poolAnswers("poolinfo"),
		poolDelegators: poolAnswers("pooldelegators"),
		poolMeta:       poolAnswers("poolmeta"),
		poolDelegCount: poolAnswers("pooldelegcount"),
		poolBlocks:     poolAnswers("poolblocks"),
		account:        underTip("account", cache.Options{TTL: accountCacheTTL}),
		balance:        underTip("balance", cache.Options{TTL: balanceCacheTTL, Admit: admit}),
		balanceKept:    underTip("balancekept", cache.Options{TTL: balanceCacheTTL, Admit: admit}),
		historyPage:    underTip("history", cache.Options{TTL: historyPageTTL, LocalBytes: historyPageLocalBytes, Admit: admit}),
		historyKept:    underTip("historykept", cache.Options{TTL: historyKeptTTL, LocalBytes: historyPageLocalBytes, Admit: admit}),
		tx:             underTip("tx", cache.Options{TTL: txCacheTTL, NotFound: ErrTxNotFound, NegativeTTL: NotFoundTTL, Admit: admit}),
		txKept:         underTip("txkept", cache.Options{TTL: txCacheTTL, Admit: admit}),
		utxos:          cache.NewSegments(rc, "utxos", utxoCacheTTL, segmentSize).WithSpool(sp),
		utxosKept:      underTip("utxoskept", cache.Options{TTL: utxoKeptTTL, Admit: admit}),
		utxosGzip:      cache.NewSegments(rc, "utxosgz", utxoCacheTTL, segmentSize).WithSpool(sp),
		dialect:        underTip("dialect", cache.Options{TTL: dialectCacheTTL, NotFound: ErrNotFound, NegativeTTL: NotFoundTTL, Admit: admit}),
		dialectKept:    underTip("dialectkept", cache.Options{TTL: txCacheTTL, Admit: admit}),
		epochFact:      cache.NewRawJSON(rc, "epochfact", cache.Options{TTL: epochFactTTL}),
		dialectList:    underTip("dialectlist", cache.Options{TTL: utxoCacheTTL}),
	}
}
