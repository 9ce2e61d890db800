package testclocks

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// TestClocks is the family of sandbox test clocks (API-DECISIONS §7):
// reads from the kit, Create and Delete (test_clock_write.go), Advance
// (test_clock_advance.go). Every operation is the secret key's, in sandbox
// mode only: a production key is 403 (a clock there would move real
// money's time).
type TestClocks struct {
	op.Reader[models.TestClock, op.NoFilter]
	svc *Service
}

// testClockTable reads the clocks not deleted: a deleted clock is kept
// (test_clock_delete.go) but no longer seen, advanced or bound to.
var testClockTable = &op.Table[models.TestClock]{Resource: "test_clock", Referenced: true,
	Where:  func(q *bun.SelectQuery) *bun.SelectQuery { return q.Where("tc.deleted IS NULL") },
	Derive: func(c *models.TestClock, _ time.Time) { c.Derive() }}

func newTestClocks(s *Service) *TestClocks {
	return &TestClocks{Reader: op.Read[models.TestClock, op.NoFilter](s.Kit, testClockTable), svc: s}
}

// Get returns one clock (403 with a production key).
func (tc *TestClocks) Get(ctx context.Context, id string) (*models.TestClock, error) {
	if err := sandboxOnly(ctx); err != nil {
		return nil, err
	}
	return tc.Reader.Get(ctx, id)
}

// List lists the clocks, newest first (403 with a production key).
func (tc *TestClocks) List(ctx context.Context, f op.NoFilter, lp op.ListParams) (op.Page[*models.TestClock], error) {
	if err := sandboxOnly(ctx); err != nil {
		return op.Page[*models.TestClock]{}, err
	}
	return tc.Reader.List(ctx, f, lp)
}

// errSandboxOnly refuses a test helper to a production key.
var errSandboxOnly = apierr.Forbidden("Test clocks are available with sandbox keys only")

// sandboxOnly authorizes a test clock operation: the secret key (403 for
// another kind, as every operation of the area), of sandbox mode (403 for
// a production key, before anything is read).
func sandboxOnly(ctx context.Context) error {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return err
	}
	if p.Scope.Livemode {
		return errSandboxOnly
	}
	return nil
}
