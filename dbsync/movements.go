package dbsync

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync/engine"
)

var (
	sqlScanBlockHashes = load("dbsync/scan_block_hashes.sql")
	sqlScanBlocks      = load("dbsync/scan_blocks.sql")
	sqlScanMovements   = layoutStatement("dbsync/scan_movements.sql", alwaysGeneric, nil)
)

// ChainPoint is a block as the event scanner names it.
type ChainPoint struct {
	Height int64
	Hash   []byte
	Slot   int64
	Time   time.Time
}

// HeightRange is the block heights From..To, both included.
type HeightRange struct{ From, To int64 }

// Movement is one output a transaction created or spent.
type Movement struct {
	Address      string
	StakeAddress string // bech32 view; "" when the address has no stake part
	PaymentCred  string // lower hex; "" for Byron addresses
	Lovelace     string // decimal
	Assets       []MovedAsset
}

// MovedAsset is a native asset an output holds.
type MovedAsset struct {
	Unit     string // policy || name, lower hex
	Quantity string // decimal
}

// ScanTx is a transaction with what it moved. For one that failed phase-2
// validation (ValidContract false) Inputs are its collateral inputs and
// Outputs its collateral return, as db-sync stores them.
type ScanTx struct {
	Hash          []byte
	Fee           string
	ValidContract bool
	Outputs       []Movement
	Inputs        []Movement
}

// ScanBlock is a block and its transactions, in block order.
type ScanBlock struct {
	ChainPoint
	Txs []ScanTx
}

// ChainRead is what the event scanner reads of db-sync in one snapshot.
type ChainRead struct {
	Tip ChainPoint
	// Hashes are the hashes of the blocks at the heights asked for (a
	// height without a block is absent).
	Hashes map[int64][]byte
	// Blocks are the blocks of the ranges asked for, ascending, each once.
	Blocks []ScanBlock
}

type scanBlockRow struct {
	BlockNo       int64
	BlockHash     []byte
	SlotNo        int64
	BlockTime     time.Time
	TxID          sql.NullInt64
	TxHash        []byte
	Fee           sql.NullString
	ValidContract sql.NullBool
}

func (r *scanBlockRow) ScanRow(rows *sql.Rows) error {
	return rows.Scan(&r.BlockNo, &r.BlockHash, &r.SlotNo, &r.BlockTime, &r.TxID, &r.TxHash, &r.Fee, &r.ValidContract)
}

type scanMovementRow struct {
	TxID        int64
	Spent       bool
	Address     string
	Stake       sql.NullString
	PaymentCred sql.NullString
	Lovelace    string
	Units       pq.StringArray
	Quantities  pq.StringArray
}

func (r *scanMovementRow) ScanRow(rows *sql.Rows) error {
	return rows.Scan(&r.TxID, &r.Spent, &r.Address, &r.Stake, &r.PaymentCred, &r.Lovelace, &r.Units, &r.Quantities)
}

type blockHashRow struct {
	BlockNo int64
	Hash    []byte
}

func (r *blockHashRow) ScanRow(rows *sql.Rows) error { return rows.Scan(&r.BlockNo, &r.Hash) }

// ReadChain reads, in one snapshot on the primary (a replica's lag would
// look like a rollback), the tip, the hashes of the blocks at heights, and
// the blocks of ranges with every transaction's movements. An empty chain
// is ErrNotFound.
func (db *DB) ReadChain(ctx context.Context, heights []int64, ranges []HeightRange) (ChainRead, error) {
	return db.ReadChainPlanned(ctx, func(ChainPoint) []int64 { return heights },
		func(*ChainRead) ([]HeightRange, func(context.Context, *Snapshot, []HeightRange) error) {
			return ranges, nil
		})
}

