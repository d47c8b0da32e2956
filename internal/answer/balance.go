package answer

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer/wire"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/service/touched"
)

// balanceCacheTTL: a balance answer is cached under the tip it was read
// at (it cannot change before the tip moves). Partners poll the balances
// of busy wallets many times per block, and a balance over tens of
// thousands of outputs costs the database a second.
const balanceCacheTTL = 10 * time.Minute

// BalanceByAddress answers GET /v1/assets/balance/address/:address.
func (s *Service) BalanceByAddress(ctx context.Context, db *dbsync.DB, addr cardano.Address, grouped bool) ([]byte, error) {
	read := func(ctx context.Context, db *dbsync.DB) (dbsync.Value, error) { return db.BalanceByAddress(ctx, addr) }
	if b, answered, err := s.keptBalance(ctx, db, touched.Address, addr.String(), grouped, read); answered {
		return b, err
	}
	return s.balance(ctx, db, "address", addr.String(), grouped, read)
}

// keptBalance answers the balance of an address or a payment credential
// (kind, id) from the one kept for it when no block since the one it was
// read at has paid to or spent from it (touched.Tracker): a custodian
// polls its vault addresses once a block, and most of them sit still. A balance is read, answered and (from
// its second ask on) kept with the block it was read at; the tip read
// before the statement names that block, and a statement that saw a later
// block saw the same outputs unless a block between touched the address,
// which the tracker then reports. answered is false when the tracker does
// not hold the request's tip (it is catching up, or the tip cannot be
// had): the caller answers by the tip-keyed way, as without it.
func (s *Service) keptBalance(ctx context.Context, db *dbsync.DB, kind touched.Kind, id string, grouped bool, read func(context.Context, *dbsync.DB) (dbsync.Value, error)) (_ []byte, answered bool, _ error) {
	tr := s.touched.For(db)
	pinned, tip, err := s.readAt(ctx, db)
	if tr == nil || err != nil || tip.BlockNo == nil {
		return nil, false, nil
	}
	now := touched.Point{Height: *tip.BlockNo, Hash: tip.BlockHash}
	if !tr.Holds(now) {
		if err := tr.Start(ctx); err != nil || !tr.Holds(now) {
			tr.Observe(now)
			return nil, false, nil
		}
	}
	key := pinned.Network.Name + ":" + kind.String() + ":" + id + ":" + strconv.FormatBool(grouped)
	still := func(rec []byte) bool {
		at, _, good := parseKept(rec)
		return good && tr.Untouched(kind, id, at, now)
	}
	rec, err := s.caches.balanceKept.GetValid(ctx, key, now.Hash, still, func(ctx context.Context) ([]byte, time.Duration, error) {
		v, err := read(ctx, pinned)
		if err != nil {
			return nil, 0, err
		}
		body, err := wire.Encode(ok(wire.ValueOf(v, grouped)))
		if err != nil {
			return nil, 0, err
		}
		return keptRecord(now, body), balanceCacheTTL, nil
	})
	if err != nil {
		return nil, true, err
	}
	if _, body, good := parseKept(rec); good {
		return body, true, nil
	}
	return nil, true, fmt.Errorf("balance: a kept record without its block")
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

// BalanceByStake answers GET /v1/assets/balance/stake/:stakeKey.
func (s *Service) BalanceByStake(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, grouped bool) ([]byte, error) {
	return s.balance(ctx, db, "stake", stakeKeyID(key), grouped, func(ctx context.Context, db *dbsync.DB) (dbsync.Value, error) {
		return db.BalanceByStake(ctx, key)
	})
}

// BalanceByCredential answers GET /v1/assets/balance/credential/:credential.
func (s *Service) BalanceByCredential(ctx context.Context, db *dbsync.DB, cred cardano.PaymentCredential, grouped bool) ([]byte, error) {
	read := func(ctx context.Context, db *dbsync.DB) (dbsync.Value, error) {
		return db.BalanceByCredential(ctx, cred)
	}
	if b, answered, err := s.keptBalance(ctx, db, touched.Credential, cred.Hex(), grouped, read); answered {
		return b, err
	}
	return s.balance(ctx, db, "credential", cred.Hex(), grouped, read)
}

// stakeKeyID names a parsed stake key in cache keys: its hash_raw
// candidates in hex (a bech32 address and its bare credential name the
// same key).
func stakeKeyID(key cardano.StakeKey) string {
	parts := make([]string, len(key.Candidates()))
	for i, c := range key.Candidates() {
		parts[i] = hex.EncodeToString(c)
	}
	return strings.Join(parts, ".")
}

// balance answers a balance, cached under the tip (key: kind, id, grouping).
func (s *Service) balance(ctx context.Context, db *dbsync.DB, kind, id string, grouped bool, read func(context.Context, *dbsync.DB) (dbsync.Value, error)) ([]byte, error) {
	params := []string{kind, id, strconv.FormatBool(grouped)}
	return s.byTipEnvelope(ctx, s.caches.balance, db, params, func(ctx context.Context, db *dbsync.DB) (wire.Envelope, time.Duration, error) {
		v, err := read(ctx, db)
		if err != nil {
			return wire.Envelope{}, 0, err
		}
		return ok(wire.ValueOf(v, grouped)), balanceCacheTTL, nil
	})
}
