package usage

import (
	"context"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// UsageThresholds is the family of auto-charge thresholds (docs/billing.md,
// "Auto-charge threshold"): Set and Remove a payer's, its Progress
// (usage_threshold_progress.go), and the charge an ingest makes when the
// payer's usage reaches it (usage_threshold_charge.go).
type UsageThresholds struct {
	svc *Service
}

func newUsageThresholds(s *Service) *UsageThresholds {
	t := &UsageThresholds{svc: s}
	s.MeteringEvents.afterIngest = t.afterIngest
	return t
}

// Set creates or replaces the payer's threshold and answers its progress.
// Setting a threshold the usage already reached charges nothing by
// itself: the next event reported does.
func (ts *UsageThresholds) Set(ctx context.Context, in *models.SetUsageThresholdInput) (*models.ThresholdProgress, error) {
	spec := op.Spec{Name: "usage_threshold.set", Allow: secretOnly, Params: in, Check: in.Validate}
	return op.Write(ctx, ts.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.ThresholdProgress, error) {
		payer, err := payerAtClock(ctx, w, in.Customer, in.Account)
		if err != nil {
			return nil, err
		}
		now := w.Now()
		t := &models.UsageThreshold{ID: ids.New(now), CustomerID: payer.CustomerID, AccountID: payer.AccountID,
			ThresholdAmountCents: *in.ThresholdAmountCents, BillingCycle: models.BillingCycleMonthly,
			Created: models.At(now), Updated: models.At(now)}
		if _, err := w.Tx.Insert(t).On("CONFLICT (merchant_id, livemode, ?) DO UPDATE", payerColumn(payer)).
			Set("threshold_amount_cents = EXCLUDED.threshold_amount_cents, billing_cycle = EXCLUDED.billing_cycle").
			Set("updated = EXCLUDED.updated").Exec(ctx); err != nil {
			return nil, err
		}
		return thresholdProgress(ctx, w.Tx.Scope().Livemode, w.Tx, payer, t, now)
	})
}

// Remove removes the payer's threshold (nothing is charged automatically
// any more) and answers its progress, with no threshold. Removing none is
// no error.
func (ts *UsageThresholds) Remove(ctx context.Context, in *models.UsagePayerInput) (*models.ThresholdProgress, error) {
	spec := op.Spec{Name: "usage_threshold.remove", Allow: secretOnly, Params: in, Check: in.Validate}
	return op.Write(ctx, ts.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.ThresholdProgress, error) {
		payer, err := payerAtClock(ctx, w, in.Customer, in.Account)
		if err != nil {
			return nil, err
		}
		q := w.Tx.Delete((*models.UsageThreshold)(nil)).Where("?TableAlias.? = ?", payerColumn(payer), payer.ID())
		if _, err := q.Exec(ctx); err != nil {
			return nil, err
		}
		return thresholdProgress(ctx, w.Tx.Scope().Livemode, w.Tx, payer, nil, w.Now())
	})
}

// Progress answers where the payer's usage of the current cycle (on its
// clock) stands against its threshold. Read in the request: the payer,
// its threshold, its unbilled priced events of the cycle.
func (ts *UsageThresholds) Progress(ctx context.Context, in *models.UsagePayerInput) (*models.ThresholdProgress, error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return nil, err
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	tx := ts.svc.DB.Tenant(p.Scope)
	payer, err := readPayer(ctx, tx, in.Customer, in.Account, payerQuery{})
	if err != nil {
		return nil, err
	}
	t, err := payerThreshold(ctx, tx, payer, false)
	if err != nil {
		return nil, err
	}
	return thresholdProgress(ctx, p.Scope.Livemode, tx, payer, t, payer.Now(ts.svc.Clock.Now()))
}

// cycleNow is t truncated to the second, the instant a cycle is read at.
func cycleNow(t time.Time) time.Time { return t.UTC().Truncate(time.Second) }

// payerAtClock reads the payer of a write and makes its clock's time the
// write's.
func payerAtClock(ctx context.Context, w *op.W, customer, account *string) (*usagePayer, error) {
	payer, err := readPayer(ctx, w.Tx, customer, account, payerQuery{})
	if err != nil {
		return nil, err
	}
	if payer.ClockTime != nil {
		if err := w.AtClockTime(*payer.ClockTime); err != nil {
			return nil, err
		}
	}
	return payer, nil
}
