package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Product.subscriptions is a page edge with the arguments of
// Customer.subscriptions: one statement for all the products of a level
// per distinct set of arguments.
var (
	subscriptionPagesOfProductLoader = loader("subscriptionPagesOfProduct", func(r *Resolver) batch[*op.Page[*models.Subscription]] {
		return pagesOf(func(ctx context.Context, products []string, a payerSubscriptionsArgs) ([]op.Page[*models.Subscription], []error) {
			return r.Svc.Billing.Subscriptions.PagesOfProducts(ctx, products, a.filter(), a.First, a.After)
		})
	})
	_ = pageEdge(subscriptionPagesOfProductLoader, "subscriptions", func(p *models.Product) string { return p.ID.String() })
)
