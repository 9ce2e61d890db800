package resolvers

import (
	"time"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/subscriptions"
)

// Customer.subscriptions and Account.subscriptions are page edges: the
// page each payer's field asks (first, after, the filter of REST's
// subscription search) for all the payers of a level in one statement per
// distinct set of arguments.
var subscriptionPagesOfAccountLoader, subscriptionPagesOfCustomerLoader = payerPageEdges[payerSubscriptionsArgs](
	"subscription", "subscriptions", func(r *Resolver) *subscriptions.Subscriptions { return r.Svc.Billing.Subscriptions },
	(*subscriptions.Subscriptions).PagesOfAccounts, (*subscriptions.Subscriptions).PagesOfCustomers)

// payerSubscriptionsArgs are the arguments of Customer.subscriptions and
// Account.subscriptions as the query gives them: the status as the
// schema's enum spells it, the bounds as RFC 3339 strings.
type payerSubscriptionsArgs struct {
	pageArgs
	Status        *string    `json:"status"`
	CreatedBefore *time.Time `json:"createdBefore"`
	CreatedAfter  *time.Time `json:"createdAfter"`
}

// filter is the subscription search's filter of the arguments (its
// statuses are the enum's names in lower case, its bounds Unix seconds).
func (a payerSubscriptionsArgs) filter() subscriptions.SubscriptionFilter {
	return subscriptions.SubscriptionFilter{CreatedBefore: unixSeconds(a.CreatedBefore), CreatedAfter: unixSeconds(a.CreatedAfter),
		Status: enumArg[models.SubscriptionStatus](a.Status)}
}
