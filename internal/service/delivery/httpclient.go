package delivery

import (
	"net"
	"net/http"
	"time"
)

// Push limits (EVENTS-DESIGN: 2xx within 10 s is a success).
const (
	pushTimeout  = 10 * time.Second
	maxReadBytes = 64 << 10 // of a receiver's answer
)

// newHTTPClient returns the client that pushes: no proxy (a proxy would
// connect on our behalf, past the address check), no redirects followed,
// every connection's address checked unless allowPrivate, and as many
// kept-alive connections to one receiver as there are workers.
func newHTTPClient(allowPrivate bool, timeout time.Duration, workers int) *http.Client {
	d := &net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}
	if !allowPrivate {
		d.Control = refuseForbidden
	}
	t := &http.Transport{
		Proxy:                  nil,
		DialContext:            d.DialContext,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    5 * time.Second,
		MaxIdleConns:           512,
		MaxIdleConnsPerHost:    workers, // one receiver may take every worker's push
		IdleConnTimeout:        90 * time.Second,
		ExpectContinueTimeout:  time.Second,
		MaxResponseHeaderBytes: 16 << 10,
	}
	return &http.Client{
		Transport: t,
		Timeout:   timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}
