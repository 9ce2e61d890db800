package billing

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Due is one effect waiting for its time: a subscription's renewal at
// its period's end, a dunning retry, a scheduled resume, an invoice's
// overdue notice. Every effect that time alone causes is a Due, so the
// same code runs it whether the wall clock reached it (a periodic job) or
// a test clock's advance did (in time order, synchronously).
type Due struct {
	// At is the instant the effect falls due; it runs as a write at that
	// time (op.BackgroundAt), whenever it actually runs.
	At time.Time
	// Kind names the source ("renewal", "retry", ...); with ID it orders
	// effects due at the same instant, so every run applies them in the
	// same order.
	Kind string
	// ID is the object the effect acts on.
	ID uuid.UUID
}

// Before orders effects: by time, then kind, then object.
func (d Due) Before(o Due) bool {
	if !d.At.Equal(o.At) {
		return d.At.Before(o.At)
	}
	if d.Kind != o.Kind {
		return d.Kind < o.Kind
	}
	return d.ID.String() < o.ID.String()
}

// DueSource is one kind of effect. Sources are registered on the area
// (Service.AddDueSource) by the code that owns the object.
type DueSource interface {
	// Kind is the source's name, the Due's Kind.
	Kind() string
	// Next answers the earliest of the source's effects due at or before
	// upTo among the objects on clock (uuid.Nil: objects on no test
	// clock), in tx's merchant and mode; nil when none is.
	Next(ctx context.Context, tx *store.Tenant, clock uuid.UUID, upTo time.Time) (*Due, error)
	// Apply runs the effect in w, whose time is due.At. It locks its
	// object first and does nothing when the effect is no longer due, so
	// an effect applied twice (a job retried after a crash, a periodic
	// run racing an advance) has its effect once.
	Apply(ctx context.Context, w *op.W, due Due) error
}
