package handlers

import (
	"github.com/gin-gonic/gin"
)

// balanceByAddress: GET /v1/assets/balance/address/:address.
func (s *Server) balanceByAddress(c *gin.Context) error {
	db, addr, err := s.chainAddress(c)
	if err != nil {
		return err
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
	db, key, err := s.chainStakeKey(c)
	if err != nil {
		return err
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

// balanceByCredential: GET /v1/assets/balance/credential/:credential.
func (s *Server) balanceByCredential(c *gin.Context) error {
	db, cred, err := s.chainCredential(c)
	if err != nil {
		return err
	}
	grouped, err := queryBool(c, "groupByPolicy")
	if err != nil {
		return err
	}
	v, err := db.BalanceByCredential(c.Request.Context(), cred)
	if err != nil {
		return err
	}
	ok(c, valueOf(v, grouped))
	return nil
}
