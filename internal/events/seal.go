package events

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
)

// SecretPrefix starts every signing secret shown to a user (the Standard
// Webhooks form: "whsec_" and the base64 of the key bytes).
const SecretPrefix = "whsec_"

// secretBytes is the length of a signing key.
const secretBytes = 32

// Sealer seals signing secrets at rest with the server key
// (WEBHOOK_SECRET_KEY): AES-256-GCM, the nonce stored before the
// ciphertext.
type Sealer struct{ aead cipher.AEAD }

// NewSealer returns a Sealer for a 32-byte key.
func NewSealer(key []byte) (*Sealer, error) {
	if len(key) != 32 {
		return nil, errors.New("events: the secret key must be 32 bytes")
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Sealer{aead: aead}, nil
}

// Seal encrypts a signing key.
func (s *Sealer) Seal(secret []byte) ([]byte, error) {
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(secret)+s.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return s.aead.Seal(nonce, nonce, secret, nil), nil
}

// Open decrypts what Seal returned.
func (s *Sealer) Open(sealed []byte) ([]byte, error) {
	n := s.aead.NonceSize()
	if len(sealed) < n {
		return nil, errors.New("events: sealed secret too short")
	}
	return s.aead.Open(nil, sealed[:n], sealed[n:], nil)
}

// NewSecret returns a fresh signing key and its shown form ("whsec_…").
func NewSecret() (key []byte, shown string, err error) {
	key = make([]byte, secretBytes)
	if _, err := rand.Read(key); err != nil {
		return nil, "", err
	}
	return key, SecretPrefix + base64.StdEncoding.EncodeToString(key), nil
}
