// Package secrets provides the server secret: the key of the HMACs the
// server stores instead of sensitive values (the fingerprints of request
// parameters). Every process serving one database must use the same one.
package secrets

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"sync"

	"github.com/frame-oss/payments-server/internal/platform/store"
)

// EnvVar names the environment variable that provides the secret. Without
// it the secret is generated once and kept in the database (server_secrets),
// which is simpler to run but lets a reader of the database recompute
// fingerprints; set it in production.
const EnvVar = "SERVER_SECRET"

const name = "fingerprint"

// Source hands out the server secret, loading it on first use.
type Source struct {
	db      *store.DB
	fromEnv string

	mu     sync.Mutex
	secret []byte
}

// NewSource returns the secret from fromEnv (SERVER_SECRET's value) when it
// is not empty, else from the database.
func NewSource(db *store.DB, fromEnv string) *Source {
	return &Source{db: db, fromEnv: fromEnv}
}

// Get returns the secret. A failure to load it is not remembered: the next
// call tries again.
func (s *Source) Get(ctx context.Context) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.secret != nil {
		return s.secret, nil
	}
	if s.fromEnv != "" {
		sum := sha256.Sum256([]byte(s.fromEnv))
		s.secret = sum[:]
		return s.secret, nil
	}
	secret, err := stored(ctx, s.db)
	if err != nil {
		return nil, err
	}
	s.secret = secret
	return secret, nil
}

// stored reads the database's secret, creating it when there is none yet;
// of two processes creating it at once, both end up with the winner's.
func stored(ctx context.Context, db *store.DB) ([]byte, error) {
	fresh := make([]byte, 32)
	if _, err := rand.Read(fresh); err != nil {
		return nil, err
	}
	var value []byte
	err := db.Bun.NewRaw(`WITH ins AS (
			INSERT INTO server_secrets (name, value, created) VALUES (?, ?, now())
			ON CONFLICT (name) DO NOTHING RETURNING value)
		SELECT value FROM ins UNION ALL SELECT value FROM server_secrets WHERE name = ? LIMIT 1`,
		name, fresh, name).Scan(ctx, &value)
	if err != nil {
		return nil, fmt.Errorf("secrets: load the server secret: %w", err)
	}
	return value, nil
}
