package handlers

import "github.com/gin-gonic/gin"

// Chain data I endpoints (UTxOs, balances, history, tx details).

func (s *Server) utxosByAddress(c *gin.Context) error   { return errNotImplemented }
func (s *Server) utxosByStake(c *gin.Context) error     { return errNotImplemented }
func (s *Server) balanceByAddress(c *gin.Context) error { return errNotImplemented }
func (s *Server) balanceByStake(c *gin.Context) error   { return errNotImplemented }
func (s *Server) txsByAddress(c *gin.Context) error     { return errNotImplemented }
func (s *Server) txHistory(c *gin.Context) error        { return errNotImplemented }
func (s *Server) txByHash(c *gin.Context) error         { return errNotImplemented }
