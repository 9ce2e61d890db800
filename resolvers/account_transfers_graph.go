package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/money"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Account.transfers is a page edge: the page each account's field asks
// (first, after, REST's status filter) for all the accounts of a level in
// one statement per distinct set of arguments.
var (
	transferPagesOfAccountLoader = loader("transferPagesOfAccount", func(r *Resolver) batch[*op.Page[*models.Transfer]] {
		return pagesOf(func(ctx context.Context, accounts []string, a accountTransfersArgs) ([]op.Page[*models.Transfer], []error) {
			return r.Svc.Money.Transfers.PagesOfAccounts(ctx, accounts, money.TransferFilter{Status: enumArg[models.TransferStatus](a.Status)}, a.First, a.After)
		})
	})
	_ = pageEdge(transferPagesOfAccountLoader, "transfers", func(a *models.Account) string { return a.ID.String() })
)

// accountTransfersArgs are the arguments of Account.transfers.
type accountTransfersArgs struct {
	First  *int    `json:"first"`
	After  *string `json:"after"`
	Status *string `json:"status"`
}
