package testdb

import (
	"io"
	"net"
	"sync"
	"testing"
)

// Proxy forwards a loopback port to a real service (the shared PostgreSQL
// or Redis), so a test can make that service unreachable for the clients
// it points at the proxy, and reachable again, without disturbing anyone
// else who uses the service: Cut refuses new connections and resets the
// open ones (as a crashed or stopped server looks), Restore listens again
// on the same port.
type Proxy struct {
	t      testing.TB
	target string
	addr   string

	mu    sync.Mutex
	ln    net.Listener
	conns map[net.Conn]struct{}
}

// NewProxy returns a Proxy to target (host:port), cut when the test ends.
// With open false it starts cut: a URL to it refuses connections.
func NewProxy(t testing.TB, target string, open bool) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{t: t, target: target, addr: ln.Addr().String(), conns: map[net.Conn]struct{}{}}
	if open {
		p.serve(ln)
	} else {
		ln.Close()
	}
	t.Cleanup(p.Cut)
	return p
}

// Addr is the proxy's host:port.
func (p *Proxy) Addr() string { return p.addr }

// Cut closes the port and every connection through it.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetLinger(0) // a reset, not a polite close
		}
		c.Close()
	}
	clear(p.conns)
}

// Restore listens on the port again.
func (p *Proxy) Restore() {
	p.t.Helper()
	p.mu.Lock()
	open := p.ln != nil
	p.mu.Unlock()
	if open {
		return
	}
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		p.t.Fatalf("testdb proxy: listen again on %s: %v", p.addr, err)
	}
	p.serve(ln)
}

func (p *Proxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return // cut
			}
			go p.forward(c)
		}
	}()
}

// forward copies between c and a fresh connection to the target until
// either side ends or the proxy is cut.
func (p *Proxy) forward(c net.Conn) {
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	if !p.track(c, up) {
		c.Close()
		up.Close()
		return
	}
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src) // an end or a reset on either side ends both
		done <- struct{}{}
	}
	go pipe(up, c)
	go pipe(c, up)
	<-done
	c.Close()
	up.Close()
	p.mu.Lock()
	delete(p.conns, c)
	delete(p.conns, up)
	p.mu.Unlock()
}

// track registers both ends, unless the proxy was cut meanwhile.
func (p *Proxy) track(c, up net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln == nil {
		return false
	}
	p.conns[c] = struct{}{}
	p.conns[up] = struct{}{}
	return true
}
