package bf

import (
	"context"
	"encoding/hex"
	"errors"
	"strconv"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/blocks"
	"github.com/syncgate/syncgate/internal/answer"
)

// Block is Blockfrost's block_content.
type Block struct {
	Time          int64   `json:"time"`
	Height        *int64  `json:"height"`
	Hash          string  `json:"hash"`
	Slot          *int64  `json:"slot"`
	Epoch         *int64  `json:"epoch"`
	EpochSlot     *int64  `json:"epoch_slot"`
	SlotLeader    string  `json:"slot_leader"`
	Size          int64   `json:"size"`
	TxCount       int64   `json:"tx_count"`
	Output        *string `json:"output"`
	Fees          *string `json:"fees"`
	BlockVRF      *string `json:"block_vrf"`
	OpCert        *string `json:"op_cert"`
	OpCertCounter *string `json:"op_cert_counter"`
	PreviousBlock *string `json:"previous_block"`
	NextBlock     *string `json:"next_block"`
	Confirmations int64   `json:"confirmations"`
}

func blockOf(b blocks.Block) Block {
	return Block{
		Time: b.Time.Unix(), Height: b.Height, Hash: b.Hash, Slot: b.Slot, Epoch: b.Epoch,
		EpochSlot: b.EpochSlot, SlotLeader: b.SlotLeader, Size: b.Size, TxCount: b.TxCount,
		Output: b.Output, Fees: b.Fees, BlockVRF: b.VRFKey, OpCert: b.OpCert,
		OpCertCounter: b.OpCertCounter, PreviousBlock: b.Previous, NextBlock: b.Next,
		Confirmations: b.Confirmations(),
	}
}

// BlockRef names a block by hash or by number (Blockfrost's
// {hash_or_number}), or the latest block (Latest).
type BlockRef struct {
	Hash   []byte // 32 bytes, or nil
	Number int64
	Latest bool
}

// NewestBlock names the newest block (/blocks/latest/…).
var NewestBlock = BlockRef{Latest: true}

// store is the store's name for the block.
func (r BlockRef) store() blocks.Ref {
	switch {
	case r.Latest:
		return blocks.Ref{}
	case r.Hash != nil:
		return blocks.Ref{Hash: r.Hash}
	}
	n := r.Number
	return blocks.Ref{Number: &n}
}

// ParseBlockRef reads a 64-hex block hash or a block number.
func ParseBlockRef(s string) (BlockRef, bool) {
	if len(s) == 64 {
		h, err := hex.DecodeString(s)
		return BlockRef{Hash: h}, err == nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return BlockRef{Number: n}, err == nil && n >= 0 && len(s) < 20
}

func (r BlockRef) String() string {
	if r.Latest {
		return "latest"
	}
	if r.Hash != nil {
		return hex.EncodeToString(r.Hash)
	}
	return strconv.FormatInt(r.Number, 10)
}

// LatestBlock answers /blocks/latest.
func (a *Answers) LatestBlock(ctx context.Context, db *dbsync.DB) ([]byte, error) {
	return cached(ctx, a, db, "block", []string{"latest"}, func(ctx context.Context, db *dbsync.DB) (Block, error) {
		b, err := blocks.Latest(ctx, db)
		return blockOf(b), notFound(err)
	})
}

// Block answers /blocks/{hash_or_number}.
func (a *Answers) Block(ctx context.Context, db *dbsync.DB, ref BlockRef) ([]byte, error) {
	return cached(ctx, a, db, "block", []string{ref.String()}, func(ctx context.Context, db *dbsync.DB) (Block, error) {
		var b blocks.Block
		var err error
		if ref.Hash != nil {
			b, err = blocks.ByHash(ctx, db, ref.Hash)
		} else {
			b, err = blocks.ByNumber(ctx, db, ref.Number)
		}
		return blockOf(b), notFound(err)
	})
}

// BlockInSlot answers /blocks/slot/{slot_number}.
func (a *Answers) BlockInSlot(ctx context.Context, db *dbsync.DB, slot int64) ([]byte, error) {
	return cached(ctx, a, db, "block", []string{"slot", strconv.FormatInt(slot, 10)}, func(ctx context.Context, db *dbsync.DB) (Block, error) {
		b, err := blocks.BySlot(ctx, db, slot)
		return blockOf(b), notFound(err)
	})
}

// BlockInEpochSlot answers /blocks/epoch/{epoch_number}/slot/{slot_number}.
func (a *Answers) BlockInEpochSlot(ctx context.Context, db *dbsync.DB, epoch, slot int64) ([]byte, error) {
	params := []string{"epochslot", strconv.FormatInt(epoch, 10), strconv.FormatInt(slot, 10)}
	return cached(ctx, a, db, "block", params, func(ctx context.Context, db *dbsync.DB) (Block, error) {
		b, err := blocks.ByEpochSlot(ctx, db, epoch, slot)
		return blockOf(b), notFound(err)
	})
}

// notFound turns the store's not-found into the answer's (a 404,
// remembered under the tip).
func notFound(err error) error {
	if errors.Is(err, dbsync.ErrNotFound) {
		return answer.ErrNotFound
	}
	return err
}
