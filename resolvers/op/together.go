package op

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/idempotency"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

// Admit is the part of Write before its transaction: it authorizes the
// credential kind and refuses what s declares it cannot serve (invalid
// input, a missing provider), and answers the caller. An operation that
// commits several requests together (Together) admits each request with
// it first, so each is refused exactly as Write would refuse it.
func Admit(ctx context.Context, s Spec) (*auth.Principal, error) {
	p, err := auth.Require(ctx, s.Allow...)
	if err != nil {
		return nil, err
	}
	return p, s.gate(p)
}

// Keyed reports whether the request carries an Idempotency-Key: its write
// must go through Write, which records its result under the key.
func Keyed(ctx context.Context) bool { return idempotency.From(ctx) != nil }

// Together runs fn, the effects of several admitted requests of p's
// merchant and mode that carry no Idempotency-Key, in one transaction
// with the events they emit: they commit together or not at all, and one
// commit serves them all. fn sees one W, whose time is read once for the
// whole group.
func Together(ctx context.Context, k *Kit, p *auth.Principal, fn func(ctx context.Context, w *W) error) error {
	return k.DB.Tx(ctx, p.Scope, func(ctx context.Context, tx *store.Tenant) error {
		w := newW(k, tx, p)
		if err := fn(ctx, w); err != nil {
			return err
		}
		return events.Insert(ctx, tx, w.Emitted())
	})
}
