package events

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/sql"
)

// The event scanner's reads and writes (internal/service/scanner runs
// them, each step's writes in one transaction).
var (
	sqlScanLock            = sqlfiles.Must("admin/scan_lock.sql")
	sqlScanUnlock          = sqlfiles.Must("admin/scan_unlock.sql")
	sqlScanCheckpoint      = sqlfiles.Must("admin/scan_checkpoint.sql")
	sqlScanCheckpointStart = sqlfiles.Must("admin/scan_checkpoint_start.sql")
	sqlScanCheckpointMove  = sqlfiles.Must("admin/scan_checkpoint_move.sql")
	sqlScanBlocksUpsert    = sqlfiles.Must("admin/scan_blocks_upsert.sql")
	sqlScanBlocksRecent    = sqlfiles.Must("admin/scan_blocks_recent.sql")
	sqlScanWebhooks        = sqlfiles.Must("admin/scan_webhooks.sql")
	sqlScanVersion         = sqlfiles.Must("admin/scan_version.sql")
	sqlScanMatch           = sqlfiles.Must("admin/scan_match.sql")
	sqlScanAdvance         = sqlfiles.Must("admin/scan_advance.sql")
	sqlScanLiveEvents      = sqlfiles.Must("admin/scan_live_events.sql")
	sqlScanRewind          = sqlfiles.Must("admin/scan_rewind.sql")
	sqlScanUnfollow        = sqlfiles.Must("admin/scan_unfollow.sql")
)

// KeepBlocks is how many recent block hashes the scanner remembers per
// network: deeper than any rollback (2160 blocks), so the fork point is
// always among them.
const KeepBlocks = 2200

// ErrConflict: the checkpoint moved since the scanner read it (another
// scanner stepped first); the step's transaction must be rolled back.
var ErrConflict = errors.New("events: the scanner checkpoint moved")

// Checkpoint is where a network's scanner stands: the last db-sync block it
// has seen.
type Checkpoint struct {
	Height int64  `db:"block_no"`
	Hash   []byte `db:"block_hash"`
	// Positions counts the steps that wrote webhook positions (a scanner
	// keeps webhooks only while it stays, migration 0020).
	Positions int64 `db:"positions"`
}

// ScanGroup is the active webhooks of a network that share a depth and a
// scanned_through, scanned over the same block range.
type ScanGroup struct {
	Depth          int
	ScannedThrough int64
	Webhooks       []uuid.UUID
	// Hooks are the webhooks (in the order of Webhooks) as the scanner
	// decides for them.
	Hooks []ScanHook
}

// ScanHook is one webhook as the scanner sees it.
type ScanHook struct {
	ID     uuid.UUID
	Depth  int
	Stored int64 // scanned_through as stored (not kept while Follows)
	Types  []string
	Format string
	// Follows: it is scanned in step with the checkpoint, so its row is
	// written only when it gets events or leaves the step (migration 0019).
	Follows bool
	// PoolFilter: it wants block.added and watches pools, so only their
	// blocks are announced to it.
	PoolFilter bool
}

// StaysInStep reports whether the webhook follows the checkpoint and still
// does once a step has decided it through height to and moved the
// checkpoint to tip: then the step need not write its row.
func (h ScanHook) StaysInStep(to, tip int64) bool {
	return h.Follows && to == tip-int64(h.Depth)
}

// Wants says whether the webhook subscribes to event type t.
func (h ScanHook) Wants(t string) bool {
	for _, x := range h.Types {
		if x == t {
			return true
		}
	}
	return false
}

// Match is a watch item of one of a group's webhooks that a block range
// touches, for the event type Purpose.
type Match struct {
	WebhookID uuid.UUID `db:"webhook_id"`
	Kind      string    `db:"kind"`
	Value     string    `db:"value"`
	Purpose   string    `db:"purpose"`
}

// MatchKey is a key a block range carries, for the event type it would
// announce.
type MatchKey struct{ Kind, Value, Purpose string }

// LiveEvent is an announced, not yet revoked event (tx.confirmed,
// block.added, epoch.started, delegation.confirmed).
type LiveEvent struct {
	ID        uuid.UUID
	WebhookID uuid.UUID
	Seq       int64
	Type      string
	TxHash    []byte
	Block     BlockRef
	// Wants: its webhook subscribes to the type that revokes it.
	Wants bool
}

