package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// TestClock.subscriptions, TestClock.customers and TestClock.accounts are
// page edges: the page each clock's field asks, for all the clocks of a
// level in one statement per distinct set of arguments.
var (
	subscriptionPagesOfTestClockLoader = loader("subscriptionPagesOfTestClock", func(r *Resolver) batch[*op.Page[*models.Subscription]] {
		return pagesOf(func(ctx context.Context, clocks []string, a payerSubscriptionsArgs) ([]op.Page[*models.Subscription], []error) {
			return r.Svc.Billing.Subscriptions.PagesOfTestClocks(ctx, clocks, a.filter(), a.First, a.After)
		})
	})
	customerPagesOfTestClockLoader = loader("customerPagesOfTestClock", func(r *Resolver) batch[*op.Page[*models.Customer]] {
		return pagesOf(func(ctx context.Context, clocks []string, a pageArgs) ([]op.Page[*models.Customer], []error) {
			return r.Svc.Catalog.Customers.PagesOfTestClocks(ctx, clocks, a.First, a.After)
		})
	})
	accountPagesOfTestClockLoader = loader("accountPagesOfTestClock", func(r *Resolver) batch[*op.Page[*models.Account]] {
		return pagesOf(func(ctx context.Context, clocks []string, a pageArgs) ([]op.Page[*models.Account], []error) {
			return r.Svc.Accounts.Accounts.PagesOfTestClocks(accountReads(ctx), clocks, a.First, a.After)
		})
	})
	_ = pageEdge(subscriptionPagesOfTestClockLoader, "subscriptions", func(c *models.TestClock) string { return c.ID.String() })
	_ = pageEdge(customerPagesOfTestClockLoader, "customers", func(c *models.TestClock) string { return c.ID.String() })
	_ = pageEdge(accountPagesOfTestClockLoader, "accounts", func(c *models.TestClock) string { return c.ID.String() })
)

// pageArgs are the arguments of a page edge that takes no filter.
type pageArgs struct {
	First *int    `json:"first"`
	After *string `json:"after"`
}
