package auth

import (
	"context"
	"crypto/sha256"
)

// Test hooks into the cache (auth_test cannot reach unexported fields, and
// it must be an external package to import admin for its fixtures).

// SetAfterLoad runs f between each credential load and its installation.
func (a *Authenticator) SetAfterLoad(f func()) { a.afterLoad = f }

// SetMaxMissing lowers the bound of the negative cache.
func (a *Authenticator) SetMaxMissing(n int) {
	a.creds.mu.Lock()
	a.creds.maxMissing = n
	a.creds.mu.Unlock()
}

// CacheSizes returns how many known and unknown keys are cached.
func (a *Authenticator) CacheSizes() (entries, missing int) {
	a.creds.mu.RLock()
	defer a.creds.mu.RUnlock()
	return len(a.creds.entries), len(a.creds.missing)
}

// ReadVersion reads the Redis version token of apiKey.
func (a *Authenticator) ReadVersion(ctx context.Context, apiKey string) (string, bool) {
	return a.readVersion(ctx, sha256.Sum256([]byte(apiKey)))
}

// Cached reports whether apiKey has an entry.
func (a *Authenticator) Cached(apiKey string) bool {
	return a.creds.get(sha256.Sum256([]byte(apiKey))) != nil
}
