package subscriptions

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/due"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// The effects time causes on subscriptions, each a due.DueSource:
// renewals at the end of each period, dunning retries, scheduled resumes.

// renewals renew subscriptions whose period has ended
// (subscription_renewal.go).
type renewals struct{ s *Service }

// retries charge again the open invoice of a subscription in dunning.
type retries struct{ s *Service }

// resumes resume paused subscriptions at their resume_at.
type resumes struct{ s *Service }

func (renewals) Kind() string { return "renewal" }
func (retries) Kind() string  { return "retry" }
func (resumes) Kind() string  { return "resume" }

// Next is the earliest period end at or before upTo of a subscription
// still renewing (active, past_due or paused) on the clock.
func (r renewals) Next(ctx context.Context, tx *store.Tenant, clock uuid.UUID, upTo time.Time) (*due.Due, error) {
	return due.Scan(ctx, r.DueQuery(tx, clock, upTo))
}

func (r renewals) DueQuery(tx *store.Tenant, clock uuid.UUID, upTo time.Time) *bun.SelectQuery {
	return subscriptionDue(tx, r.Kind(), "current_period_end", clock, upTo).
		Where("sub.status IN (?)", bun.In([]models.SubscriptionStatus{models.SubscriptionActive,
			models.SubscriptionPastDue, models.SubscriptionPaused}))
}

// Next is the earliest retry at or before upTo on the clock.
func (r retries) Next(ctx context.Context, tx *store.Tenant, clock uuid.UUID, upTo time.Time) (*due.Due, error) {
	return due.Scan(ctx, r.DueQuery(tx, clock, upTo))
}

func (r retries) DueQuery(tx *store.Tenant, clock uuid.UUID, upTo time.Time) *bun.SelectQuery {
	return subscriptionDue(tx, r.Kind(), "next_payment_attempt", clock, upTo).Where("sub.status = ?", models.SubscriptionPastDue)
}

// Next is the earliest scheduled resume at or before upTo on the clock.
func (r resumes) Next(ctx context.Context, tx *store.Tenant, clock uuid.UUID, upTo time.Time) (*due.Due, error) {
	return due.Scan(ctx, r.DueQuery(tx, clock, upTo))
}

func (r resumes) DueQuery(tx *store.Tenant, clock uuid.UUID, upTo time.Time) *bun.SelectQuery {
	return subscriptionDue(tx, r.Kind(), "resume_at", clock, upTo).Where("sub.status = ?", models.SubscriptionPaused)
}

// subscriptionDue selects, as (at, kind, id), the subscription on clock
// whose column is earliest at or before upTo, ties broken by id; the
// source adds which statuses it applies to.
func subscriptionDue(tx *store.Tenant, kind, column string, clock uuid.UUID, upTo time.Time) *bun.SelectQuery {
	q := tx.Select((*models.Subscription)(nil)).ColumnExpr("sub.? AS at", bun.Ident(column)).ColumnExpr("? AS kind", kind).
		ColumnExpr("sub.id").Where("sub.? <= ?", bun.Ident(column), upTo)
	if clock == uuid.Nil {
		q = q.Where("sub.test_clock_id IS NULL")
	} else {
		q = q.Where("sub.test_clock_id = ?", clock)
	}
	return q.OrderExpr("sub.? ASC, sub.id ASC", bun.Ident(column)).Limit(1)
}

// Apply renews the subscription if its period still ends by due.At.
func (r renewals) Apply(ctx context.Context, w *op.W, due due.Due) error {
	return r.s.Subscriptions.renew(ctx, w, due.ID.String(), due.At)
}

// Apply retries the subscription's open invoice if the retry is still due.
func (r retries) Apply(ctx context.Context, w *op.W, due due.Due) error {
	return r.s.Subscriptions.retry(ctx, w, due.ID.String(), due.At)
}

// Apply resumes the subscription if it is still paused with resume_at by
// due.At.
func (r resumes) Apply(ctx context.Context, w *op.W, due due.Due) error {
	sub, before, err := lockSubscription(ctx, w, due.ID.String(), false)
	if err != nil {
		return err
	}
	if sub.Status != models.SubscriptionPaused || sub.ResumeAt == nil || sub.ResumeAt.After(due.At) {
		return nil
	}
	sub.Status, sub.PausedAt, sub.ResumeAt = models.SubscriptionActive, nil, nil
	_, err = saveSubscription(ctx, w, sub, before)
	return err
}
