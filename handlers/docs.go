package handlers

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/handlers/openapi"
)

// openAPIDocument serves the OpenAPI document as is (no envelope: it is a
// document for tools, not an API answer), with no authentication.
func openAPIDocument(c *gin.Context) {
	c.Header("Cache-Control", "public, max-age=300")
	c.Data(http.StatusOK, "application/json", openapi.Document)
}

// apiDocs serves the document rendered as one self-contained HTML page.
func apiDocs(c *gin.Context) error {
	page, err := openapi.HTML()
	if err != nil {
		return err
	}
	c.Header("Cache-Control", "public, max-age=300")
	c.Data(http.StatusOK, "text/html; charset=utf-8", page)
	return nil
}
