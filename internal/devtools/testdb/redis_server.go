//go:build linux

package testdb

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// RedisServer is a redis-server of the test's own on a free loopback port,
// for tests that kill Redis (the shared one must stay up for everyone).
type RedisServer struct {
	t    testing.TB
	port int
	args []string // added to redis-server's command line

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{}
}

// NewRedisServer starts redis-server (no persistence); it is killed when
// the test ends. Skips under -short; otherwise a missing redis-server
// fails the test.
func NewRedisServer(t testing.TB) *RedisServer {
	t.Helper()
	SkipShort(t)
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	r := &RedisServer{t: t, port: port}
	t.Cleanup(r.Kill)
	if err := r.Start(); err != nil {
		t.Fatalf("testdb redis-server: %v", err)
	}
	return r
}

// Start starts the server (again, after Kill) on the same port and returns
// once it answers PING.
func (r *RedisServer) Start() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cmd != nil {
		return fmt.Errorf("redis-server already running")
	}
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return fmt.Errorf("redis-server not found: %w", err)
	}
	args := append([]string{"--port", strconv.Itoa(r.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"}, r.args...)
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	r.cmd, r.exited = cmd, exited
	c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + strconv.Itoa(r.port)})
	defer c.Close()
	for deadline := time.Now().Add(10 * time.Second); ; {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		err := c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("redis-server did not start: %w", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Kill ends the server with SIGKILL (a crash, not a shutdown).
func (r *RedisServer) Kill() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cmd == nil {
		return
	}
	_ = r.cmd.Process.Kill()
	<-r.exited
	r.cmd = nil
}

// URL is the server's redis:// URL.
func (r *RedisServer) URL() string { return "redis://127.0.0.1:" + strconv.Itoa(r.port) + "/0" }
