package events

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/sql"
)

var (
	sqlReserveSeq   = sqlfiles.Must("admin/event_reserve_seq.sql")
	sqlInsertEvents = sqlfiles.Must("admin/event_insert.sql")
	sqlRevokeEvents = sqlfiles.Must("admin/event_revoke.sql")
)

// Options configures a Store.
type Options struct {
	// Sealer seals signing secrets (nil: webhooks are off; reads still work).
	Sealer *Sealer
	// Enqueuer schedules push deliveries (nil: pull only).
	Enqueuer Enqueuer
	// Now is the clock (tests move it); nil means time.Now.
	Now func() time.Time
}

// Store reads and writes webhooks, watch sets, events and deliveries in
// the admin database.
type Store struct {
	db   *sqlx.DB
	opts Options
	now  func() time.Time
}

// NewStore returns a Store over the (migrated) admin database.
func NewStore(db *sqlx.DB, opts Options) *Store {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	return &Store{db: db, opts: opts, now: now}
}

// DB is the admin database the store writes to.
func (s *Store) DB() *sqlx.DB { return s.db }

// SetEnqueuer installs the push delivery scheduler (the delivery service
// is built after the store).
func (s *Store) SetEnqueuer(e Enqueuer) { s.opts.Enqueuer = e }

// AppendEvents decides events in tx: each gets an id and the next
// sequence number of its webhook, its body is written, and, when its
// webhook pushes, a pending delivery is written and scheduled in the same
// transaction. Events of a deleted webhook are dropped. network names the
// network in the bodies.
func (s *Store) AppendEvents(ctx context.Context, tx *sqlx.Tx, network string, evs []NewEvent) ([]Decided, error) {
	if len(evs) == 0 {
		return nil, nil
	}
	order, counts := perWebhook(evs)
	n := make([]int64, len(order))
	for i, id := range order {
		n[i] = counts[id]
	}
	rows, err := tx.QueryxContext(ctx, sqlReserveSeq, pq.Array(uuidStrings(order)), pq.Array(n))
	if err != nil {
		return nil, fmt.Errorf("events: reserve: %w", err)
	}
	per, err := reservations(rows, counts)
	if err != nil {
		return nil, fmt.Errorf("events: reserve: %w", err)
	}
	return s.write(ctx, tx, network, evs, per)
}

// Advance is a scanner step's move of a group of webhooks from From to
// To.
type Advance struct {
	Hooks    []ScanHook
	From, To int64
}

