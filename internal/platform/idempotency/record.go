package idempotency

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"time"

	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// Record is a committed result stored under its key.
type Record struct {
	bun.BaseModel `bun:"table:idempotency_keys,alias:ik"`
	wire.Tenant

	// Credential is the credential kind, or kind:session for a session
	// secret: a key is only ever replayed to the kind of credential (and
	// the session) that used it.
	Credential  string    `bun:"credential,pk"`
	Key         string    `bun:"key,pk"`
	Operation   string    `bun:"operation"`
	Fingerprint []byte    `bun:"fingerprint"`
	Result      []byte    `bun:"result"`
	Created     time.Time `bun:"created"`
	Expires     time.Time `bun:"expires"`
}

// Fingerprint identifies what was asked: the operation and its parameters
// as parsed (canonical JSON), keyed with the server secret so that the
// stored value reveals nothing of parameters such as an SSN.
func Fingerprint(secret []byte, operation string, params []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(operation))
	m.Write([]byte{0})
	m.Write(params)
	return m.Sum(nil)
}

// Claim takes the key for this transaction. It answers false when another
// transaction holds it, i.e. a duplicate is executing right now. The lock is
// released when the transaction ends, with its result committed or not.
func Claim(ctx context.Context, tx *store.Tenant, credential, key string) (bool, error) {
	return tx.TryLock(ctx, "idempotency|"+credential+"|"+key)
}

// Lookup returns the unexpired committed result under the key, or nil.
// Call it after Claim, so that a result committed by a transaction that
// just released the key is seen.
func Lookup(ctx context.Context, tx *store.Tenant, credential, key string, now time.Time) (*Record, error) {
	rec := new(Record)
	err := tx.Select(rec).Where("ik.credential = ?", credential).Where("ik.key = ?", key).
		Where("ik.expires > ?", now).Scan(ctx)
	if store.IsNoRows(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return rec, nil
}

// Save records a committed result in the caller's transaction. An expired
// record under the same key is replaced.
func Save(ctx context.Context, tx *store.Tenant, rec *Record) error {
	_, err := tx.Insert(rec).
		On("CONFLICT (merchant_id, livemode, credential, key) DO UPDATE").
		Set("operation = EXCLUDED.operation, fingerprint = EXCLUDED.fingerprint, result = EXCLUDED.result").
		Set("created = EXCLUDED.created, expires = EXCLUDED.expires").
		Exec(ctx)
	return err
}
