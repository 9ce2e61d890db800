package money

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// PagesOfAccounts reads one page of the transfers of each of many accounts
// in one statement (Account.transfers under a page of accounts), filtered
// as the transfer list is (f's account is the parent's, not a filter).
// Like the list, it is the secret key's.
func (ts *Transfers) PagesOfAccounts(ctx context.Context, accountIDs []string, f TransferFilter,
	first *int, after *string) ([]op.Page[*models.Transfer], []error) {
	if _, err := auth.Require(ctx, secretOnly...); err != nil {
		return make([]op.Page[*models.Transfer], len(accountIDs)), fillErr(len(accountIDs), err)
	}
	f.AccountID = nil
	pages, errs := transferTable.PagesOf(ctx, ts.svc.Kit, "account_id", "account", accountIDs, f, first, after)
	p := auth.FromContext(ctx)
	for _, page := range pages {
		for _, t := range page.Items {
			forCaller(p, t)
		}
	}
	return pages, errs
}

// fillErr is err for each of n ids.
func fillErr(n int, err error) []error {
	errs := make([]error, n)
	for i := range errs {
		errs[i] = err
	}
	return errs
}
