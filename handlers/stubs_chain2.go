package handlers

import "github.com/gin-gonic/gin"

// Chain data II endpoints (assets, pools).

func (s *Server) assetInfo(c *gin.Context) error      { return errNotImplemented }
func (s *Server) poolInfo(c *gin.Context) error       { return errNotImplemented }
func (s *Server) poolDelegators(c *gin.Context) error { return errNotImplemented }
