package funding

import (
	"context"
	"encoding/json"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Create creates a funding schedule (spec doc 2 §4.7): amount > 0,
// a cadence, enabled (default true) and next_run (Unix seconds, default
// now: the next sweep runs it). Its runs are counted from next_run.
func (ss *Schedules) Create(ctx context.Context, in *models.CreateFundingScheduleInput) (*models.FundingSchedule, error) {
	spec := op.Spec{Name: "payout_funding_schedule.create", Allow: secretOnly, Params: in, Provider: payoutProvider, Check: in.Validate}
	return op.Write(ctx, ss.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.FundingSchedule, error) {
		now := w.Now()
		next := now
		if in.NextRun != nil {
			next = time.Unix(*in.NextRun, 0).UTC()
		}
		sc := &models.FundingSchedule{ID: ids.New(now), Amount: *in.Amount, Currency: "USD", Cadence: *in.Cadence,
			Enabled: in.Enabled == nil || *in.Enabled, NextRun: models.At(next), Anchor: next,
			Created: models.At(now), Updated: models.At(now)}
		if _, err := w.Tx.Insert(sc).Exec(ctx); err != nil {
			return nil, err
		}
		if err := w.EmitObject(EventScheduleCreated, sc.ID, sc); err != nil {
			return nil, err
		}
		return sc, nil
	})
}

// Update changes a schedule: the members sent replace the stored
// ones. A new next_run restarts the cadence from it; a new cadence alone
// counts from the pending next_run. Disabling stops the sweep from running
// it; re-enabling makes it due again at its next_run (one funding even
// when that is long past). An update that changes nothing writes nothing
// and announces nothing.
func (ss *Schedules) Update(ctx context.Context, id string, in *models.UpdateFundingScheduleInput) (*models.FundingSchedule, error) {
	spec := op.Spec{Name: "payout_funding_schedule.update", Allow: secretOnly, Params: map[string]any{"id": id, "input": in}, Check: in.Validate}
	return op.Write(ctx, ss.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.FundingSchedule, error) {
		sc, err := scheduleTable.Lock(ctx, w, id, op.LockUpdate)
		if err != nil {
			return nil, err
		}
		before, err := events.Render(sc)
		if err != nil {
			return nil, err
		}
		if in.Amount != nil {
			sc.Amount = *in.Amount
		}
		if in.Enabled != nil {
			sc.Enabled = *in.Enabled
		}
		if in.Cadence != nil && *in.Cadence != sc.Cadence {
			sc.Cadence, sc.Anchor = *in.Cadence, sc.NextRun.Time
		}
		if in.NextRun != nil {
			next := time.Unix(*in.NextRun, 0).UTC()
			sc.NextRun, sc.Anchor = models.At(next), next
		}
		after, prev, err := events.RenderChange(before, sc)
		if err != nil || prev == nil {
			return sc, err
		}
		sc.Updated = models.At(w.Now())
		if _, err := w.Tx.Update(sc).Column("amount", "cadence", "enabled", "next_run", "anchor", "updated").
			WherePK().Exec(ctx); err != nil {
			return nil, err
		}
		if after, err = events.Render(sc); err != nil {
			return nil, err
		}
		w.Emit(EventScheduleUpdated, sc.ID, json.RawMessage(after), prev)
		return sc, nil
	})
}