// ReadChainPlanned is ReadChain whose heights and ranges follow from what
// the snapshot holds: heights(tip) are the heights whose hashes are read
// (the tip's with them), then plan, given the tip and those hashes, gives
// the ranges to read and what to run in the snapshot over them (the event
// scanner's block facts and certificates; no ranges: the read ends
// there). The event scanner reads its whole step this way.
func (db *DB) ReadChainPlanned(ctx context.Context, heights func(tip ChainPoint) []int64,
	plan func(*ChainRead) ([]HeightRange, func(context.Context, *Snapshot, []HeightRange) error)) (ChainRead, error) {
	var out ChainRead
	err := db.eng.PrimaryTx(ctx, func(tx *Snapshot) error {
		out = ChainRead{Hashes: map[int64][]byte{}}
		tip, err := tipIn(ctx, tx)
		if err != nil {
			return err
		}
		if tip.BlockNo == nil {
			return fmt.Errorf("%w: the newest block has no height", ErrNotFound)
		}
		out.Tip = ChainPoint{Height: *tip.BlockNo, Slot: tip.SlotNo, Time: tip.BlockTime}
		hs := append(heights(out.Tip), *tip.BlockNo)
		hashes, err := engine.SelectRows[blockHashRow](ctx, tx, sqlScanBlockHashes, pq.Array(hs))
		if err != nil {
			return err
		}
		for _, h := range hashes {
			out.Hashes[h.BlockNo] = h.Hash
		}
		out.Tip.Hash = out.Hashes[out.Tip.Height]
		ranges, also := plan(&out)
		for _, r := range mergeRanges(ranges) {
			blocks, err := db.scanBlocks(ctx, tx, r)
			if err != nil {
				return err
			}
			out.Blocks = append(out.Blocks, blocks...)
		}
		if also != nil {
			return also(ctx, tx, mergeRanges(ranges))
		}
		return nil
	})
	if err != nil {
		err = classify(err)
		if errors.Is(err, ErrNotFound) || errors.Is(err, engine.ErrUnavailable) {
			return ChainRead{}, fmt.Errorf("dbsync.ReadChain: %w", ErrNotFound)
		}
		return ChainRead{}, fmt.Errorf("dbsync.ReadChain: %w", err)
	}
	return out, nil
}

// scanBlocks reads the blocks of one range with their transactions'
// movements (two statements whatever the number of transactions).
func (db *DB) scanBlocks(ctx context.Context, tx *Snapshot, r HeightRange) ([]ScanBlock, error) {
	rows, err := engine.SelectRows[scanBlockRow](ctx, tx, sqlScanBlocks, r.From, r.To)
	if err != nil {
		return nil, err
	}
	var blocks []ScanBlock
	type at struct{ block, tx int }
	pos := map[int64]at{}
	var ids []int64
	for _, row := range rows {
		if n := len(blocks); n == 0 || blocks[n-1].Height != row.BlockNo {
			blocks = append(blocks, ScanBlock{ChainPoint: ChainPoint{Height: row.BlockNo, Hash: row.BlockHash,
				Slot: row.SlotNo, Time: AsUTC(row.BlockTime)}})
		}
		if !row.TxID.Valid {
			continue
		}
		b := &blocks[len(blocks)-1]
		pos[row.TxID.Int64] = at{len(blocks) - 1, len(b.Txs)}
		ids = append(ids, row.TxID.Int64)
		b.Txs = append(b.Txs, ScanTx{Hash: row.TxHash, Fee: row.Fee.String, ValidContract: row.ValidContract.Bool})
	}
	if len(ids) == 0 {
		return blocks, nil
	}
	moves, err := engine.SelectRows[scanMovementRow](ctx, tx, db.sql(sqlScanMovements), pq.Array(ids))
	if err != nil {
		return nil, err
	}
	for _, m := range moves {
		p, ok := pos[m.TxID]
		if !ok {
			continue
		}
		if len(m.Units) != len(m.Quantities) {
			return nil, fmt.Errorf("scan_movements: %d units, %d quantities", len(m.Units), len(m.Quantities))
		}
		mv := Movement{Address: m.Address, StakeAddress: m.Stake.String, PaymentCred: m.PaymentCred.String, Lovelace: m.Lovelace}
		for i := range m.Units {
			mv.Assets = append(mv.Assets, MovedAsset{Unit: m.Units[i], Quantity: m.Quantities[i]})
		}
		t := &blocks[p.block].Txs[p.tx]
		if m.Spent {
			t.Inputs = append(t.Inputs, mv)
		} else {
			t.Outputs = append(t.Outputs, mv)
		}
	}
	return blocks, nil
}

// mergeRanges sorts ranges and joins those that overlap or touch, so that
// each block is read once.
func mergeRanges(rs []HeightRange) []HeightRange {
	var out []HeightRange
	sorted := make([]HeightRange, 0, len(rs))
	for _, r := range rs {
		if r.From <= r.To {
			sorted = append(sorted, r)
		}
	}
	slices.SortFunc(sorted, func(a, b HeightRange) int { return cmp.Compare(a.From, b.From) })
	for _, r := range sorted {
		if n := len(out); n > 0 && r.From <= out[n-1].To+1 {
			out[n-1].To = max(out[n-1].To, r.To)
			continue
		}
		out = append(out, r)
	}
	return out
}
