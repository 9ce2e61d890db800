package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/loaders"
	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/usage"
)

// Billing credits load by id (nodes, billingCredit), and a payer's newest
// pools for a whole level of payers in one statement
// (Customer.billingCredits, Account.billingCredits).
var (
	billingCreditLoader = nodeLoader("billingCredit", func(r *Resolver) batch[*models.BillingCredit] {
		return r.Svc.Billing.BillingCredits.ByIDs
	})
	billingCreditsOfCustomerLoader = loader("billingCreditsOfCustomer", func(r *Resolver) batch[[]*models.BillingCredit] {
		return r.Svc.Billing.BillingCredits.OfCustomers
	})
	billingCreditsOfAccountLoader = loader("billingCreditsOfAccount", func(r *Resolver) batch[[]*models.BillingCredit] {
		return r.Svc.Billing.BillingCredits.OfAccounts
	})
)

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(customerLoader, "customer", func(c *models.BillingCredit) string { return idKey(c.Customer) })
	_ = edge(accountLoader, "account", func(c *models.BillingCredit) string { return idKey(c.Account) })
	_ = edge(productLoader, "product", func(c *models.BillingCredit) string { return c.Product.String() })
	_ = edge(billingCreditsOfCustomerLoader, "billingCredits", func(c *models.Customer) string { return c.ID.String() })
	_ = edge(billingCreditsOfAccountLoader, "billingCredits", func(a *models.Account) string { return a.ID.String() })
	_ = edge(customerLoader, "customer", func(p *models.ThresholdProgress) string { return idKey(p.Customer) })
	_ = edge(accountLoader, "account", func(p *models.ThresholdProgress) string { return idKey(p.Account) })
)

func billingCreditEdge(cursor string, c *models.BillingCredit) *model.BillingCreditEdge {
	return &model.BillingCreditEdge{Cursor: cursor, Node: c}
}

// billingCredits serves the billingCredits connection from the family's
// list (REST's GET /v1/billing/billing_credit).
func billingCredits(ctx context.Context, r *Resolver, f *usage.BillingCreditFilter, first *int, after *string) (*model.BillingCreditConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Billing.BillingCredits.List, filterOf(f, same[usage.BillingCreditFilter]),
		first, after, billingCreditLoader, billingCreditEdge)
	return &model.BillingCreditConnection{Edges: edges, PageInfo: info}, err
}

// payerBillingCredits is Customer.billingCredits and
// Account.billingCredits: the first page from the batch of the payers'
// newest pools, a later page from the list filtered by the payer.
func payerBillingCredits(ctx context.Context, r *Resolver, of loaders.Key[[]*models.BillingCredit], payer string,
	filter usage.BillingCreditFilter, first *int, after *string) (*model.BillingCreditConnection, error) {
	edges, info, err := batchedConnection(ctx, of, payer, first, after, usage.RecentBillingCredits,
		usage.BillingCreditPosition, &billingCreditLoader, billingCreditEdge,
		func() ([]*model.BillingCreditEdge, *model.PageInfo, error) {
			c, err := billingCredits(ctx, r, &filter, first, after)
			if err != nil {
				return nil, nil, err
			}
			return c.Edges, c.PageInfo, nil
		})
	return &model.BillingCreditConnection{Edges: edges, PageInfo: info}, err
}

// usagePayer names a payer for the threshold operations from GraphQL's
// arguments.
func usagePayer(customer, account *string) *models.UsagePayerInput {
	return &models.UsagePayerInput{Customer: customer, Account: account}
}
