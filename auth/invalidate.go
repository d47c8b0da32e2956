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
// hash): locally at once, elsewhere through NOTIFY on the admin database
// (listening instances drop them within milliseconds) and a new Redis
// version token (the next request reloads). Callers call it after the
// change commits, so a reload cannot read the old state. A failed
// announcement is retried in the background; an instance that hears
// neither sees the change within FallbackTTL (CacheTTL while Redis
// vouches for its entry).
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
	if len(hs) == 0 {
		return
	}
	ctx = context.WithoutCancel(ctx)
	if a.db != nil {
		if err := a.notifyHashes(ctx, hs); err != nil {
			a.log.Warn("credential invalidation not notified through PostgreSQL; will retry", slog.String("error", err.Error()))
			a.retry.later(&a.retry.notify, hs)
		}
	}
	if a.fast != nil {
		if err := a.announce(ctx, hs); err != nil {
			a.log.Warn("credential invalidation not announced in Redis; will retry", slog.String("error", err.Error()))
			a.retry.later(&a.retry.announce, hs)
		}
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
			pl.Set(ctx, a.versionKey(h), randomHex(8), 2*a.opts.CacheTTL)
		}
		_, err := pl.Exec(ctx)
		return err
	})
}

// retryQueue holds invalidations whose announcement failed, per channel,
// retried by the background loop.
type retryQueue struct {
	mu       sync.Mutex
	announce [][32]byte // Redis version tokens
	notify   [][32]byte // PostgreSQL NOTIFY
}

func (q *retryQueue) later(list *[][32]byte, hs [][32]byte) {
	q.mu.Lock()
	*list = append(*list, hs...)
	q.mu.Unlock()
}

func (q *retryQueue) take(list *[][32]byte) (hs [][32]byte) {
	q.mu.Lock()
	defer q.mu.Unlock()
	hs, *list = *list, nil
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

// retryAnnouncements sends again the invalidations that failed before.
func (a *Authenticator) retryAnnouncements() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if hs := a.retry.take(&a.retry.notify); len(hs) > 0 {
		if err := a.notifyHashes(ctx, hs); err != nil {
			a.retry.later(&a.retry.notify, hs)
			a.log.Warn("credential invalidation retry (PostgreSQL) failed", slog.String("error", err.Error()))
		}
	}
	if hs := a.retry.take(&a.retry.announce); len(hs) > 0 {
		if err := a.announce(ctx, hs); err != nil {
			a.retry.later(&a.retry.announce, hs)
			a.log.Warn("credential invalidation retry (Redis) failed", slog.String("error", err.Error()))
		}
	}
}

// randomHex returns n random bytes in hex.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
