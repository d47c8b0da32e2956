package auth

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Invalidate makes every instance reload the given credentials (by key
// hash) on their next request: locally at once, elsewhere through a new
// version token. Callers call it after the change commits, so a reload
// cannot read the old state under the new token. A failed announcement is
// retried in the background; until it lands, other instances see the
// change within CacheTTL at worst (FallbackTTL if Redis is down for them
// too).
func (a *Authenticator) Invalidate(ctx context.Context, hashes ...[]byte) {
	var hs [][32]byte
	for _, b := range hashes {
		var h [32]byte
		if copy(h[:], b) != len(h) {
			continue
		}
		a.creds.drop(h)
		hs = append(hs, h)
	}
	if len(hs) == 0 || a.fast == nil {
		return
	}
	if err := a.announce(context.WithoutCancel(ctx), hs); err != nil {
		a.log.Warn("credential invalidation not announced; will retry", slog.String("error", err.Error()))
		a.retry.later(hs)
	}
}

// versionKey is the Redis key announcing changes to the credential with
// key hash h ("" without Redis).
func (a *Authenticator) versionKey(h [32]byte) string {
	if a.fast == nil {
		return ""
	}
	return a.fast.Key("authv", hex.EncodeToString(h[:16]))
}

// readVersion reads h's version token ("" when none); ok is false when
// Redis could not be read.
func (a *Authenticator) readVersion(ctx context.Context, h [32]byte) (string, bool) {
	key := a.versionKey(h)
	if key == "" {
		return "", false
	}
	var v string
	err := a.fast.Do(ctx, func(ctx context.Context, rdb redis.UniversalClient) error {
		var err error
		v, err = rdb.Get(ctx, key).Result()
		return err
	})
	switch {
	case err == nil:
		return v, true
	case errors.Is(err, redis.Nil):
		return "", true
	}
	return "", false
}

// announce writes a fresh token under each hash's version key. The keys
// outlive CacheTTL, after which every entry reloads anyway.
func (a *Authenticator) announce(ctx context.Context, hs [][32]byte) error {
	return a.fast.DoNow(ctx, func(ctx context.Context, rdb redis.UniversalClient) error {
		pl := rdb.Pipeline()
		for _, h := range hs {
			b := make([]byte, 8)
			_, _ = rand.Read(b)
			pl.Set(ctx, a.versionKey(h), hex.EncodeToString(b), 2*a.opts.CacheTTL)
		}
		_, err := pl.Exec(ctx)
		return err
	})
}

// retryQueue holds invalidations whose announcement failed, retried by
// the background loop.
type retryQueue struct {
	mu     sync.Mutex
	hashes [][32]byte
}

func (q *retryQueue) later(hs [][32]byte) {
	q.mu.Lock()
	q.hashes = append(q.hashes, hs...)
	q.mu.Unlock()
}

func (q *retryQueue) take() (hs [][32]byte) {
	q.mu.Lock()
	defer q.mu.Unlock()
	hs, q.hashes = q.hashes, nil
	return hs
}

func (a *Authenticator) retryLoop() {
	defer close(a.done)
	t := time.NewTicker(a.opts.RetryInterval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			a.retryAnnouncements()
		case <-a.stop:
			a.retryAnnouncements()
			return
		}
	}
}

// retryAnnouncements announces the invalidations that failed before.
func (a *Authenticator) retryAnnouncements() {
	hs := a.retry.take()
	if len(hs) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.announce(ctx, hs); err != nil {
		a.retry.later(hs)
		a.log.Warn("credential invalidation retry failed", slog.String("error", err.Error()))
	}
}
