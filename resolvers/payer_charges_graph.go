package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Account.charges and Customer.charges are page edges (the way back of
// Charge.account and Charge.customer): the page each payer's field asks
// (first, after) for all the payers of a level in one statement per
// distinct set of arguments.
var (
	chargePagesOfAccountLoader = loader("chargePagesOfAccount", func(r *Resolver) batch[*op.Page[*models.Charge]] {
		return pagesOf(func(ctx context.Context, accounts []string, a payerChargesArgs) ([]op.Page[*models.Charge], []error) {
			return r.Svc.Money.Charges.PagesOfAccounts(ctx, accounts, a.First, a.After)
		})
	})
	chargePagesOfCustomerLoader = loader("chargePagesOfCustomer", func(r *Resolver) batch[*op.Page[*models.Charge]] {
		return pagesOf(func(ctx context.Context, customers []string, a payerChargesArgs) ([]op.Page[*models.Charge], []error) {
			return r.Svc.Money.Charges.PagesOfCustomers(ctx, customers, a.First, a.After)
		})
	})
	_ = pageEdge(chargePagesOfAccountLoader, "charges", func(a *models.Account) string { return a.ID.String() })
	_ = pageEdge(chargePagesOfCustomerLoader, "charges", func(c *models.Customer) string { return c.ID.String() })
)

// payerChargesArgs are the arguments of Account.charges and
// Customer.charges.
type payerChargesArgs struct {
	First *int    `json:"first"`
	After *string `json:"after"`
}

func chargeEdge(cursor string, c *models.Charge) *model.ChargeEdge {
	return &model.ChargeEdge{Cursor: cursor, Node: c}
}
