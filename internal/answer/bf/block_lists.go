package bf

import (
	"context"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/blocks"
)

// page is the store's window of the page.
func (p Paging) page() blocks.Page {
	return blocks.Page{Offset: p.Offset(), Count: p.Count, Desc: p.Desc}
}

// BlockNeighbours answers /blocks/{hash_or_number}/next (next) and
// /previous: Blockfrost's block_content_array, oldest first, page 1
// nearest the block (Desc does not apply).
func (a *Answers) BlockNeighbours(ctx context.Context, db *dbsync.DB, ref BlockRef, next bool, p Paging) ([]byte, error) {
	route := "blockprevious"
	if next {
		route = "blocknext"
	}
	p.Desc = false
	return cached(ctx, a, db, route, []string{ref.String(), p.key()}, func(ctx context.Context, db *dbsync.DB) ([]Block, error) {
		bs, err := blocks.Neighbours(ctx, db, ref.store(), next, p.Offset(), p.Count)
		out := make([]Block, len(bs))
		for i, b := range bs {
			out[i] = blockOf(b)
		}
		return out, notFound(err)
	})
}

// BlockTxs answers /blocks/{hash_or_number}/txs and /blocks/latest/txs:
// the transactions' hashes in block order.
func (a *Answers) BlockTxs(ctx context.Context, db *dbsync.DB, ref BlockRef, p Paging) ([]byte, error) {
	return cached(ctx, a, db, "blocktxs", []string{ref.String(), p.key()}, func(ctx context.Context, db *dbsync.DB) ([]string, error) {
		hashes, err := blocks.TxHashes(ctx, db, ref.store(), p.page())
		return hashes, notFound(err)
	})
}

// BlockTxsCBOR answers /blocks/{hash_or_number}/txs/cbor and
// /blocks/latest/txs/cbor: the transactions with their CBOR where db-sync
// keeps it (its tx_cbor option); a transaction without is left out of its
// page, as Blockfrost's backend leaves it out.
func (a *Answers) BlockTxsCBOR(ctx context.Context, db *dbsync.DB, ref BlockRef, p Paging) ([]byte, error) {
	return cached(ctx, a, db, "blocktxscbor", []string{ref.String(), p.key()}, func(ctx context.Context, db *dbsync.DB) ([]blocks.TxCBOR, error) {
		txs, err := blocks.TxCBORs(ctx, db, ref.store(), p.page())
		return txs, notFound(err)
	})
}

// BlockAddress is one item of Blockfrost's block_content_addresses.
type BlockAddress struct {
	Address      string      `json:"address"`
	Transactions []blockTxID `json:"transactions"`
}

type blockTxID struct {
	TxHash string `json:"tx_hash"`
}

// BlockAddresses answers /blocks/{hash_or_number}/addresses: the
// addresses the block's transactions paid or spent from, in byte order
// (Desc does not apply).
func (a *Answers) BlockAddresses(ctx context.Context, db *dbsync.DB, ref BlockRef, p Paging) ([]byte, error) {
	p.Desc = false
	return cached(ctx, a, db, "blockaddresses", []string{ref.String(), p.key()}, func(ctx context.Context, db *dbsync.DB) ([]BlockAddress, error) {
		rows, err := blocks.Addresses(ctx, db, ref.store(), p.page())
		out := make([]BlockAddress, len(rows))
		for i, r := range rows {
			out[i] = BlockAddress{Address: r.Address, Transactions: make([]blockTxID, len(r.TxHashes))}
			for j, h := range r.TxHashes {
				out[i].Transactions[j] = blockTxID{TxHash: h}
			}
		}
		return out, notFound(err)
	})
}
