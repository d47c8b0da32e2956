package handlers

import "github.com/gin-gonic/gin"

// Administration endpoints, built in the administration issue.

func (s *Server) createAdminKey(c *gin.Context) error   { return errNotImplemented }
func (s *Server) listAdminKeys(c *gin.Context) error    { return errNotImplemented }
func (s *Server) revokeAdminKey(c *gin.Context) error   { return errNotImplemented }
func (s *Server) createUser(c *gin.Context) error       { return errNotImplemented }
func (s *Server) listUsers(c *gin.Context) error        { return errNotImplemented }
func (s *Server) getUser(c *gin.Context) error          { return errNotImplemented }
func (s *Server) updateUser(c *gin.Context) error       { return errNotImplemented }
func (s *Server) suspendUser(c *gin.Context) error      { return errNotImplemented }
func (s *Server) reactivateUser(c *gin.Context) error   { return errNotImplemented }
func (s *Server) createCredential(c *gin.Context) error { return errNotImplemented }
func (s *Server) listCredentials(c *gin.Context) error  { return errNotImplemented }
func (s *Server) getCredential(c *gin.Context) error    { return errNotImplemented }
func (s *Server) updateCredential(c *gin.Context) error { return errNotImplemented }
func (s *Server) revokeCredential(c *gin.Context) error { return errNotImplemented }
func (s *Server) listAuditLogs(c *gin.Context) error    { return errNotImplemented }
