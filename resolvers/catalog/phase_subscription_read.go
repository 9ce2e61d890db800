package catalog

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// SubscriptionPhases is the family of a subscription's phases, the phase
// family (phase_family.go) over the subscriptions table: the rules of a
// product's phases, plus started_at (a phase that has priced a period
// keeps its ordinal and pricing and cannot be deleted) and the checks of
// the SDK's members against the subscription. Its changes announce no
// event: none is declared for them.
type SubscriptionPhases struct {
	op.Reader[models.SubscriptionPhase, op.NoFilter] // ByIDs, for node(id:)
	family                                           *subscriptionPhaseFamily
}

type subscriptionPhaseFamily = phaseFamily[models.SubscriptionPhase, *models.SubscriptionPhase, models.Subscription,
	*models.UpdateSubscriptionPhaseInput]

// phaseParent is what a subscription's phases are checked against: its
// currency and its product's billing period.
func phaseParent(s *models.Subscription) models.SubscriptionPhaseParent {
	var recurring *models.Recurring
	if s.BilledProduct != nil {
		recurring = s.BilledProduct.Recurring
	}
	return models.SubscriptionPhaseParent{Currency: s.Currency, Recurring: recurring}
}

var (
	// phaseSubscriptionTable reads the subscription whose phases change
	// (the row the write locks), with its product's billing period.
	phaseSubscriptionTable = &op.Table[models.Subscription]{Resource: "subscription",
		Embedded: []op.Embedding[models.Subscription]{productOfPhaseSubscription}}
	productOfPhaseSubscription = &op.EmbedOne[models.Subscription, models.Product]{Column: "product_id",
		As: "product_json", Only: []string{"recurring"},
		Into: func(s *models.Subscription) **models.Product { return &s.BilledProduct }}
	subscriptionPhaseTable = &op.Table[models.SubscriptionPhase]{Resource: "subscription_phase"}
)

func newSubscriptionPhases(s *Service) *SubscriptionPhases {
	f := (&subscriptionPhaseFamily{kit: s.Kit, phases: subscriptionPhaseTable, parents: phaseSubscriptionTable,
		column: "subscription_id", parentParam: "subscription_id", name: "subscription.phase",
		ordinalKey: "subscription_phases_ordinal_key",
		columns:    []string{"ordinal", "name", "pricing_type", "period_count", "amount", "discount_percentage", "updated"},
		params: func(subscriptionID, id string, in any) any {
			return subscriptionPhaseParams{SubscriptionID: subscriptionID, ID: id, Input: in}
		},
		// Everything about a subscription happens at its payer's clock
		// time (docs/billing.md).
		clock: func(ctx context.Context, w *op.W, sub *models.Subscription) error {
			return w.AtBoundClock(ctx, sub.TestClockID)
		},
		check: func(sub *models.Subscription, ph *models.SubscriptionPhase, e *models.UpdateSubscriptionPhaseInput, f *apierr.Fields, prefix string) {
			e.Validate(f, prefix, &ph.PhaseTerms, phaseParent(sub))
		},
		independent: func(e *models.UpdateSubscriptionPhaseInput) bool { return !e.SendsSubscriptionTerms() },
		apply:       func(ph *models.SubscriptionPhase, e *models.UpdateSubscriptionPhaseInput) { e.ApplyTo(&ph.PhaseTerms) },
		id: func(e *models.UpdateSubscriptionPhaseInput) *string {
			if e == nil {
				return nil
			}
			return e.ID
		},
	}).bind()
	return &SubscriptionPhases{family: f,
		Reader: op.Read[models.SubscriptionPhase, op.NoFilter](s.Kit, subscriptionPhaseTable)}
}

// List returns a subscription's phases in ordinal order (404 on
// subscription_id for an unknown subscription).
func (sp *SubscriptionPhases) List(ctx context.Context, subscriptionID string) ([]*models.SubscriptionPhase, error) {
	return sp.family.list(ctx, subscriptionID)
}

// Get returns one phase of a subscription.
func (sp *SubscriptionPhases) Get(ctx context.Context, subscriptionID, id string) (*models.SubscriptionPhase, error) {
	return sp.family.get(ctx, subscriptionID, id)
}