// ScanLock takes a network's scanner leadership on conn, a connection of
// the caller's own kept while it leads (the lock is its session's).
func ScanLock(ctx context.Context, conn sqlx.QueryerContext, key int64) (bool, error) {
	var got bool
	err := sqlx.GetContext(ctx, conn, &got, sqlScanLock, key)
	return got, err
}

// ScanUnlock gives leadership up; false when conn did not hold it.
func ScanUnlock(ctx context.Context, conn sqlx.QueryerContext, key int64) (bool, error) {
	var released bool
	err := sqlx.GetContext(ctx, conn, &released, sqlScanUnlock, key)
	return released, err
}

// ReadCheckpoint returns the network's checkpoint, nil before its first
// step.
func ReadCheckpoint(ctx context.Context, q sqlx.QueryerContext, network string) (*Checkpoint, error) {
	var c Checkpoint
	err := sqlx.GetContext(ctx, q, &c, sqlScanCheckpoint, network)
	if errors.Is(err, sqlNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("events: checkpoint: %w", err)
	}
	return &c, nil
}

// RecentBlocks returns up to limit remembered blocks of the network at or
// below height, newest first.
func RecentBlocks(ctx context.Context, q sqlx.QueryerContext, network string, below int64, limit int) ([]Checkpoint, error) {
	var out []Checkpoint
	if err := sqlx.SelectContext(ctx, q, &out, sqlScanBlocksRecent, network, limit, below); err != nil {
		return nil, fmt.Errorf("events: recent blocks: %w", err)
	}
	return out, nil
}

// ScanVersion is the version of the network's webhooks as the scanner
// reads them: ReadScanWebhooks' answer holds while it stays (migration
// 0020), barring the scanner's own writes.
func ScanVersion(ctx context.Context, q sqlx.QueryerContext, network string) (int64, error) {
	var v int64
	if err := sqlx.GetContext(ctx, q, &v, sqlScanVersion, network); err != nil {
		return 0, fmt.Errorf("events: scan version: %w", err)
	}
	return v, nil
}

// ReadScanWebhooks returns the network's active webhooks as the scanner
// groups them (GroupScan).
func ReadScanWebhooks(ctx context.Context, q sqlx.QueryerContext, network string) ([]ScanHook, error) {
	rows, err := q.QueryxContext(ctx, sqlScanWebhooks, network)
	if err != nil {
		return nil, fmt.Errorf("events: scan webhooks: %w", err)
	}
	defer rows.Close()
	var out []ScanHook
	for rows.Next() {
		var h ScanHook
		var types pq.StringArray
		if err := rows.Scan(&h.ID, &h.Depth, &h.Stored, &h.Follows, &types, &h.Format, &h.PoolFilter); err != nil {
			return nil, fmt.Errorf("events: scan webhooks: %w", err)
		}
		h.Types = types
		out = append(out, h)
	}
	return out, rows.Err()
}

// GroupScan groups hooks by (depth, scanned through) when the checkpoint
// is at height at (a following webhook is scanned through at less its
// depth), in order of that position, depth and id.
func GroupScan(hooks []ScanHook, at int64) []ScanGroup {
	through := func(h *ScanHook) int64 {
		if h.Follows {
			return at - int64(h.Depth)
		}
		return h.Stored
	}
	order := make([]*ScanHook, len(hooks))
	for i := range hooks {
		order[i] = &hooks[i]
	}
	slices.SortFunc(order, func(a, b *ScanHook) int {
		return cmp.Or(cmp.Compare(through(a), through(b)), cmp.Compare(a.Depth, b.Depth), bytes.Compare(a.ID[:], b.ID[:]))
	})
	var out []ScanGroup
	for _, h := range order {
		t := through(h)
		if n := len(out); n == 0 || out[n-1].Depth != h.Depth || out[n-1].ScannedThrough != t {
			out = append(out, ScanGroup{Depth: h.Depth, ScannedThrough: t})
		}
		g := &out[len(out)-1]
		g.Webhooks, g.Hooks = append(g.Webhooks, h.ID), append(g.Hooks, *h)
	}
	return out
}

