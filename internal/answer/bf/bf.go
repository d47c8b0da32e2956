// Package bf makes the Blockfrost dialect's answers (spec/blockfrost.md),
// as the bytes sent, from the same stores and caches as /v1's: the shapes
// of Blockfrost's openapi.yaml (quantities as strings, lovelace first in
// amounts, block_time in unix seconds, bech32 pool and stake ids), cached
// under the tip they were read at (answer.Service.DialectAnswer) unless a
// family says otherwise.
package bf

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer"
)

// Answers makes the dialect's answers.
type Answers struct {
	svc     *answer.Service
	mempool mempoolMemo
	// figures: the /network figures computed once an epoch (figures.go).
	figures figureMemo
	// poolTables: every registered pool at the newest tip (pools.go).
	poolTables poolTables
	// labels: the metadata labels' counts up to a final point (metadata.go).
	labels labelMemo
	// drepTables: every DRep at the newest tip (gov_dreps.go).
	drepTables drepTables
	// delegators: each DRep's delegator list, brought forward block by
	// block (drep_delegator_lists.go).
	delegators delegatorLists
}

// New returns the dialect's answers over svc's caches.
func New(svc *answer.Service) *Answers { return &Answers{svc: svc} }

// Paging is Blockfrost's list parameters: a page of Count items, pages
// numbered from 1, oldest first unless Desc.
type Paging struct {
	Count int
	Page  int
	Desc  bool
}

// Offset is the number of items before the page.
func (p Paging) Offset() int { return (p.Page - 1) * p.Count }

// key is the page's part of a cache key.
func (p Paging) key() string {
	o := "asc"
	if p.Desc {
		o = "desc"
	}
	return itoa(p.Count) + ":" + itoa(p.Page) + ":" + o
}

// cached answers route's value under the request's tip: params name what
// the answer depends on; read builds the value, which is encoded as JSON.
func cached[T any](ctx context.Context, a *Answers, db *dbsync.DB, route string, params []string, read func(context.Context, *dbsync.DB) (T, error)) ([]byte, error) {
	key := append([]string{"bf", route}, params...)
	return a.svc.DialectAnswer(ctx, db, key, func(ctx context.Context, db *dbsync.DB) ([]byte, error) {
		v, err := read(ctx, db)
		if err != nil {
			return nil, err
		}
		return encode(v)
	})
}

// encode is JSON without HTML escaping (addresses and metadata are sent as
// they are), with the newline every answer ends with.
func encode(v any) ([]byte, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}
