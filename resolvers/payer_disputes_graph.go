package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/money"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Account.disputes and Customer.disputes are page edges: the page each
// payer's field asks (first, after, the dispute list's filters) for all
// the payers of a level in one statement per distinct set of arguments.
var (
	disputePagesOfAccountLoader = loader("disputePagesOfAccount", func(r *Resolver) batch[*op.Page[*models.Dispute]] {
		return pagesOf(func(ctx context.Context, accounts []string, a payerDisputesArgs) ([]op.Page[*models.Dispute], []error) {
			return r.Svc.Money.Disputes.PagesOfAccounts(ctx, accounts, a.filter(), a.First, a.After)
		})
	})
	disputePagesOfCustomerLoader = loader("disputePagesOfCustomer", func(r *Resolver) batch[*op.Page[*models.Dispute]] {
		return pagesOf(func(ctx context.Context, customers []string, a payerDisputesArgs) ([]op.Page[*models.Dispute], []error) {
			return r.Svc.Money.Disputes.PagesOfCustomers(ctx, customers, a.filter(), a.First, a.After)
		})
	})
	_ = pageEdge(disputePagesOfAccountLoader, "disputes", func(a *models.Account) string { return a.ID.String() })
	_ = pageEdge(disputePagesOfCustomerLoader, "disputes", func(c *models.Customer) string { return c.ID.String() })
)

// payerDisputesArgs are the arguments of Account.disputes and
// Customer.disputes.
type payerDisputesArgs struct {
	First        *int    `json:"first"`
	After        *string `json:"after"`
	Charge       *string `json:"charge"`
	ChargeIntent *string `json:"chargeIntent"`
	Transfer     *string `json:"transfer"`
}

func (a payerDisputesArgs) filter() money.DisputeFilter {
	return money.DisputeFilter{Charge: a.Charge, ChargeIntent: a.ChargeIntent, Transfer: a.Transfer}
}

func disputeEdge(cursor string, d *models.Dispute) *model.DisputeEdge {
	return &model.DisputeEdge{Cursor: cursor, Node: d}
}
