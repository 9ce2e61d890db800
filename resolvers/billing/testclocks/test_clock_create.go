package testclocks

import (
	"context"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Create creates a sandbox clock frozen at frozen_time (any instant, past
// or future: it is the time of what is bound to it, not the server's).
func (tc *TestClocks) Create(ctx context.Context, in *models.CreateTestClockInput) (*models.TestClock, error) {
	if err := sandboxOnly(ctx); err != nil {
		return nil, err
	}
	spec := op.Spec{Name: "test_clock.create", Allow: secretOnly, Params: in, Check: in.Validate}
	return op.Write(ctx, tc.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.TestClock, error) {
		now := w.Now()
		clock := &models.TestClock{ID: ids.New(now), Name: in.Name, AdvancedTo: models.At(time.Unix(*in.FrozenTime, 0).UTC()),
			Status: models.TestClockReady, Created: models.At(now), Updated: models.At(now)}
		if _, err := w.Tx.Insert(clock).Exec(ctx); err != nil {
			return nil, err
		}
		clock.Derive()
		return clock, nil
	})
}
