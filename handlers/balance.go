package handlers

import (
	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/dbsync"
)

// balanceByAddress: GET /v1/assets/balance/address/:address.
func (s *Server) balanceByAddress(c *gin.Context) error {
	db, err := s.chainDB(c)
	if err != nil {
		return err
	}
	addr, err := dbsync.ParseAddress(c.Param("address"), db.Network.Mainnet)
	if err != nil {
		return errInvalidAddress
	}
	grouped, err := queryBool(c, "groupByPolicy")
	if err != nil {
		return err
	}
	v, err := db.BalanceByAddress(c.Request.Context(), addr)
	if err != nil {
		return err
	}
	ok(c, valueOf(v, grouped))
	return nil
}

// balanceByStake: GET /v1/assets/balance/stake/:stakeKey.
func (s *Server) balanceByStake(c *gin.Context) error {
	db, err := s.chainDB(c)
	if err != nil {
		return err
	}
	key, err := dbsync.ParseStakeKey(c.Param("stakeKey"), db.Network.Mainnet)
	if err != nil {
		return errInvalidStakeKey
	}
	grouped, err := queryBool(c, "groupByPolicy")
	if err != nil {
		return err
	}
	v, err := db.BalanceByStake(c.Request.Context(), key)
	if err != nil {
		return err
	}
	ok(c, valueOf(v, grouped))
	return nil
}
