package handlers

import "github.com/gin-gonic/gin"

// Transaction submission, built in the submission issue.

func (s *Server) submitTx(c *gin.Context) error { return errNotImplemented }
