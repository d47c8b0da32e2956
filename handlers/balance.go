package handlers

import (
	"context"
	"encoding/hex"
	"github.com/syncgate/syncgate/internal/cardano"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/dbsync"
)

// balanceCacheTTL: a balance answer is cached under the tip it was read
// at (it cannot change before the tip moves). Partners poll the balances
// of busy wallets many times per block, and a balance over tens of
// thousands of outputs costs the database a second.
const balanceCacheTTL = 10 * time.Minute

// balanceByAddress: GET /v1/assets/balance/address/:address.
func (s *Server) balanceByAddress(c *gin.Context) error {
	db, addr, err := s.chainAddress(c)
	if err != nil {
		return err
	}
	return s.balance(c, db, "address", addr.String(), func(ctx context.Context) (dbsync.Value, error) {
		return db.BalanceByAddress(ctx, addr)
	})
}

// balanceByStake: GET /v1/assets/balance/stake/:stakeKey.
func (s *Server) balanceByStake(c *gin.Context) error {
	db, key, err := s.chainStakeKey(c)
	if err != nil {
		return err
	}
	return s.balance(c, db, "stake", stakeKeyID(key), func(ctx context.Context) (dbsync.Value, error) {
		return db.BalanceByStake(ctx, key)
	})
}

// balanceByCredential: GET /v1/assets/balance/credential/:credential.
func (s *Server) balanceByCredential(c *gin.Context) error {
	db, cred, err := s.chainCredential(c)
	if err != nil {
		return err
	}
	return s.balance(c, db, "credential", cred.Hex(), func(ctx context.Context) (dbsync.Value, error) {
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

// balance answers a balance, served by the tip (key: kind, id, grouping).
func (s *Server) balance(c *gin.Context, db *dbsync.DB, kind, id string, read func(context.Context) (dbsync.Value, error)) error {
	grouped, err := queryBool(c, "groupByPolicy")
	if err != nil {
		return err
	}
	params := []string{kind, id, strconv.FormatBool(grouped)}
	return s.servedByTip(c, s.caches.balance, db, params, func(ctx context.Context) (envelope, time.Duration, error) {
		v, err := read(ctx)
		if err != nil {
			return envelope{}, 0, err
		}
		return envelope{Success: true, Data: valueOf(v, grouped)}, balanceCacheTTL, nil
	})
}
