package resolvers

import (
	"context"
	"strings"
	"time"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Customer.subscriptions and Account.subscriptions are page edges: the
// page each payer's field asks (first, after, the filter of REST's
// subscription search) for all the payers of a level in one statement per
// distinct set of arguments.
var (
	subscriptionPagesOfCustomerLoader = loader("subscriptionPagesOfCustomer", func(r *Resolver) batch[*op.Page[*models.Subscription]] {
		return pagesOf(func(ctx context.Context, customers []string, a payerSubscriptionsArgs) ([]op.Page[*models.Subscription], []error) {
			return r.Svc.Billing.Subscriptions.PagesOfCustomers(ctx, customers, a.filter(), a.First, a.After)
		})
	})
	subscriptionPagesOfAccountLoader = loader("subscriptionPagesOfAccount", func(r *Resolver) batch[*op.Page[*models.Subscription]] {
		return pagesOf(func(ctx context.Context, accounts []string, a payerSubscriptionsArgs) ([]op.Page[*models.Subscription], []error) {
			return r.Svc.Billing.Subscriptions.PagesOfAccounts(ctx, accounts, a.filter(), a.First, a.After)
		})
	})
	_ = pageEdge(subscriptionPagesOfCustomerLoader, "subscriptions", func(c *models.Customer) string { return c.ID.String() })
	_ = pageEdge(subscriptionPagesOfAccountLoader, "subscriptions", func(a *models.Account) string { return a.ID.String() })
)

// payerSubscriptionsArgs are the arguments of Customer.subscriptions and
// Account.subscriptions as the query gives them: the status as the
// schema's enum spells it, the bounds as RFC 3339 strings.
type payerSubscriptionsArgs struct {
	First         *int       `json:"first"`
	After         *string    `json:"after"`
	Status        *string    `json:"status"`
	CreatedBefore *time.Time `json:"createdBefore"`
	CreatedAfter  *time.Time `json:"createdAfter"`
}

// filter is the subscription search's filter of the arguments (its
// statuses are the enum's names in lower case, its bounds Unix seconds).
func (a payerSubscriptionsArgs) filter() billing.SubscriptionFilter {
	var f billing.SubscriptionFilter
	if a.Status != nil {
		s := strings.ToLower(*a.Status)
		f.Status = &s
	}
	if a.CreatedBefore != nil {
		u := a.CreatedBefore.Unix()
		f.CreatedBefore = &u
	}
	if a.CreatedAfter != nil {
		u := a.CreatedAfter.Unix()
		f.CreatedAfter = &u
	}
	return f
}
