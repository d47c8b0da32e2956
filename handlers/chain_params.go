package handlers

import (
	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/dbsync"
)

// chainAddress resolves the caller's network and parses the :address path
// parameter for it (the other network's prefix is a bad address).
func (s *Server) chainAddress(c *gin.Context) (*dbsync.DB, dbsync.Address, error) {
	db, err := s.chainDB(c)
	if err != nil {
		return nil, dbsync.Address{}, err
	}
	addr, err := dbsync.ParseAddress(c.Param("address"), db.Network.Mainnet)
	if err != nil {
		return nil, dbsync.Address{}, errInvalidAddress
	}
	return db, addr, nil
}

// chainStakeKey resolves the caller's network and parses :stakeKey for it.
func (s *Server) chainStakeKey(c *gin.Context) (*dbsync.DB, dbsync.StakeKey, error) {
	db, err := s.chainDB(c)
	if err != nil {
		return nil, dbsync.StakeKey{}, err
	}
	key, err := dbsync.ParseStakeKey(c.Param("stakeKey"), db.Network.Mainnet)
	if err != nil {
		return nil, dbsync.StakeKey{}, errInvalidStakeKey
	}
	return db, key, nil
}

// chainCredential resolves the caller's network and parses :credential
// (a credential carries no network, so any well-formed one is accepted).
func (s *Server) chainCredential(c *gin.Context) (*dbsync.DB, dbsync.PaymentCredential, error) {
	db, err := s.chainDB(c)
	if err != nil {
		return nil, dbsync.PaymentCredential{}, err
	}
	cred, err := dbsync.ParsePaymentCredential(c.Param("credential"))
	if err != nil {
		return nil, dbsync.PaymentCredential{}, errInvalidCred
	}
	return db, cred, nil
}
