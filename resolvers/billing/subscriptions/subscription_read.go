package subscriptions

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/domain/amount"
	"github.com/frame-oss/payments-server/internal/domain/phase"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/invoices"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Subscriptions is the subscription family: reads from the kit, Create
// (subscription_create.go), Update (subscription_update.go), Cancel,
// Pause, Resume and DeleteScheduledChange (subscription_actions.go); its
// renewals, retries and resumes are due sources (subscription_due.go).
type Subscriptions struct {
	op.Reader[models.Subscription, SubscriptionFilter]
	svc *Service
}

func newSubscriptions(s *Service) *Subscriptions {
	return &Subscriptions{Reader: op.Read[models.Subscription, SubscriptionFilter](s.Kit, subscriptionTable), svc: s}
}

// SubscriptionPosition is a subscription's place in the newest-first
// order (its connection cursor).
func SubscriptionPosition(s *models.Subscription) op.Position { return subscriptionTable.Position(s) }

// subscriptionTable reads a subscription whole in one statement: its
// phases and the product it bills (its plan) come in its row.
var subscriptionTable = &op.Table[models.Subscription]{Resource: "subscription",
	Embedded: []op.Embedding[models.Subscription]{phasesOfSubscription, productOfSubscription},
	Columns:  func(q *bun.SelectQuery) *bun.SelectQuery { return q.ColumnExpr(latestChargeIntentColumn) },
	Derive:   func(s *models.Subscription, _ time.Time) { deriveSubscription(s) }}

// latestChargeIntentColumn is the subscription's latest_charge_intent: the
// intent of its latest invoice's latest charge (the invoice's charge_id is
// its latest attempt), read through both primary keys.
const latestChargeIntentColumn = `(SELECT ch.charge_intent_id FROM invoices AS inv
	JOIN charges AS ch ON ch.merchant_id = inv.merchant_id AND ch.id = inv.charge_id
	WHERE inv.merchant_id = sub.merchant_id AND inv.id = sub.latest_invoice_id) AS latest_charge_intent`

var (
	// phasesOfSubscription are its phases, in ordinal order.
	phasesOfSubscription = &op.Embed[models.Subscription, models.SubscriptionPhase]{Column: "subscription_id",
		As: "phases_json", Order: "ph.ordinal",
		Into: func(s *models.Subscription) *[]*models.SubscriptionPhase { return &s.Phases }}
	// productOfSubscription is the product billed, with what its plan
	// shows.
	productOfSubscription = &op.EmbedOne[models.Subscription, models.Product]{Column: "product_id",
		As: "product_json", Only: models.PlanColumns,
		Into: func(s *models.Subscription) **models.Product { return &s.BilledProduct }}
)

// deriveSubscription sets the members computed from the row: the phase in
// force for the current period and what the period is priced.
func deriveSubscription(s *models.Subscription) {
	in := inForce(s.Phases, s.PeriodNumber)
	var price *int64
	if s.BilledProduct != nil {
		if p, err := periodPrice(s.Phases, in, s.BilledProduct.DefaultPrice, s.Quantity); err == nil {
			price = &p
		}
	}
	s.Derive(in, price)
}

// pricedPhases are the phases as the pricing rule reads them.
func pricedPhases(phases []*models.SubscriptionPhase) []phase.Priced {
	out := make([]phase.Priced, len(phases))
	for i, p := range phases {
		out[i] = phase.Priced{Ordinal: p.Ordinal, Static: p.PricingType == models.PricingStatic, PeriodCount: p.PeriodCount}
		if p.Amount != nil {
			out[i].Amount = *p.Amount
		}
		if p.DiscountPercentage != nil {
			out[i].DiscountPercentage = string(*p.DiscountPercentage)
		}
	}
	return out
}

// inForce is the index of the phase pricing period n, -1 for none.
func inForce(phases []*models.SubscriptionPhase, n int) int {
	return phase.InForce(pricedPhases(phases), n)
}

// periodPrice is what a period costs: the phase in force's price of the
// product's price, else the product's price, times the quantity; beyond
// the bound on money (a product priced before the bound existed) it is a
// problem of the product.
func periodPrice(phases []*models.SubscriptionPhase, in int, productPrice int64, quantity int) (int64, error) {
	unit := productPrice
	if in >= 0 {
		p, err := pricedPhases(phases)[in].Price(productPrice)
		if err != nil {
			return 0, err
		}
		unit = p
	}
	price, ok := amount.Mul(unit, int64(quantity))
	if !ok {
		return 0, apierr.FieldError("product", "is priced beyond "+invoices.MaxAmountText+" for a period")
	}
	return price, nil
}

// SubscriptionFilter is the search's filter (API-DECISIONS §4): status,
// and the creation time's bounds (Unix seconds, exclusive).
type SubscriptionFilter struct {
	Status        *models.SubscriptionStatus `query:"status" filter:"status,enum"`
	CreatedBefore *int64                     `query:"created_before" filter:"created,before"`
	CreatedAfter  *int64                     `query:"created_after" filter:"created,after"`
	Customer      *string                    `query:"customer" filter:"customer_id,id"`
	Account       *string                    `query:"account" filter:"account_id,id"`
}

// ListAll is GET /v1/subscriptions: every subscription, newest first (the
// spec's list takes no filter).
func (ss *Subscriptions) ListAll(ctx context.Context, _ op.NoFilter, lp op.ListParams) (op.Page[*models.Subscription], error) {
	return ss.Reader.List(ctx, SubscriptionFilter{}, lp)
}
