// Package bfevents renders the scanner's announcements in Blockfrost's
// webhook payloads (https://blockfrost.dev/start-building/webhooks/), from
// the Blockfrost dialect's own answers, so a Blockfrost-format webhook
// carries the same shapes /api/v0 answers: /txs/{hash} and its /utxos
// for transaction events, /blocks/{hash} for block events,
// /txs/{hash}/delegations with /pools/{pool_id} for delegation events,
// /epochs/{n} for epoch events. It implements scanner.Blockfrost.
package bfevents

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer/bf"
	"github.com/syncgate/syncgate/internal/cardano"
)

// Renderer renders payloads over the dialect's answers.
type Renderer struct{ a *bf.Answers }

// New returns a Renderer over a.
func New(a *bf.Answers) *Renderer { return &Renderer{a: a} }

// transaction is one item of a transaction event's payload.
type transaction struct {
	Tx      json.RawMessage `json:"tx"`
	Inputs  json.RawMessage `json:"inputs"`
	Outputs json.RawMessage `json:"outputs"`
}

// Transaction is one item of a transaction event's payload.
func (r *Renderer) Transaction(ctx context.Context, db *dbsync.DB, h []byte) ([]byte, error) {
	hash, tx, err := r.tx(ctx, db, h)
	if err != nil {
		return nil, err
	}
	raw, err := r.a.TxUTxOs(ctx, db, hash)
	if err != nil {
		return nil, fmt.Errorf("bfevents: utxos %x: %w", h, err)
	}
	var u struct {
		Inputs  json.RawMessage `json:"inputs"`
		Outputs json.RawMessage `json:"outputs"`
	}
	if err := json.Unmarshal(raw, &u); err != nil {
		return nil, err
	}
	return json.Marshal(transaction{Tx: tx, Inputs: u.Inputs, Outputs: u.Outputs})
}

// delegation is one item of a delegation event's payload.
type delegation struct {
	Tx          json.RawMessage   `json:"tx"`
	Delegations []json.RawMessage `json:"delegations"`
}

// Delegation is one item of a delegation event's payload: each pool
// delegation of /txs/{hash}/delegations with a "pool" field, the pool's
// /pools/{id}.
func (r *Renderer) Delegation(ctx context.Context, db *dbsync.DB, h []byte) ([]byte, error) {
	hash, tx, err := r.tx(ctx, db, h)
	if err != nil {
		return nil, err
	}
	raw, err := r.a.TxDelegations(ctx, db, hash)
	if err != nil {
		return nil, fmt.Errorf("bfevents: delegations %x: %w", h, err)
	}
	var ds []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &ds); err != nil {
		return nil, err
	}
	d := delegation{Tx: tx, Delegations: []json.RawMessage{}}
	for _, one := range ds {
		withPool, err := r.withPool(ctx, db, one)
		if err != nil {
			return nil, err
		}
		d.Delegations = append(d.Delegations, withPool)
	}
	return json.Marshal(d)
}

// withPool is one /txs/{hash}/delegations item with its pool appended,
// its own fields in Blockfrost's order (the item is re-read in order).
func (r *Renderer) withPool(ctx context.Context, db *dbsync.DB, item map[string]json.RawMessage) (json.RawMessage, error) {
	var poolID string
	if err := json.Unmarshal(item["pool_id"], &poolID); err != nil {
		return nil, fmt.Errorf("bfevents: delegation without pool_id: %w", err)
	}
	id, err := cardano.ParsePoolID(poolID)
	if err != nil {
		return nil, err
	}
	pool, err := r.a.PoolByID(ctx, db, id)
	if err != nil {
		return nil, fmt.Errorf("bfevents: pool %s: %w", poolID, err)
	}
	ordered := struct {
		Index       json.RawMessage `json:"index"`
		CertIndex   json.RawMessage `json:"cert_index"`
		Address     json.RawMessage `json:"address"`
		PoolID      json.RawMessage `json:"pool_id"`
		ActiveEpoch json.RawMessage `json:"active_epoch"`
		Pool        json.RawMessage `json:"pool"`
	}{item["index"], item["cert_index"], item["address"], item["pool_id"], item["active_epoch"], pool}
	return json.Marshal(ordered)
}

// Block is a block event's payload.
func (r *Renderer) Block(ctx context.Context, db *dbsync.DB, hash []byte) ([]byte, error) {
	b, err := r.a.Block(ctx, db, bf.BlockRef{Hash: hash})
	if err != nil {
		return nil, fmt.Errorf("bfevents: block %x: %w", hash, err)
	}
	return b, nil
}

// epochPayload is an epoch event's payload.
type epochPayload struct {
	Previous json.RawMessage `json:"previous_epoch"`
	Current  currentEpoch    `json:"current_epoch"`
}

type currentEpoch struct {
	Epoch     int64 `json:"epoch"`
	StartTime int64 `json:"start_time"`
	EndTime   int64 `json:"end_time"`
}

// Epoch is an epoch event's payload at the first block of epoch.
func (r *Renderer) Epoch(ctx context.Context, db *dbsync.DB, epoch int64) ([]byte, error) {
	prev, err := r.a.EpochByNumber(ctx, db, epoch-1)
	if err != nil {
		return nil, fmt.Errorf("bfevents: epoch %d: %w", epoch-1, err)
	}
	cur, err := r.a.EpochByNumber(ctx, db, epoch)
	if err != nil {
		return nil, fmt.Errorf("bfevents: epoch %d: %w", epoch, err)
	}
	var c currentEpoch
	if err := json.Unmarshal(cur, &c); err != nil {
		return nil, err
	}
	return json.Marshal(epochPayload{Previous: prev, Current: c})
}

// tx is the transaction's hash and its /txs/{hash} answer.
func (r *Renderer) tx(ctx context.Context, db *dbsync.DB, h []byte) (cardano.TxHash, json.RawMessage, error) {
	hash, err := txHash(h)
	if err != nil {
		return hash, nil, err
	}
	tx, err := r.a.Tx(ctx, db, hash)
	if err != nil {
		return hash, nil, fmt.Errorf("bfevents: tx %x: %w", h, err)
	}
	return hash, tx, nil
}

func txHash(h []byte) (cardano.TxHash, error) {
	var out cardano.TxHash
	if len(h) != len(out) {
		return out, fmt.Errorf("bfevents: a transaction hash of %d bytes", len(h))
	}
	copy(out[:], h)
	return out, nil
}
