package handlers

import (
	"io/fs"
	"net/http"
	"path"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/console"
	"github.com/syncgate/syncgate/handlers/httpx"
)

// The partner console: static files embedded in the binary,
// served at /console under a strict Content-Security-Policy. It calls the
// admin API from the same origin with the key the user typed in.

// consoleCSP allows this origin's own files and API only: no inline script
// or style, no other origin, no framing, no plugins, no <base> tricks.
const consoleCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

var consoleFiles = console.Files()

var consoleTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".svg":  "image/svg+xml",
}

// consoleRoutes adds GET /console (the app) and /console/* (its files).
func (s *Server) consoleRoutes(r gin.IRoutes) {
	r.GET("/console", serveConsole)
	r.GET("/console/*file", serveConsole)
}

func serveConsole(c *gin.Context) {
	hd := c.Writer.Header()
	hd.Set("Content-Security-Policy", consoleCSP)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("X-Frame-Options", "DENY")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("Cross-Origin-Opener-Policy", "same-origin")
	hd.Set("Cross-Origin-Resource-Policy", "same-origin")
	hd.Set("Cache-Control", "no-cache")
	name := strings.TrimPrefix(path.Clean("/"+c.Param("file")), "/")
	if name == "" {
		name = "index.html"
	}
	typ, known := consoleTypes[path.Ext(name)]
	body, err := fs.ReadFile(consoleFiles, name)
	if !known || err != nil {
		httpx.Fail(c, httpx.ErrNotFoundRoute)
		return
	}
	c.Data(http.StatusOK, typ, body)
}
