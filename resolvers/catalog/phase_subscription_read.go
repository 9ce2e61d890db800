package catalog

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
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

type subscriptionPhaseFamily = phaseFamily[models.SubscriptionPhase, *models.SubscriptionPhase, phaseSubscription,
	*models.UpdateSubscriptionPhaseInput]

// phaseSubscription is what the phases of a subscription need of it: the
// row to lock, its currency, its product's billing period and its test
// clock's time.
type phaseSubscription struct {
	bun.BaseModel `bun:"table:subscriptions,alias:sub"`
	models.Tenant

	ID        uuid.UUID         `bun:"id,pk,type:uuid"`
	Currency  string            `bun:"currency"`
	ProductID uuid.UUID         `bun:"product_id,type:uuid"`
	Created   wire.Timestamp    `bun:"created,type:timestamptz"`
	Recurring *models.Recurring `bun:"recurring,type:jsonb,scanonly"`
	ClockTime *time.Time        `bun:"clock_time,scanonly"`
}

// parent is what a phase's members are checked against.
func (s *phaseSubscription) parent() models.SubscriptionPhaseParent {
	return models.SubscriptionPhaseParent{Currency: s.Currency, Recurring: s.Recurring}
}

var (
	phaseSubscriptionTable = &op.Table[phaseSubscription]{Resource: "subscription",
		Columns: func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.ColumnExpr("(SELECT pr.recurring FROM products AS pr WHERE pr.merchant_id = ?TableAlias.merchant_id " +
				"AND pr.id = ?TableAlias.product_id) AS recurring").
				ColumnExpr("(SELECT tc.frozen_time FROM test_clocks AS tc WHERE tc.merchant_id = ?TableAlias.merchant_id " +
					"AND tc.id = ?TableAlias.test_clock_id) AS clock_time")
		}}
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
		clock: func(w *op.W, sub *phaseSubscription) error {
			if sub.ClockTime == nil {
				return nil
			}
			return w.AtClockTime(*sub.ClockTime)
		},
		check: func(sub *phaseSubscription, ph *models.SubscriptionPhase, e *models.UpdateSubscriptionPhaseInput, f *apierr.Fields, prefix string) {
			e.Validate(f, prefix, &ph.PhaseTerms, sub.parent())
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
