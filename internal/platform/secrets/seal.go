package secrets

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// sealPrefix marks a value sealed by Seal (and its format version).
const sealPrefix = "sealed1."

// ErrUnsealable is a sealed value this server secret cannot open: it was
// sealed under another secret (SERVER_SECRET changed) or altered.
var ErrUnsealable = errors.New("secrets: the value cannot be opened with this server secret")

// Seal encrypts a value the server must read back later (a webhook
// signing secret, which an HMAC needs whole, so it cannot be hashed), with
// AES-256-GCM under a key derived from the server secret for purpose. A
// reader of the database alone learns nothing of it when SERVER_SECRET is
// set (without it the key sits in the same database).
func (s *Source) Seal(ctx context.Context, purpose, plaintext string) (string, error) {
	aead, err := s.aead(ctx, purpose)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, aead.NonceSize())
	_, _ = rand.Read(nonce) // never fails (crypto/rand)
	sealed := aead.Seal(nonce, nonce, []byte(plaintext), []byte(purpose))
	return sealPrefix + base64.RawURLEncoding.EncodeToString(sealed), nil
}

// Open returns what Seal sealed for purpose, or ErrUnsealable.
func (s *Source) Open(ctx context.Context, purpose, sealed string) (string, error) {
	aead, err := s.aead(ctx, purpose)
	if err != nil {
		return "", err
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(sealed, sealPrefix))
	if err != nil || !strings.HasPrefix(sealed, sealPrefix) || len(raw) < aead.NonceSize() {
		return "", ErrUnsealable
	}
	plain, err := aead.Open(nil, raw[:aead.NonceSize()], raw[aead.NonceSize():], []byte(purpose))
	if err != nil {
		return "", ErrUnsealable
	}
	return string(plain), nil
}

// SealBytes seals a binary value for purpose, bound to context (a value
// sealed under one context does not open under another: a stored result
// cannot be moved to another row). The output is binary: sealPrefix, the
// nonce, then the ciphertext.
func (s *Source) SealBytes(ctx context.Context, purpose string, plaintext, context []byte) ([]byte, error) {
	aead, err := s.aead(ctx, purpose)
	if err != nil {
		return nil, err
	}
	out := make([]byte, len(sealPrefix)+aead.NonceSize(), len(sealPrefix)+aead.NonceSize()+len(plaintext)+aead.Overhead())
	copy(out, sealPrefix)
	nonce := out[len(sealPrefix):]
	_, _ = rand.Read(nonce) // never fails (crypto/rand)
	return aead.Seal(out, nonce, plaintext, append([]byte(purpose+"\x00"), context...)), nil
}

// IsSealedBytes says whether b was made by SealBytes.
func IsSealedBytes(b []byte) bool {
	return strings.HasPrefix(string(b[:min(len(b), len(sealPrefix))]), sealPrefix)
}

// OpenBytes returns what SealBytes sealed for purpose and context, or
// ErrUnsealable.
func (s *Source) OpenBytes(ctx context.Context, purpose string, sealed, context []byte) ([]byte, error) {
	aead, err := s.aead(ctx, purpose)
	if err != nil {
		return nil, err
	}
	if !IsSealedBytes(sealed) || len(sealed) < len(sealPrefix)+aead.NonceSize() {
		return nil, ErrUnsealable
	}
	raw := sealed[len(sealPrefix):]
	plain, err := aead.Open(nil, raw[:aead.NonceSize()], raw[aead.NonceSize():], append([]byte(purpose+"\x00"), context...))
	if err != nil {
		return nil, ErrUnsealable
	}
	return plain, nil
}

func (s *Source) aead(ctx context.Context, purpose string) (cipher.AEAD, error) {
	secret, err := s.Get(ctx)
	if err != nil {
		return nil, err
	}
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("seal:" + purpose))
	block, err := aes.NewCipher(m.Sum(nil))
	if err != nil {
		return nil, fmt.Errorf("secrets: %w", err)
	}
	return cipher.NewGCM(block)
}
