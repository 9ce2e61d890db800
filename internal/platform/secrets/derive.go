package secrets

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/sha512"
)

// Derive returns 64 bytes only a holder of the server secret can compute
// from data, for purpose: HMAC-SHA512 under a key derived from the server
// secret. A value made this way (a charge intent's client secret, from its
// record's id) can be made again when it must be shown again, while the
// database keeps only its hash.
func (s *Source) Derive(ctx context.Context, purpose string, data []byte) ([]byte, error) {
	secret, err := s.Get(ctx)
	if err != nil {
		return nil, err
	}
	k := hmac.New(sha256.New, secret)
	k.Write([]byte("derive:" + purpose))
	m := hmac.New(sha512.New, k.Sum(nil))
	m.Write(data)
	return m.Sum(nil), nil
}
