package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
)

// Key formats (DECISIONS.md): a 5-character prefix, then 48 lowercase hex
// characters from crypto/rand (192 bits); 53 characters in all. Data API
// keys (credentials) and admin keys differ only by prefix.
const (
	CredentialKeyPrefix = "sgk1_"
	AdminKeyPrefix      = "sga1_"
	keyLen              = 53
	// displayPrefixLen is the length of api_key_prefix, the part of a key
	// that may be shown and logged.
	displayPrefixLen = 12
)

// NewKey returns a fresh key with the given service prefix, its SHA-256
// (the only form in which a key is stored) and its displayable prefix.
func NewKey(prefix string) (key string, hash [32]byte, display string) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		panic("auth: crypto/rand failed: " + err.Error()) // never happens on supported platforms
	}
	key = prefix + hex.EncodeToString(b)
	return key, sha256.Sum256([]byte(key)), key[:displayPrefixLen]
}

// WellFormed reports whether key has the shape of a key with prefix, so
// garbage is refused without touching a database or cache.
func WellFormed(key, prefix string) bool {
	if len(key) != keyLen || key[:len(prefix)] != prefix {
		return false
	}
	for _, c := range key[len(prefix):] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
