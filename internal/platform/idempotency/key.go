// Package idempotency carries an Idempotency-Key from the transport to the
// write path and stores committed results (API-DECISIONS §3). The write path
// (resolvers/op) claims the key, looks the result up and records it inside
// the operation's own transaction, so a result exists exactly when its
// change committed: a crash leaves no key stuck, and a retry either replays
// the committed result or runs anew.
package idempotency

import (
	"context"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// Header is the request header that carries the key, for REST and GraphQL
// alike.
const Header = "Idempotency-Key"

// ReplayHeader marks a replayed response.
const ReplayHeader = "Idempotent-Replayed"

// TTL is how long a committed result is replayed.
const TTL = 24 * time.Hour

// MaxKeyLength is the longest key accepted.
const MaxKeyLength = 255

// Validate refuses a key that cannot be stored or compared reliably: too
// long, or with characters outside printable ASCII (control characters and
// non-ASCII text differ between clients' encodings).
func Validate(key string) error {
	if len(key) > MaxKeyLength {
		return apierr.BadRequest(apierr.CodeIdempotencyError, "Idempotency-Key must be at most 255 characters", Header)
	}
	for i := 0; i < len(key); i++ {
		if c := key[i]; c < 0x20 || c > 0x7e {
			return apierr.BadRequest(apierr.CodeIdempotencyError,
				"Idempotency-Key must be printable ASCII characters", Header)
		}
	}
	return nil
}

// Request is one request's key and what became of it.
type Request struct {
	Key string
	// Replayed is set by the write path when it answered with a stored
	// result instead of running the operation.
	Replayed bool
}

type ctxKey struct{}

// With attaches a key to ctx for the write it leads to. The returned
// Request reports afterwards whether the result was replayed.
func With(ctx context.Context, key string) (context.Context, *Request) {
	r := &Request{Key: key}
	return context.WithValue(ctx, ctxKey{}, r), r
}

// From returns the request's key, or nil when none was sent.
func From(ctx context.Context) *Request {
	r, _ := ctx.Value(ctxKey{}).(*Request)
	if r == nil || r.Key == "" {
		return nil
	}
	return r
}
