package resolvers

import (
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/money"
)

// Account.transfers is a page edge: the page each account's field asks
// (first, after, REST's status filter) for all the accounts of a level in
// one statement per distinct set of arguments.
var transferPagesOfAccountLoader = accountPageEdge[accountTransfersArgs]("transfer", "transfers",
	func(r *Resolver) *money.Transfers { return r.Svc.Money.Transfers }, (*money.Transfers).PagesOfAccounts)

// accountTransfersArgs are the arguments of Account.transfers.
type accountTransfersArgs struct {
	pageArgs
	Status *string `json:"status"`
}

func (a accountTransfersArgs) filter() money.TransferFilter {
	return money.TransferFilter{Status: enumArg[models.TransferStatus](a.Status)}
}
