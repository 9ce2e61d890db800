package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"strings"
)

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// secretLength is the number of random base62 characters in a credential:
// 40 characters carry about 238 bits.
const secretLength = 40

// Prefixes of the credential kinds.
const (
	OnboardingSecretPrefix = "onb_sess_"
	CheckoutSecretPrefix   = "chk_sess_"
	// ChargeIntentSecretPrefix starts a charge intent's client secret,
	// ci_<intent id>_secret_<random>.
	ChargeIntentSecretPrefix = "ci_"
)

// Base62Of writes the first n bytes of b (len(b) >= n) as base62
// characters, one each: a derived secret's text. Each byte is taken
// modulo 62, a slight bias: 40 characters so made still hold about 236 of
// the 238 bits a uniform string of 40 holds.
func Base62Of(b []byte, n int) string {
	out := make([]byte, n)
	for i := range out {
		out[i] = base62[int(b[i])%len(base62)]
	}
	return string(out)
}

// RandomString returns n random base62 characters from crypto/rand, each
// uniform: a random byte below 248 (the largest multiple of 62 a byte
// holds) chooses the character, and a byte above it is drawn again. The
// bytes are read a buffer at a time: every request's id is one of these,
// and drawing each character through math/big cost two allocations and a
// read of its own.
func RandomString(n int) string {
	const limit = 256 - 256%len(base62)
	var b strings.Builder
	b.Grow(n)
	var random [64]byte
	unused := random[:0]
	for b.Len() < n {
		if len(unused) == 0 {
			if _, err := rand.Read(random[:]); err != nil {
				panic("auth: crypto/rand failed: " + err.Error())
			}
			unused = random[:]
		}
		if c := int(unused[0]); c < limit {
			b.WriteByte(base62[c%len(base62)])
		}
		unused = unused[1:]
	}
	return b.String()
}

// NewAPIKey returns a fresh key of kind (secret or publishable) for a mode,
// e.g. sk_sandbox_<40 base62>.
func NewAPIKey(kind Kind, livemode bool) string {
	p := "sk_"
	if kind == PublishableKey {
		p = "pk_"
	}
	return p + ModeName(livemode) + "_" + RandomString(secretLength)
}

// NewSessionSecret returns a fresh session client secret with prefix.
func NewSessionSecret(prefix string) string { return prefix + RandomString(secretLength) }

// Hash is what is stored of a credential: its SHA-256. The credentials are
// long random strings, so a fast hash is enough (no password stretching).
func Hash(credential string) []byte {
	h := sha256.Sum256([]byte(credential))
	return h[:]
}

// DisplayPrefix is the part of a credential kept for display.
func DisplayPrefix(credential string) string {
	i := strings.LastIndexByte(credential, '_')
	if i < 0 || len(credential) < i+5 {
		return credential
	}
	return credential[:i+5]
}

// parseKey splits an API key into kind and mode; ok is false when the text
// is not shaped like one of our API keys.
func parseKey(credential string) (kind Kind, livemode bool, ok bool) {
	switch {
	case strings.HasPrefix(credential, "sk_"):
		kind = SecretKey
	case strings.HasPrefix(credential, "pk_"):
		kind = PublishableKey
	default:
		return "", false, false
	}
	switch rest := credential[3:]; {
	case strings.HasPrefix(rest, "sandbox_"):
		return kind, false, true
	case strings.HasPrefix(rest, "production_"):
		return kind, true, true
	}
	return "", false, false
}
