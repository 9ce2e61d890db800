package op

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
)

// AtTestClock binds the object a create makes (an account, a customer) to
// the test clock its param names, and makes the clock's frozen_time the
// write's time (API-DECISIONS §7): the object is created, and everything
// about it happens, at the clock's time. id nil: no clock, the write keeps
// the server's time and the answer is nil. A clock that is not one of the
// caller's merchant and mode (production has none) is 422 on param. Call
// it before the write's first Now.
func (w *W) AtTestClock(ctx context.Context, param string, id *string) (*uuid.UUID, error) {
	if id == nil {
		return nil, nil
	}
	clock, ok := ids.Parse(*id)
	var rows []models.TestClock
	if ok {
		if err := w.Tx.Select(&rows).Column("tc.frozen_time").Where("tc.id = ?", clock).Where("tc.deleted IS NULL").Scan(ctx); err != nil {
			return nil, err
		}
	}
	if len(rows) == 0 {
		return nil, apierr.FieldError(param, "is not a test clock of this merchant and mode")
	}
	return &clock, w.AtClockTime(rows[0].FrozenTime.Time)
}
