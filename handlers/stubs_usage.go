package handlers

import "github.com/gin-gonic/gin"

// Usage endpoints, built in the usage-statistics issue.

func (s *Server) listUsage(c *gin.Context) error         { return errNotImplemented }
func (s *Server) credentialUsage(c *gin.Context) error   { return errNotImplemented }
func (s *Server) userUsage(c *gin.Context) error         { return errNotImplemented }
func (s *Server) usersUsageSummary(c *gin.Context) error { return errNotImplemented }
