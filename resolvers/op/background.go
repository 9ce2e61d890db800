package op

import (
	"context"
	"errors"
	"time"

	"github.com/riverqueue/river"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

// Enqueue inserts a background job in the write's transaction: the job
// exists exactly when the write commits, with the rows it will act on.
func (w *W) Enqueue(ctx context.Context, args river.JobArgs) error {
	if w.jobs == nil {
		return errors.New("op: no job engine to enqueue " + args.Kind())
	}
	return w.jobs.Enqueue(ctx, w.Tx, args, nil)
}

// Background runs a change the service makes by itself (a job concluding
// a verification) for one merchant and mode, through the same steps as
// Write minus what belongs to a request: no credential to authorize and no
// Idempotency-Key (a job that runs again finds its work done). fn locks,
// reads the time once (W.Now, from the kit's clock), changes and emits; the
// events commit with the change.
func Background(ctx context.Context, k *Kit, scope store.Scope, fn func(ctx context.Context, w *W) error) error {
	if _, err := k.Secret.Get(ctx); err != nil { // before the transaction, as in Write
		return err
	}
	return k.DB.Tx(ctx, scope, func(ctx context.Context, tx *store.Tenant) error {
		w := newW(k, tx, auth.ServicePrincipal(scope))
		if err := fn(ctx, w); err != nil {
			return err
		}
		return events.Insert(ctx, tx, w.Emitted())
	})
}

// BackgroundAt is Background at a given time: the write's time is at, not
// the kit's clock. A due effect (a renewal, a retry, an overdue notice)
// runs at the instant it fell due, on the wall clock or on a test clock,
// so what it stamps and emits does not depend on when the job got to it.
func BackgroundAt(ctx context.Context, k *Kit, scope store.Scope, at time.Time, fn func(ctx context.Context, w *W) error) error {
	return Background(ctx, k, scope, func(ctx context.Context, w *W) error {
		w.now = at
		return fn(ctx, w)
	})
}