// MatchItems finds, in one indexed query, the watch items of the
// network's active webhooks among keys, each kept for the webhooks that
// want its Purpose.
func MatchItems(ctx context.Context, q sqlx.QueryerContext, network string, keys []MatchKey) ([]Match, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	kinds, values, purposes := make([]string, len(keys)), make([]string, len(keys)), make([]string, len(keys))
	for i, k := range keys {
		kinds[i], values[i], purposes[i] = k.Kind, k.Value, k.Purpose
	}
	var out []Match
	if err := sqlx.SelectContext(ctx, q, &out, sqlScanMatch, network, pq.Array(kinds), pq.Array(values), pq.Array(purposes)); err != nil {
		return nil, fmt.Errorf("events: match: %w", err)
	}
	return out, nil
}

// MoveCheckpoint sets the network's checkpoint to to, compared-and-set
// against old (nil: the network has none yet), in tx; ErrConflict when it
// had moved. Blocks are the hashes of the blocks seen since old (to
// included): they are remembered, and those below to's height minus
// KeepBlocks or above it forgotten. wrote: the step wrote webhook
// positions (counted in Checkpoint.Positions).
func MoveCheckpoint(ctx context.Context, tx *sqlx.Tx, network string, old *Checkpoint, to Checkpoint, blocks []Checkpoint, wrote bool) error {
	heights := make([]int64, len(blocks))
	hashes := make([][]byte, len(blocks))
	for i, b := range blocks {
		heights[i], hashes[i] = b.Height, b.Hash
	}
	low := to.Height - KeepBlocks + 1
	var moved int64
	if old != nil {
		// The move, the blocks remembered and forgotten: one statement.
		err := tx.GetContext(ctx, &moved, sqlScanCheckpointMove, network, old.Height, old.Hash, to.Height, to.Hash, wrote,
			pq.Array(heights), low, pq.ByteaArray(hashes))
		if errors.Is(err, sqlNoRows) {
			return ErrConflict
		}
		if err != nil {
			return fmt.Errorf("events: checkpoint: %w", err)
		}
		return nil
	}
	err := tx.GetContext(ctx, &moved, sqlScanCheckpointStart, network, to.Height, to.Hash)
	if errors.Is(err, sqlNoRows) {
		return ErrConflict
	}
	if err != nil {
		return fmt.Errorf("events: checkpoint: %w", err)
	}
	if len(blocks) > 0 {
		if _, err := tx.ExecContext(ctx, sqlScanBlocksUpsert, network, pq.Array(heights), pq.ByteaArray(hashes)); err != nil {
			return fmt.Errorf("events: scanner blocks: %w", err)
		}
	}
	return nil
}

// LiveEventsAbove returns, in tx, the network's live announcements in
// blocks above height, each webhook's in sequence order.
func LiveEventsAbove(ctx context.Context, tx *sqlx.Tx, network string, height int64) ([]LiveEvent, error) {
	rows, err := tx.QueryxContext(ctx, sqlScanLiveEvents, network, height)
	if err != nil {
		return nil, fmt.Errorf("events: live events: %w", err)
	}
	defer rows.Close()
	var out []LiveEvent
	for rows.Next() {
		var e LiveEvent
		var body string
		if err := rows.Scan(&e.ID, &e.WebhookID, &e.Seq, &e.Type, &e.TxHash, &e.Block.Height, &e.Block.Hash, &body, &e.Wants); err != nil {
			return nil, fmt.Errorf("events: live events: %w", err)
		}
		// The slot and time of the block are in the body only.
		var b Body
		if err := json.Unmarshal([]byte(body), &b); err == nil && b.Block != nil {
			e.Block.Slot = b.Block.Slot
			if b.Block.Time != nil {
				e.Block.Time = *b.Block.Time
			}
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// RewindWebhooks sets, in tx, scanned_through of the network's webhooks
// that had scanned above height back to it.
func RewindWebhooks(ctx context.Context, tx *sqlx.Tx, network string, height int64) error {
	if _, err := tx.ExecContext(ctx, sqlScanRewind, network, height); err != nil {
		return fmt.Errorf("events: rewind: %w", err)
	}
	return nil
}

// Unfollow writes, in tx, the position of every webhook of the network
// that follows the checkpoint at height, and stops them following: a
// rollback runs it before it reads or moves any position.
func Unfollow(ctx context.Context, tx *sqlx.Tx, network string, height int64) error {
	if _, err := tx.ExecContext(ctx, sqlScanUnfollow, network, height); err != nil {
		return fmt.Errorf("events: unfollow: %w", err)
	}
	return nil
}
