package resolvers

import (
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/funding"
)

// Account.payouts is a page edge: the page each account's field asks
// (first, after, REST's status filter) for all the accounts of a level in
// one statement per distinct set of arguments.
var payoutPagesOfAccountLoader = accountPageEdge[accountPayoutsArgs]("payout", "payouts",
	func(r *Resolver) *funding.Payouts { return r.Svc.Funding.Payouts }, (*funding.Payouts).PagesOfAccounts)

// accountPayoutsArgs are the arguments of Account.payouts.
type accountPayoutsArgs struct {
	pageArgs
	Status *string `json:"status"`
}

func (a accountPayoutsArgs) filter() funding.PayoutFilter {
	return funding.PayoutFilter{Status: enumArg[models.PayoutStatus](a.Status)}
}
