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
)

// balanceCacheTTL: a balance answer is cached under the tip it was read
// at (it cannot change before the tip moves). Partners poll the balances
// of busy wallets many times per block, and a balance over tens of
// thousands of outputs costs the database a second.
const balanceCacheTTL = 10 * time.Minute

// BalanceByAddress answers GET /v1/assets/balance/address/:address.
func (s *Service) BalanceByAddress(ctx context.Context, db *dbsync.DB, addr cardano.Address, grouped bool) ([]byte, error) {
	return s.balance(ctx, db, "address", addr.String(), grouped, func(ctx context.Context, db *dbsync.DB) (dbsync.Value, error) {
		return db.BalanceByAddress(ctx, addr)
	})
}

// BalanceByStake answers GET /v1/assets/balance/stake/:stakeKey.
func (s *Service) BalanceByStake(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, grouped bool) ([]byte, error) {
	return s.balance(ctx, db, "stake", stakeKeyID(key), grouped, func(ctx context.Context, db *dbsync.DB) (dbsync.Value, error) {
		return db.BalanceByStake(ctx, key)
	})
}

// BalanceByCredential answers GET /v1/assets/balance/credential/:credential.
func (s *Service) BalanceByCredential(ctx context.Context, db *dbsync.DB, cred cardano.PaymentCredential, grouped bool) ([]byte, error) {
	return s.balance(ctx, db, "credential", cred.Hex(), grouped, func(ctx context.Context, db *dbsync.DB) (dbsync.Value, error) {
		return db.BalanceByCredential(ctx, cred)
	})
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
