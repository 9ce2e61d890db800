// Package areas assembles the operation layer: one service per business
// area. Both transports take Services (REST mounts routes on them, the
// GraphQL resolvers delegate to them); a new area adds one field and one
// line in New. Its background work is found through its field
// (background.go): a service that has workers, recurring jobs or something
// to close implements Workers, Recurring or Closer.
package areas

import (
	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/accounts"
	"github.com/frame-oss/payments-server/resolvers/billing"
	"github.com/frame-oss/payments-server/resolvers/catalog"
	"github.com/frame-oss/payments-server/resolvers/funding"
	"github.com/frame-oss/payments-server/resolvers/merchant"
	"github.com/frame-oss/payments-server/resolvers/money"
	"github.com/frame-oss/payments-server/resolvers/op"
	"github.com/frame-oss/payments-server/resolvers/payments"
	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

// Services are the operation layer.
type Services struct {
	Accounts *accounts.Service // accounts and verification
	Webhooks *webhooks.Service // events and webhooks
	Catalog  *catalog.Service  // customers, products, coupons, promotion codes, discounts
	Payments *payments.Service // payment methods
	Money    *money.Service    // fee plans, billing agreements, transfers
	Funding  *funding.Service  // payouts, payout funding, the merchant balance
	Billing  *billing.Service  // subscriptions, invoices and their line items
	Merchant *merchant.Service // the caller itself: GET /v1/me, the request log
}

// Options adjust services for tests. They are test seams set by the
// composition root (app.Options), not reactions of one area to another:
// those are typed hooks the owning area exposes (op.Hooks), registered
// below.
type Options struct {
	// Facts adjusts the requirement facts of accounts (accounts.Service).
	Facts func(*models.Account, *capability.Facts)
}

// New builds every service over kit, and registers each area's reactions
// on the resources of the others (op.Hooks).
func New(kit *op.Kit, h Options) Services {
	cat := catalog.New(kit)
	acc := accounts.New(kit, h.Facts)
	pay := payments.New(kit, acc.Accounts)
	mon := money.New(kit, cat, pay, acc)
	bil := billing.New(kit, mon)
	cat.Customers.Hooks.RegisterHooks(bil.CustomerHook())
	return Services{
		Accounts: acc,
		Webhooks: webhooks.New(kit),
		Catalog:  cat,
		Payments: pay,
		Money:    mon,
		Funding:  funding.New(kit),
		Billing:  bil,
		Merchant: merchant.New(kit),
	}
}
