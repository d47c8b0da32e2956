package answer

import (
	"context"
	"encoding/hex"
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
	return s.balanceOf(ctx, db, addressSubject(addr), grouped, read)
}

// balanceOf answers a balance from the one kept for it across tips, or
// (the tracker not holding the request's tip) by the tip-keyed way.
func (s *Service) balanceOf(ctx context.Context, db *dbsync.DB, about subject, grouped bool, read func(context.Context, *dbsync.DB) (dbsync.Value, error)) ([]byte, error) {
	if b, answered, err := s.keptBalance(ctx, db, about, grouped, read); answered {
		return b, err
	}
	return s.balance(ctx, db, about, grouped, read)
}

// keptBalance answers the balance of an address, a payment credential or
// a stake key from the one kept for it (kept.go). A balance is kept with
// the block the request's tip names, read before the statement: a
// statement that saw a later block saw the same outputs unless a block
// between touched the address, which the tracker then reports. answered
// is false when the tracker does not hold the request's tip: the caller
// answers by the tip-keyed way.
func (s *Service) keptBalance(ctx context.Context, db *dbsync.DB, about subject, grouped bool, read func(context.Context, *dbsync.DB) (dbsync.Value, error)) (_ []byte, answered bool, _ error) {
	w, tracked := s.keptWayOf(ctx, db)
	if !tracked {
		return nil, false, nil
	}
	key := w.pinned.Network.Name + ":" + about.kind.String() + ":" + about.name + ":" + strconv.FormatBool(grouped)
	_, body, err := w.answer(ctx, s.caches.balanceKept, about, key, false, balanceCacheTTL, func(ctx context.Context, pinned *dbsync.DB) (touched.Point, []byte, error) {
		v, err := read(ctx, pinned)
		if err != nil {
			return w.now, nil, err
		}
		body, err := wire.Encode(ok(wire.ValueOf(v, grouped)))
		return w.now, body, err
	})
	return body, true, err
}

// BalanceByStake answers GET /v1/assets/balance/stake/:stakeKey.
func (s *Service) BalanceByStake(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, grouped bool) ([]byte, error) {
	read := func(ctx context.Context, db *dbsync.DB) (dbsync.Value, error) { return db.BalanceByStake(ctx, key) }
	return s.balanceOf(ctx, db, stakeSubject(key), grouped, read)
}

// BalanceByCredential answers GET /v1/assets/balance/credential/:credential.
func (s *Service) BalanceByCredential(ctx context.Context, db *dbsync.DB, cred cardano.PaymentCredential, grouped bool) ([]byte, error) {
	read := func(ctx context.Context, db *dbsync.DB) (dbsync.Value, error) {
		return db.BalanceByCredential(ctx, cred)
	}
	return s.balanceOf(ctx, db, credentialSubject(cred), grouped, read)
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

// balance answers a balance, cached under the tip (key: kind, name, grouping).
func (s *Service) balance(ctx context.Context, db *dbsync.DB, about subject, grouped bool, read func(context.Context, *dbsync.DB) (dbsync.Value, error)) ([]byte, error) {
	params := []string{about.kind.String(), about.name, strconv.FormatBool(grouped)}
	return s.byTipEnvelope(ctx, s.caches.balance, db, params, func(ctx context.Context, db *dbsync.DB) (wire.Envelope, time.Duration, error) {
		v, err := read(ctx, db)
		if err != nil {
			return wire.Envelope{}, 0, err
		}
		return ok(wire.ValueOf(v, grouped)), balanceCacheTTL, nil
	})
}
