package scanner

import (
	"context"
	"fmt"
	"slices"

	"github.com/google/uuid"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/events"
)

// Blockfrost renders announcements in Blockfrost's webhook payloads (the
// JSON of its /txs, /blocks, /epochs and /pools answers); the scanner
// renders before its commit, so a Blockfrost-format event is written with
// its payload. internal/answer/bfevents implements it over the Blockfrost
// dialect's answers.
type Blockfrost interface {
	// Transaction is one item of a transaction event's payload (a JSON
	// array of them): the transaction's tx (/txs/{hash}), inputs and
	// outputs (/txs/{hash}/utxos).
	Transaction(ctx context.Context, db *dbsync.DB, hash []byte) ([]byte, error)
	// Delegation is one item of a delegation event's payload: the
	// transaction's tx and its pool delegations (/txs/{hash}/delegations),
	// each with its pool (/pools/{pool_id}).
	Delegation(ctx context.Context, db *dbsync.DB, hash []byte) ([]byte, error)
	// Block is a block event's payload (/blocks/{hash}).
	Block(ctx context.Context, db *dbsync.DB, hash []byte) ([]byte, error)
	// Epoch is an epoch event's payload: the previous epoch (/epochs/{n})
	// and the new one's number, start and end.
	Epoch(ctx context.Context, db *dbsync.DB, epoch int64) ([]byte, error)
}

// blockfrost gives the events of Blockfrost-format webhooks their
// Blockfrost payloads. Blockfrost sends one transaction (and delegation)
// event per block with every matching transaction, so a webhook's
// tx.confirmed (delegation.confirmed) events of one block become one
// event, revoked as one by a rollback.
// rendered holds block payloads rendered ahead (prefetchBlocks), by key.
func (s *Scanner) blockfrost(ctx context.Context, work []groupWork, evs []events.NewEvent, rendered map[string]*events.BlockfrostPayload) ([]events.NewEvent, error) {
	bf := map[uuid.UUID]bool{}
	for _, w := range work {
		for _, h := range w.g.Hooks {
			if h.Format == events.FormatBlockfrost {
				bf[h.ID] = true
			}
		}
	}
	if len(bf) == 0 || s.o.Blockfrost == nil {
		return evs, nil
	}
	out := make([]events.NewEvent, 0, len(evs))
	type group struct {
		at     int // index in out
		hashes [][]byte
		data   []any
	}
	groups := map[string]*group{}
	var order []string
	for _, e := range evs {
		if !bf[e.WebhookID] {
			out = append(out, e)
			continue
		}
		switch e.Type {
		case events.TypeTxConfirmed, events.TypeDelegationConfirmed:
			k := fmt.Sprintf("%s %s %x", e.WebhookID, e.Type, e.Block.Hash)
			g := groups[k]
			if g == nil {
				g = &group{at: len(out)}
				groups[k] = g
				order = append(order, k)
				merged := e
				merged.TxHash = nil
				out = append(out, merged)
			}
			g.hashes, g.data = append(g.hashes, e.TxHash), append(g.data, e.Data)
			continue
		}
		out = append(out, e)
	}
	// A transaction many webhooks watch is rendered once a step.
	memo := map[string][]byte{}
	item := func(typ string, hash []byte) ([]byte, error) {
		k := fmt.Sprintf("%s %x", typ, hash)
		if b, ok := memo[k]; ok {
			return b, nil
		}
		var b []byte
		var err error
		if typ == events.BlockfrostTransaction {
			b, err = s.o.Blockfrost.Transaction(ctx, s.o.DB, hash)
		} else {
			b, err = s.o.Blockfrost.Delegation(ctx, s.o.DB, hash)
		}
		if err == nil {
			memo[k] = b
		}
		return b, err
	}
	for _, k := range order {
		g := groups[k]
		e := &out[g.at]
		e.Data = g.data
		if len(g.hashes) == 1 {
			e.TxHash = g.hashes[0]
		}
		typ := events.BlockfrostDelegation
		if e.Type == events.TypeTxConfirmed {
			typ = events.BlockfrostTransaction
		}
		p := []byte{'['}
		for i, h := range g.hashes {
			b, err := item(typ, h)
			if err != nil {
				return nil, wrap("blockfrost payload", err)
			}
			if i > 0 {
				p = append(p, ',')
			}
			p = append(p, b...)
		}
		e.Blockfrost = &events.BlockfrostPayload{Type: typ, Payload: append(p, ']')}
	}
	payloads := rendered
	if payloads == nil {
		payloads = map[string]*events.BlockfrostPayload{}
	}
	for i := range out {
		e := &out[i]
		if !bf[e.WebhookID] || e.Blockfrost != nil {
			continue
		}
		var typ string
		var render func() ([]byte, error)
		switch e.Type {
		case events.TypeBlockAdded: // its data is encoded once for every webhook
			typ = events.BlockfrostBlock
			render = func() ([]byte, error) { return s.o.Blockfrost.Block(ctx, s.o.DB, e.Block.Hash) }
		case events.TypeEpochStarted:
			d, ok := e.Data.(events.EpochStarted)
			if !ok {
				continue
			}
			typ = events.BlockfrostEpoch
			render = func() ([]byte, error) { return s.o.Blockfrost.Epoch(ctx, s.o.DB, d.Epoch) }
		default:
			continue
		}
		// One payload for every webhook it goes to: the store writes its
		// JavaScript form once.
		k := payloadKey(typ, e.Block.Hash)
		p, ok := payloads[k]
		if !ok {
			raw, err := render()
			if err != nil {
				return nil, wrap("blockfrost payload", err)
			}
			p = &events.BlockfrostPayload{Type: typ, Payload: raw}
			payloads[k] = p
		}
		e.Blockfrost = p
	}
	return out, nil
}

func payloadKey(typ string, hash []byte) string { return fmt.Sprintf("%s %x", typ, hash) }

// prefetchBlocks renders, on db-sync's pool while the step matches on the
// admin connection, the block payload of each block read in the range of
// a group with a Blockfrost-format webhook that wants block.added (a
// pool-filtered one may not get every block; a payload not needed is
// dropped). The returned wait gives them (nil when there were none, or
// rendering failed: blockfrost then renders what it needs itself).
func (s *Scanner) prefetchBlocks(ctx context.Context, work []groupWork, blocks []dbsync.ScanBlock) (wait func() map[string]*events.BlockfrostPayload) {
	var need []dbsync.ScanBlock
	for _, b := range blocks {
		for _, w := range work {
			if b.Height < w.from || b.Height > w.to || !slices.ContainsFunc(w.g.Hooks, func(h events.ScanHook) bool {
				return h.Format == events.FormatBlockfrost && h.Wants(events.TypeBlockAdded)
			}) {
				continue
			}
			need = append(need, b)
			break
		}
	}
	if len(need) == 0 || s.o.Blockfrost == nil {
		return func() map[string]*events.BlockfrostPayload { return nil }
	}
	blocks = need
	done := make(chan map[string]*events.BlockfrostPayload, 1)
	go func() {
		out := make(map[string]*events.BlockfrostPayload, len(blocks))
		for _, b := range blocks {
			raw, err := s.o.Blockfrost.Block(ctx, s.o.DB, b.Hash)
			if err != nil {
				done <- nil
				return
			}
			out[payloadKey(events.BlockfrostBlock, b.Hash)] = &events.BlockfrostPayload{Type: events.BlockfrostBlock, Payload: raw}
		}
		done <- out
	}()
	return func() map[string]*events.BlockfrostPayload { return <-done }
}