// AppendScanned decides a scanner step's events in tx, as AppendEvents,
// after moving the webhooks of advances in the same statement that
// reserves the sequence numbers; the step moves the checkpoint from
// height at to height to. A webhook that follows the checkpoint and stays
// in step without events is not written (the checkpoint's move moves it;
// whatever changes it meanwhile writes its position, migration 0019).
// Only the webhooks it moved get their events (one changed or deleted
// since the step read it gets none); Decided lists what was written.
func (s *Store) AppendScanned(ctx context.Context, tx *sqlx.Tx, network string, at, to int64, advances []Advance, evs []NewEvent) ([]Decided, error) {
	_, counts := perWebhook(evs)
	var ids []uuid.UUID
	var froms, tos, n []int64
	for _, a := range advances {
		for _, h := range a.Hooks {
			if h.StaysInStep(a.To, to) && counts[h.ID] == 0 {
				continue
			}
			ids, froms, tos, n = append(ids, h.ID), append(froms, a.From), append(tos, a.To), append(n, counts[h.ID])
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := tx.QueryxContext(ctx, sqlScanAdvance, network, pq.Array(uuidStrings(ids)), pq.Array(froms), pq.Array(tos),
		pq.Array(n), at, to)
	if err != nil {
		return nil, fmt.Errorf("events: advance: %w", err)
	}
	per, err := reservations(rows, counts)
	if err != nil {
		return nil, fmt.Errorf("events: advance: %w", err)
	}
	return s.write(ctx, tx, network, evs, per)
}

// reserved is a webhook's next sequence number and whether it pushes.
type reserved struct {
	next   int64
	push   bool
	format string
}

// perWebhook is the webhooks of evs in order of first appearance and how
// many events each has.
func perWebhook(evs []NewEvent) ([]uuid.UUID, map[uuid.UUID]int64) {
	counts := map[uuid.UUID]int64{}
	var order []uuid.UUID
	for _, e := range evs {
		if counts[e.WebhookID] == 0 {
			order = append(order, e.WebhookID)
		}
		counts[e.WebhookID]++
	}
	return order, counts
}

// reservations reads (id, last number reserved, push, format) rows: a webhook's
// numbers are the last counts[id] up to the last, in the order of its
// events. A webhook missing from rows gets no events.
func reservations(rows *sqlx.Rows, counts map[uuid.UUID]int64) (map[uuid.UUID]*reserved, error) {
	defer rows.Close()
	per := map[uuid.UUID]*reserved{}
	for rows.Next() {
		var id uuid.UUID
		var last int64
		var push bool
		var format string
		if err := rows.Scan(&id, &last, &push, &format); err != nil {
			return nil, err
		}
		per[id] = &reserved{next: last - counts[id] + 1, push: push, format: format}
	}
	return per, rows.Err()
}

// write writes evs whose webhook has a reservation in per: events with
// their deliveries, revocations and push jobs, one statement each.
func (s *Store) write(ctx context.Context, tx *sqlx.Tx, network string, evs []NewEvent, per map[uuid.UUID]*reserved) ([]Decided, error) {
	now := s.now().UTC().Truncate(time.Microsecond)
	var (
		ids, hooks            []uuid.UUID
		seqs, heights         []int64
		types                 []string
		txHashes, blockHashes [][]byte
		revoked, revokers     []uuid.UUID
		decided               []Decided
		pushes                []bool
		pushed                bool
	)
	bw, err := newBodyWriter(network, now)
	if err != nil {
		return nil, err
	}
	for _, e := range evs {
		r := per[e.WebhookID]
		if r == nil {
			continue
		}
		data, err := eventData(e)
		if err != nil {
			return nil, err
		}
		id, err := newEventID()
		if err != nil {
			return nil, err
		}
		if r.format == FormatBlockfrost {
			if err := bw.blockfrost(id, e, data); err != nil {
				return nil, err
			}
		} else {
			bw.standard(id, e, r.next, data)
		}
		var height *int64
		var blockHash []byte
		if e.Block != nil {
			h := e.Block.Height
			height, blockHash = &h, e.Block.Hash
		}
		ids, hooks, seqs, types = append(ids, id), append(hooks, e.WebhookID), append(seqs, r.next), append(types, e.Type)
		txHashes, blockHashes = append(txHashes, e.TxHash), append(blockHashes, blockHash)
		heights = append(heights, valueOr(height))
		if e.Revokes != nil {
			revoked, revokers = append(revoked, *e.Revokes), append(revokers, id)
		}
		// webhook.disabled reaches the feed only: its webhook no longer pushes.
		push := r.push && e.Type != TypeWebhookDisabled
		pushes, pushed = append(pushes, push), pushed || push
		decided = append(decided, Decided{ID: id, WebhookID: e.WebhookID, Seq: r.next, Push: push})
		r.next++
	}
	if len(ids) == 0 {
		return nil, nil
	}
	bodies, err := bw.bodies()
	if err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, sqlInsertEvents, pq.Array(uuidStrings(ids)), pq.Array(uuidStrings(hooks)),
		pq.Array(seqs), pq.Array(types), pq.ByteaArray(txHashes), pq.Array(heights),
		pq.ByteaArray(blockHashes), bodies, now, pq.Array(pushes)); err != nil {
		return nil, fmt.Errorf("events: insert: %w", err)
	}
	if len(revoked) > 0 {
		if _, err := tx.ExecContext(ctx, sqlRevokeEvents, pq.Array(uuidStrings(revoked)), pq.Array(uuidStrings(revokers))); err != nil {
			return nil, fmt.Errorf("events: revoke: %w", err)
		}
	}
	if pushed && s.opts.Enqueuer != nil {
		var push []Decided
		for _, d := range decided {
			if d.Push {
				push = append(push, d)
			}
		}
		if err := s.opts.Enqueuer.EnqueueNewTx(ctx, tx.Tx, push); err != nil {
			return nil, fmt.Errorf("events: enqueue: %w", err)
		}
	}
	return decided, nil
}

// newEventID is a time-ordered (version 7) id: consecutive events land
// side by side in the primary keys of events and deliveries, not at random
// pages of indexes that outgrow memory.
func newEventID() (uuid.UUID, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.Nil, fmt.Errorf("events: id: %w", err)
	}
	return id, nil
}

func valueOr(p *int64) int64 {
	if p == nil {
		return -1
	}
	return *p
}

func uuidStrings(ids []uuid.UUID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.String()
	}
	return out
}

var sqlNoRows = sql.ErrNoRows
