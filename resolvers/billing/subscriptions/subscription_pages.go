package subscriptions

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// PagesOfCustomers reads one page of the subscriptions of each of many
// customers in one statement (Customer.subscriptions under a page of
// customers), filtered as REST's subscription search is; the payer is the
// parent, not a filter.
func (ss *Subscriptions) PagesOfCustomers(ctx context.Context, customerIDs []string, f SubscriptionFilter,
	first *int, after *string) ([]op.Page[*models.Subscription], []error) {
	f.Customer, f.Account = nil, nil
	return subscriptionTable.PagesOf(ctx, ss.svc.Kit, "customer_id", "customer", customerIDs, f, first, after)
}

// PagesOfAccounts is PagesOfCustomers for paying accounts
// (Account.subscriptions).
func (ss *Subscriptions) PagesOfAccounts(ctx context.Context, accountIDs []string, f SubscriptionFilter,
	first *int, after *string) ([]op.Page[*models.Subscription], []error) {
	f.Customer, f.Account = nil, nil
	return subscriptionTable.PagesOf(ctx, ss.svc.Kit, "account_id", "account", accountIDs, f, first, after)
}

// PagesOfTestClocks reads one page of the subscriptions bound to each of
// many test clocks in one statement (TestClock.subscriptions), filtered as
// REST's subscription search is; the clock is the parent.
func (ss *Subscriptions) PagesOfTestClocks(ctx context.Context, clockIDs []string, f SubscriptionFilter,
	first *int, after *string) ([]op.Page[*models.Subscription], []error) {
	return subscriptionTable.PagesOf(ctx, ss.svc.Kit, "test_clock_id", "test_clock", clockIDs, f, first, after)
}

// PagesOfProducts reads one page of the subscriptions of each of many
// products in one statement (Product.subscriptions), filtered as REST's
// subscription search is; the product is the parent.
func (ss *Subscriptions) PagesOfProducts(ctx context.Context, productIDs []string, f SubscriptionFilter,
	first *int, after *string) ([]op.Page[*models.Subscription], []error) {
	return subscriptionTable.PagesOf(ctx, ss.svc.Kit, "product_id", "product", productIDs, f, first, after)
}
