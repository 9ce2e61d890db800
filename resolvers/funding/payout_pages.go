package funding

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// PagesOfAccounts reads one page of the payouts of each of many accounts
// in one statement (Account.payouts under a page of accounts), filtered as
// the payout list is (f's account is the parent's, not a filter).
func (ps *Payouts) PagesOfAccounts(ctx context.Context, accountIDs []string, f PayoutFilter,
	first *int, after *string) ([]op.Page[*models.Payout], []error) {
	f.AccountID = nil
	return payoutTable.PagesOf(ctx, ps.svc.Kit, "account_id", "account", accountIDs, f, first, after)
}
