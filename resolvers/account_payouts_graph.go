package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/funding"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Account.payouts is a page edge: the page each account's field asks
// (first, after, REST's status filter) for all the accounts of a level in
// one statement per distinct set of arguments.
var (
	payoutPagesOfAccountLoader = loader("payoutPagesOfAccount", func(r *Resolver) batch[*op.Page[*models.Payout]] {
		return pagesOf(func(ctx context.Context, accounts []string, a accountPayoutsArgs) ([]op.Page[*models.Payout], []error) {
			return r.Svc.Funding.Payouts.PagesOfAccounts(ctx, accounts, funding.PayoutFilter{Status: enumArg[models.PayoutStatus](a.Status)}, a.First, a.After)
		})
	})
	_ = pageEdge(payoutPagesOfAccountLoader, "payouts", func(a *models.Account) string { return a.ID.String() })
)

// accountPayoutsArgs are the arguments of Account.payouts.
type accountPayoutsArgs struct {
	First  *int    `json:"first"`
	After  *string `json:"after"`
	Status *string `json:"status"`
}
