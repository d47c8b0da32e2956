package answer

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/service/touched"
)

// Answers kept across tips: an answer about an address (or a payment
// credential, or a stake key) read at one block is the answer at a later
// block when no block between paid to or spent from it (touched.Tracker).
// A custodian polls its vault addresses once a block and most of them sit
// still, so their balances, history pages and short UTxO lists are read
// once and answered from the kept record at the blocks after, instead of
// once a tip. Transactions are kept while the block they were read at
// stays on the chain (history.go).

// subject is what an answer is about: its kind and name in cache keys
// ("address", "credential", "stake", "asset"; the address text, the
// credential's hex, a stake key's candidates in hex, the asset's unit),
// and what the tracker knows it by (ids): the address, the credential,
// the unit, or a stake key's reward addresses as bech32 views (a bare stake credential names two, the key and the
// script one: the answer reads whichever exists, so it holds while
// neither moved).
type subject struct {
	kind touched.Kind
	name string
	ids  []string
}

func addressSubject(addr cardano.Address) subject {
	s := addr.String()
	return subject{kind: touched.Address, name: s, ids: []string{s}}
}

func credentialSubject(cred cardano.PaymentCredential) subject {
	h := cred.Hex()
	return subject{kind: touched.Credential, name: h, ids: []string{h}}
}

func stakeSubject(key cardano.StakeKey) subject {
	return subject{kind: touched.Stake, name: stakeKeyID(key), ids: key.CandidateAddresses()}
}

func assetSubject(id cardano.AssetID) subject {
	u := id.Unit()
	return subject{kind: touched.Asset, name: u, ids: []string{u}}
}

// keptWay is a request's tracked view: the tracker of its network, the
// database pinned for it, and the tip it is read at (readAt).
type keptWay struct {
	tr     *touched.Tracker
	pinned *dbsync.DB
	tip    dbsync.Tip
	now    touched.Point
}

// keptWayOf returns the request's tracked view; ok is false when the
// tracker does not hold the request's tip (it is starting or catching up,
// or the tip cannot be had): the caller answers by the tip-keyed way, as without it.
func (s *Service) keptWayOf(ctx context.Context, db *dbsync.DB) (w keptWay, ok bool) {
	return s.keptWayWithin(ctx, db, 0)
}

// keptWayWithin is keptWayOf that waits up to wait for the tracker to
// reach the request's tip. Without a wait the tracker catches up in the
// background: its reads go to the primary (which may be the server that
// is frozen while a replica answers), so only an answer whose read costs
// more than a catch-up waits, and a bounded time.
func (s *Service) keptWayWithin(ctx context.Context, db *dbsync.DB, wait time.Duration) (w keptWay, ok bool) {
	tr := s.touched.For(db)
	pinned, tip, err := s.readAt(ctx, db)
	if tr == nil || err != nil || tip.BlockNo == nil {
		return w, false
	}
	now := touched.Point{Height: *tip.BlockNo, Hash: tip.BlockHash}
	if !tr.Holds(now) {
		if wait <= 0 {
			tr.Observe(now)
			return w, false
		}
		waitCtx, cancel := context.WithTimeout(ctx, wait)
		held := tr.Await(waitCtx, now)
		cancel()
		if !held {
			return w, false
		}
	}
	return keptWay{tr: tr, pinned: pinned, tip: tip, now: now}, true
}

// keptLoad reads an answer through pinned and says the block it holds at
// (the request's tip read before it, or the tip its own statement read).
type keptLoad func(ctx context.Context, pinned *dbsync.DB) (at touched.Point, body []byte, err error)

// answer returns the record kept under key about a subject when it still
// holds at the request's tip, else load's, which is kept from the key's
// second ask on (first asks: cache.Admission; admitted: at once).
func (w keptWay) answer(ctx context.Context, answers *cache.Cache[[]byte], about subject, key string, admitted bool, ttl time.Duration, load keptLoad) (at touched.Point, body []byte, err error) {
	keptAt, kept, hit, again := w.lookup(ctx, answers, key, admitted, func(at touched.Point) bool {
		return w.untouched(about, at)
	})
	if hit {
		return keptAt, kept, nil
	}
	rec, err := answers.Load(ctx, key, w.now.Hash, again, func(ctx context.Context) ([]byte, time.Duration, error) {
		at, body, err := load(ctx, w.pinned)
		if err != nil {
			return nil, 0, err
		}
		return keptRecord(at, body), ttl, nil
	})
	if err != nil {
		return at, nil, err
	}
	at, body, good := parseKept(rec)
	if !good {
		return at, nil, fmt.Errorf("answer: a kept record without its block")
	}
	return at, body, nil
}

// lookup returns the record kept under key when holds says the block it
// was read at still vouches for it (cache.LookupValid: again says whether
// an answer read now is to be kept).
func (w keptWay) lookup(ctx context.Context, answers *cache.Cache[[]byte], key string, admitted bool, holds func(at touched.Point) bool) (at touched.Point, body []byte, hit, again bool) {
	_, hit, again = answers.LookupValid(ctx, key, admitted, func(rec []byte) bool {
		a, b, good := parseKept(rec)
		if good && holds(a) {
			at, body = a, b
			return true
		}
		return false
	})
	return at, body, hit, again
}

// untouched reports whether no block after at up to the request's tip
// moved the subject.
func (w keptWay) untouched(about subject, at touched.Point) bool {
	for _, id := range about.ids {
		if !w.tr.Untouched(about.kind, id, at, w.now) {
			return false
		}
	}
	return len(about.ids) > 0
}

// still reports whether an answer read at block at is the answer at the
// request's tip too.
func (w keptWay) still(about subject, at touched.Point) bool {
	return at == w.now || w.untouched(about, at)
}

// keptRecord is a kept answer as stored: [<height>,"<block hash>",<answer>]
// (JSON, as the cache checks what it reads from Redis).
func keptRecord(at touched.Point, body []byte) []byte {
	b := make([]byte, 0, len(body)+len(at.Hash)+26)
	b = append(b, '[')
	b = strconv.AppendInt(b, at.Height, 10)
	b = append(b, ',', '"')
	b = append(b, at.Hash...)
	b = append(b, '"', ',')
	b = append(b, body...)
	return append(b, ']')
}

// parseKept reads a keptRecord; ok is false for anything else.
func parseKept(rec []byte) (at touched.Point, body []byte, ok bool) {
	if len(rec) < 2 || rec[0] != '[' || rec[len(rec)-1] != ']' {
		return at, nil, false
	}
	rec = rec[1 : len(rec)-1]
	i := bytes.IndexByte(rec, ',')
	if i <= 0 || len(rec) < i+2 || rec[i+1] != '"' {
		return at, nil, false
	}
	h, err := strconv.ParseInt(string(rec[:i]), 10, 64)
	if err != nil {
		return at, nil, false
	}
	rest := rec[i+2:]
	j := bytes.IndexByte(rest, '"')
	if j < 0 || len(rest) < j+2 || rest[j+1] != ',' {
		return at, nil, false
	}
	return touched.Point{Height: h, Hash: string(rest[:j])}, rest[j+2:], true
}
