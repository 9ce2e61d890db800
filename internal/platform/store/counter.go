package store

import (
	"context"
	"sync/atomic"

	"github.com/uptrace/bun"
)

// The statement counter lets tests assert that the number of SQL statements a
// request runs is a constant of its shape (no N+1), and lets the request log
// report it.

type counterKey struct{}

// WithStatementCounter returns a context whose queries are counted in the
// returned counter.
func WithStatementCounter(ctx context.Context) (context.Context, *atomic.Int64) {
	c := new(atomic.Int64)
	return context.WithValue(ctx, counterKey{}, c), c
}

// StatementCount returns the counter attached to ctx, if any.
func StatementCount(ctx context.Context) *atomic.Int64 {
	c, _ := ctx.Value(counterKey{}).(*atomic.Int64)
	return c
}

type countingHook struct{}

func (countingHook) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	return ctx
}

func (countingHook) AfterQuery(ctx context.Context, ev *bun.QueryEvent) {
	if ev.Operation() == "BEGIN" || ev.Operation() == "COMMIT" || ev.Operation() == "ROLLBACK" {
		recordStatement(ctx, ev.Query, nil)
		return
	}
	countStatement(ctx, ev.Query)
}

// countStatement counts and records one statement sent with ctx, Bun's or
// one of the store's own (SelectModels).
func countStatement(ctx context.Context, query string) {
	recordStatement(ctx, query, nil)
	if c := StatementCount(ctx); c != nil {
		c.Add(1)
	}
}
