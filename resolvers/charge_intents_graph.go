package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/money"
)

// Charge intents are nodes loaded in batches, each with its payment method
// and charge. A page of intents reads their payers too (the REST shape
// embeds them), and primes the customer, account, payment method and
// charge loaders with what it read, so the edges of a page cost nothing
// more.
var (
	chargeIntentLoader = nodeLoader("chargeIntent", func(r *Resolver) batch[*models.ChargeIntent] { return r.Svc.Money.ChargeIntents.ByIDs })
)

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(chargeIntentLoader, "chargeIntent", func(c *models.Charge) string { return idKey(c.ChargeIntentID) })
	_ = edge(customerLoader, "customer", func(ci *models.ChargeIntent) string { return idKey(ci.CustomerID) })
	_ = edge(accountLoader, "account", func(ci *models.ChargeIntent) string { return idKey(ci.AccountID) })
	_ = edge(paymentMethodLoader, "paymentMethod", func(ci *models.ChargeIntent) string { return idKey(ci.PaymentMethodID) })
	_ = edge(chargeLoader, "latestCharge", func(ci *models.ChargeIntent) string { return idKey(ci.LatestChargeID) })
	_ = edge(subscriptionLoader, "subscription", func(ci *models.ChargeIntent) string { return idKey(ci.SubscriptionID) })
	_ = edge(invoiceLoader, "invoice", func(ci *models.ChargeIntent) string { return idKey(ci.InvoiceID) })
	_ = edge(chargeIntentLoader, "latestChargeIntent", func(s *models.Subscription) string {
		return idKey(s.LatestChargeIntentID)
	})
)

func chargeIntents(ctx context.Context, r *Resolver, first *int, after *string, f *money.ChargeIntentFilter) (*model.ChargeIntentConnection, error) {
	filter := filterOf(f, same[money.ChargeIntentFilter])
	page, err := r.Svc.Money.ChargeIntents.List(ctx, filter, keyset(first, after))
	if err != nil {
		return nil, err
	}
	for _, ci := range page.Items {
		chargeIntentLoader.Prime(ctx, ci.ID.String(), ci)
		if ci.Customer != nil {
			customerLoader.Prime(ctx, ci.Customer.ID.String(), ci.Customer)
		}
		if ci.Account != nil {
			accountLoader.Prime(ctx, ci.Account.ID.String(), ci.Account)
		}
		if ci.PaymentMethod != nil {
			paymentMethodLoader.Prime(ctx, ci.PaymentMethod.ID.String(), ci.PaymentMethod)
		}
		if ci.LatestCharge != nil {
			chargeLoader.Prime(ctx, ci.LatestCharge.ID.String(), ci.LatestCharge)
		}
	}
	edges, info := connect(page, func(cursor string, ci *models.ChargeIntent) *model.ChargeIntentEdge {
		return &model.ChargeIntentEdge{Cursor: cursor, Node: ci}
	})
	return &model.ChargeIntentConnection{Edges: edges, PageInfo: info}, nil
}

// confirmInput makes an omitted confirm input an empty one.
func confirmInput(in *models.ConfirmChargeIntentInput) *models.ConfirmChargeIntentInput {
	if in == nil {
		return &models.ConfirmChargeIntentInput{}
	}
	return in
}

// captureIntentInput makes an omitted capture input a capture of
// everything still authorized.
func captureIntentInput(in *models.CaptureChargeIntentInput) *models.CaptureChargeIntentInput {
	if in == nil {
		return &models.CaptureChargeIntentInput{}
	}
	return in
}
