// Package due holds what every billing family that causes effects with
// time shares: the Due effect and the DueSource that answers and applies
// it. The families register their sources on the test clocks' runner,
// which applies them, on a test clock or the server's.
package due

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

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

// DueSource is one kind of effect. Sources are registered
// on the test clocks' runner (testclocks.Service.AddDueSource) by the
// family that owns the object.
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

// Querier is a DueSource whose earliest effect is one SELECT of (at,
// kind, id) ending in LIMIT 1: the test clocks' runner asks all such
// sources in one statement.
type Querier interface {
	DueQuery(tx *store.Tenant, clock uuid.UUID, upTo time.Time) *bun.SelectQuery
}

// Scan reads the effect q selects as (at, kind, id); nil when none.
func Scan(ctx context.Context, q *bun.SelectQuery) (*Due, error) {
	var rows []dueRow
	if err := q.Scan(ctx, &rows); err != nil || len(rows) == 0 {
		return nil, err
	}
	return rows[0].due(), nil
}

// ScanAll reads the effects q selects as (at, kind, id), in its order.
func ScanAll(ctx context.Context, q *bun.SelectQuery) ([]Due, error) {
	var rows []dueRow
	if err := q.Scan(ctx, &rows); err != nil {
		return nil, err
	}
	dues := make([]Due, len(rows))
	for i, r := range rows {
		dues[i] = *r.due()
	}
	return dues, nil
}

// dueRow is an effect as a source's query selects it.
type dueRow struct {
	At   time.Time `bun:"at"`
	Kind string    `bun:"kind"`
	ID   uuid.UUID `bun:"id"`
}

func (r dueRow) due() *Due { return &Due{At: r.At.UTC(), Kind: r.Kind, ID: r.ID} }

// Runner is a DueSource that can apply several of its effects together,
// in fewer statements than one by one: a run of them that come one after
// the other in time order, nothing of another source's (or of the run's
// own objects, rolled onward) between them.
type Runner interface {
	DueSource
	// ApplyRun applies the longest prefix of run it can apply together,
	// exactly as Apply would one after the other: the same rows and the
	// same events, each emitted in the write at(d) answers for the effect
	// d (called once per effect applied, in run's order, before it emits
	// anything of d). It answers how many it applied; 0 leaves run[0] to
	// Apply. run is in time order (Before) and holds no effect of another
	// source's between its first and its last.
	ApplyRun(ctx context.Context, w *op.W, run []Due, at func(Due) (*op.W, error)) (int, error)
}
