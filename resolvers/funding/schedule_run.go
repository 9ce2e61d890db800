package funding

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/domain/funding"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Run runs one schedule if it is due, in one transaction of its
// merchant and mode: under the schedule's row lock, an enabled schedule
// whose next_run has come funds once (a funding entry of source
// schedule for the run at next_run, its journal and its event), sets
// last_run to now and moves next_run to its first run after now (missed
// runs are not made up). Anything else (disabled, not yet due, already
// run by a concurrent sweep that held the lock first) is left alone and
// answers false. The unique index on (schedule, run) is the database's
// own guarantee that a run funds once.
func (ss *Schedules) Run(ctx context.Context, scope store.Scope, id uuid.UUID) (bool, error) {
	ran := false
	s := ss.svc
	err := op.Background(ctx, s.Kit, scope, func(ctx context.Context, w *op.W) error {
		sc, err := scheduleTable.Lock(ctx, w, id.String(), op.LockUpdate)
		if apierr.As(err) != nil {
			return nil // gone (its transaction never committed it)
		}
		if err != nil {
			return err
		}
		now := w.Now()
		if !sc.Enabled || sc.NextRun.After(now) {
			return nil
		}
		e := &models.FundingEntry{ID: ids.New(now), ScheduleID: &sc.ID, RunAt: sc.NextRun, Amount: sc.Amount,
			Currency: sc.Currency, Source: models.FundingSourceSchedule, Created: models.At(now)}
		res, err := w.Tx.Insert(e).On("CONFLICT (merchant_id, schedule_id, run_at) WHERE schedule_id IS NOT NULL DO NOTHING").Exec(ctx)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 1 {
			if err := s.fund(ctx, w, e); err != nil {
				return err
			}
			ran, sc.LastRun = true, models.At(now)
		}
		sc.Updated = models.At(now)
		sc.NextRun = models.At(funding.NextAfter(sc.Anchor, funding.Cadence(sc.Cadence), now))
		_, err = w.Tx.Update(sc).Column("last_run", "next_run", "updated").WherePK().Exec(ctx)
		return err
	})
	return ran, err
}
