package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/money"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Account.refunds and Customer.refunds are page edges: the page each
// payer's field asks (first, after, the refund list's filters) for all the
// payers of a level in one statement per distinct set of arguments.
var (
	refundPagesOfAccountLoader = loader("refundPagesOfAccount", func(r *Resolver) batch[*op.Page[*models.Refund]] {
		return pagesOf(func(ctx context.Context, accounts []string, a payerRefundsArgs) ([]op.Page[*models.Refund], []error) {
			return r.Svc.Money.Refunds.PagesOfAccounts(ctx, accounts, a.filter(), a.First, a.After)
		})
	})
	refundPagesOfCustomerLoader = loader("refundPagesOfCustomer", func(r *Resolver) batch[*op.Page[*models.Refund]] {
		return pagesOf(func(ctx context.Context, customers []string, a payerRefundsArgs) ([]op.Page[*models.Refund], []error) {
			return r.Svc.Money.Refunds.PagesOfCustomers(ctx, customers, a.filter(), a.First, a.After)
		})
	})
	_ = pageEdge(refundPagesOfAccountLoader, "refunds", func(a *models.Account) string { return a.ID.String() })
	_ = pageEdge(refundPagesOfCustomerLoader, "refunds", func(c *models.Customer) string { return c.ID.String() })
)

// payerRefundsArgs are the arguments of Account.refunds and
// Customer.refunds.
type payerRefundsArgs struct {
	First        *int    `json:"first"`
	After        *string `json:"after"`
	Transfer     *string `json:"transfer"`
	ChargeIntent *string `json:"chargeIntent"`
	Charge       *string `json:"charge"`
}

func (a payerRefundsArgs) filter() money.RefundFilter {
	return money.RefundFilter{Transfer: a.Transfer, ChargeIntent: a.ChargeIntent, Charge: a.Charge}
}

func refundEdge(cursor string, rf *models.Refund) *model.RefundEdge {
	return &model.RefundEdge{Cursor: cursor, Node: rf}
}
