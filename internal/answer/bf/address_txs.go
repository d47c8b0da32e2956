package bf

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/addresses"
)

// BlockPos is a position in the chain as Blockfrost's from/to name it: a
// block number and, optionally, a transaction's index in that block.
type BlockPos struct {
	Block    int64
	Index    int
	HasIndex bool
}

func (p BlockPos) String() string {
	if p.HasIndex {
		return strconv.FormatInt(p.Block, 10) + ":" + strconv.Itoa(p.Index)
	}
	return strconv.FormatInt(p.Block, 10)
}

// TxRange is /addresses/{address}/transactions' from and to (each
// inclusive, nil when not given).
type TxRange struct{ From, To *BlockPos }

// within turns the range into tx-id bounds [lo, hi) read through db: the
// first transaction at or after From, and the first after To.
func (r TxRange) within(ctx context.Context, db *dbsync.DB) (*[2]int64, error) {
	if r.From == nil && r.To == nil {
		return nil, nil
	}
	b := [2]int64{0, math.MaxInt64}
	if r.From != nil {
		id, ok, err := addresses.TxBound(ctx, db, r.From.Block, r.From.Index)
		if err != nil {
			return nil, err
		}
		b[0] = math.MaxInt64 // nothing at or after From: an empty range
		if ok {
			b[0] = id
		}
	}
	if r.To != nil {
		block, index := r.To.Block+1, 0
		if r.To.HasIndex {
			block, index = r.To.Block, r.To.Index+1
		}
		id, ok, err := addresses.TxBound(ctx, db, block, index)
		if err != nil {
			return nil, err
		}
		if ok {
			b[1] = id
		}
	}
	return &b, nil
}

// AddressTransaction is one item of address_transactions_content.
type AddressTransaction struct {
	TxHash      string `json:"tx_hash"`
	TxIndex     int    `json:"tx_index"`
	BlockHeight int64  `json:"block_height"`
	BlockTime   int64  `json:"block_time"`
}

// AddressTransactions answers /addresses/{address}/transactions: a page
// of the address's transactions (those paying to it or spending from it)
// by the history engine (anchors make a deep page cost what the first
// does), within r when given; cached as /v1's history pages are.
func (a *Answers) AddressTransactions(ctx context.Context, db *dbsync.DB, ref AddressRef, p Paging, r TxRange) ([]byte, error) {
	return a.history(ctx, db, ref, p, r, "transactions", func(ctx context.Context, db *dbsync.DB, refs []dbsync.TxRef) ([]byte, error) {
		idx, err := addresses.TxIndexes(ctx, db, refs)
		if err != nil {
			return nil, err
		}
		items := make([]AddressTransaction, len(refs))
		for i, t := range refs {
			n, ok := idx[t.ID]
			if !ok {
				return nil, fmt.Errorf("%w: transaction %s left the chain while its page was read", dbsync.ErrUnavailable, t.Hash)
			}
			items[i] = AddressTransaction{TxHash: t.Hash, TxIndex: n, BlockHeight: t.BlockNo, BlockTime: t.BlockTime.Unix()}
		}
		return json.Marshal(items)
	})
}

// AddressTxs answers the deprecated /addresses/{address}/txs: the same
// pages as transactions, as hashes.
func (a *Answers) AddressTxs(ctx context.Context, db *dbsync.DB, ref AddressRef, p Paging) ([]byte, error) {
	return a.history(ctx, db, ref, p, TxRange{}, "txs", func(_ context.Context, _ *dbsync.DB, refs []dbsync.TxRef) ([]byte, error) {
		hashes := make([]string, len(refs))
		for i, t := range refs {
			hashes[i] = t.Hash
		}
		return json.Marshal(hashes)
	})
}

// history answers a page of the address's history encoded by items; an
// empty page of an address never seen is a 404.
func (a *Answers) history(ctx context.Context, db *dbsync.DB, ref AddressRef, p Paging, r TxRange, route string,
	items func(context.Context, *dbsync.DB, []dbsync.TxRef) ([]byte, error)) ([]byte, error) {
	params := []string{"bf", route, ref.id()}
	if r.From != nil || r.To != nil {
		params = append(params, "from", posKey(r.From), "to", posKey(r.To))
	}
	q := dbsync.HistoryQuery{Limit: p.Count, Offset: p.Offset(), Ascending: !p.Desc}
	b, err := a.svc.DialectHistoryPage(ctx, db, ref.Address, q, params, func(ctx context.Context, db *dbsync.DB, counter dbsync.TotalCounter) ([]byte, dbsync.Tip, error) {
		q := q
		var err error
		if q.Within, err = r.within(ctx, db); err != nil {
			return nil, dbsync.Tip{}, err
		}
		page, err := db.TxHistory(ctx, ref.Address, q, counter)
		if err != nil {
			return nil, page.Tip, err
		}
		if len(page.Items) == 0 {
			if _, err := addressHead(ctx, db, ref); err != nil {
				return nil, page.Tip, err
			}
		}
		b, err := items(ctx, db, page.Items)
		if err != nil {
			return nil, page.Tip, err
		}
		return append(b, '\n'), page.Tip, nil
	})
	if err != nil {
		return nil, notFound(err)
	}
	return b, nil
}

// posKey names a from/to in cache keys ("-" when not given).
func posKey(p *BlockPos) string {
	if p == nil {
		return "-"
	}
	return p.String()
}
