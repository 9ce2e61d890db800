package catalog

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

type subscriptionPhaseParams struct {
	SubscriptionID string `json:"subscription_id"`
	ID             string `json:"id,omitempty"`
	Input          any    `json:"input,omitempty"`
}

// Create adds a phase to a subscription, priced in the subscription's
// currency. The ordering rules are a product phase's; currency, interval
// and interval_count, when sent, must be the subscription's. A request
// sending one of those is checked once the subscription is read, so that
// its problems and those of these members are reported together; any
// other is checked before the transaction.
func (sp *SubscriptionPhases) Create(ctx context.Context, subscriptionID string, in *models.CreateSubscriptionPhaseInput) (*models.SubscriptionPhase, error) {
	spec := sp.family.spec("create", subscriptionID, "", in, func() error {
		if in.SendsSubscriptionTerms() {
			return nil
		}
		return in.Validate(models.SubscriptionPhaseParent{})
	})
	return sp.family.create(ctx, spec, subscriptionID, func(w *op.W, sub *models.Subscription) (*models.SubscriptionPhase, error) {
		if err := in.Validate(phaseParent(sub)); err != nil {
			return nil, err
		}
		now := w.Now()
		ph := &models.SubscriptionPhase{ID: ids.New(now), PhaseTerms: newPhaseTerms(&in.CreatePhaseInput),
			SubscriptionID: sub.ID, Currency: sub.Currency, Created: models.At(now), Updated: models.At(now)}
		ph.Livemode = sub.Livemode
		return ph, nil
	})
}

// Update changes one phase of a subscription; a started phase keeps its
// ordinal and pricing (422 invalid_state).
func (sp *SubscriptionPhases) Update(ctx context.Context, subscriptionID, id string, in *models.UpdateSubscriptionPhaseInput) (*models.SubscriptionPhase, error) {
	orderPath := "period_count"
	if in.Ordinal != nil {
		orderPath = "ordinal"
	}
	spec := sp.family.spec("update", subscriptionID, id, in, sp.family.updateCheck(in))
	return sp.family.update(ctx, spec, subscriptionID, id, in, orderPath)
}

// BulkUpdate changes up to models.MaxBulkPhases phases of a subscription
// at once, all or nothing, and answers all its phases and how many
// changed.
func (sp *SubscriptionPhases) BulkUpdate(ctx context.Context, subscriptionID string, in *models.BulkUpdateSubscriptionPhasesInput) ([]*models.SubscriptionPhase, int, error) {
	spec := sp.family.spec("bulk_update", subscriptionID, "", in, sp.family.bulkCheck(in.Phases, in.Validate))
	return sp.family.bulkUpdate(ctx, spec, subscriptionID, in.Phases)
}

// Delete removes one phase of a subscription that has not started.
func (sp *SubscriptionPhases) Delete(ctx context.Context, subscriptionID, id string) error {
	_, err := sp.family.delete(ctx, sp.family.spec("delete", subscriptionID, id, nil, nil), subscriptionID, id)
	return err
}
