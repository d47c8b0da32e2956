package handlers

import (
	"github.com/gin-gonic/gin"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/cardano"

	"github.com/syncgate/syncgate/dbsync"
)

// chainAddress resolves the caller's network and parses the :address path
// parameter for it (the other network's prefix is a bad address).
func (s *Server) chainAddress(c *gin.Context) (*dbsync.DB, cardano.Address, error) {
	db, err := s.chainDB(c)
	if err != nil {
		return nil, cardano.Address{}, err
	}
	addr, err := cardano.ParseAddress(c.Param("address"), db.Network.Mainnet)
	if err != nil {
		return nil, cardano.Address{}, httpx.ErrInvalidAddress
	}
	return db, addr, nil
}

// chainStakeKey resolves the caller's network and parses :stakeKey for it.
func (s *Server) chainStakeKey(c *gin.Context) (*dbsync.DB, cardano.StakeKey, error) {
	db, err := s.chainDB(c)
	if err != nil {
		return nil, cardano.StakeKey{}, err
	}
	key, err := cardano.ParseStakeKey(c.Param("stakeKey"), db.Network.Mainnet)
	if err != nil {
		return nil, cardano.StakeKey{}, httpx.ErrInvalidStakeKey
	}
	return db, key, nil
}

// chainCredential resolves the caller's network and parses :credential
// (a credential carries no network, so any well-formed one is accepted).
func (s *Server) chainCredential(c *gin.Context) (*dbsync.DB, cardano.PaymentCredential, error) {
	db, err := s.chainDB(c)
	if err != nil {
		return nil, cardano.PaymentCredential{}, err
	}
	cred, err := cardano.ParsePaymentCredential(c.Param("credential"))
	if err != nil {
		return nil, cardano.PaymentCredential{}, httpx.ErrInvalidCred
	}
	return db, cred, nil
}
