package subscriptions

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// logSwap writes the change log of a product swap taking effect now: the
// products and plans before and after (API-DECISIONS §9: swaps only).
func logSwap(ctx context.Context, w *op.W, sub *models.Subscription, from, to *models.Product) error {
	now := w.Now()
	l := &models.SubscriptionChangeLog{ID: ids.New(now), SubscriptionID: sub.ID, ProrationBehavior: sub.ProrationBehavior,
		PreviousProductID: from.ID, NewProductID: to.ID, PreviousPlan: from.PlanIn(sub.Currency),
		CurrentPlan: to.PlanIn(sub.Currency), EffectiveDate: models.At(now), Created: models.At(now)}
	_, err := w.Tx.Insert(l).Exec(ctx)
	return err
}
