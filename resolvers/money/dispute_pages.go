package money

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// PagesOfAccounts reads one page of the disputes of the charges each of
// many accounts paid in one statement (Account.disputes under a page of
// accounts), filtered as the dispute list is. A dispute carries its
// charge's payer (migration 00024), so each account's page is one range of
// an index.
func (ds *Disputes) PagesOfAccounts(ctx context.Context, accountIDs []string, f DisputeFilter,
	first *int, after *string) ([]op.Page[*models.Dispute], []error) {
	return disputeTable.PagesOf(ctx, ds.svc.Kit, "account_id", "account", accountIDs, f, first, after)
}

// PagesOfCustomers is PagesOfAccounts for paying customers
// (Customer.disputes).
func (ds *Disputes) PagesOfCustomers(ctx context.Context, customerIDs []string, f DisputeFilter,
	first *int, after *string) ([]op.Page[*models.Dispute], []error) {
	return disputeTable.PagesOf(ctx, ds.svc.Kit, "customer_id", "customer", customerIDs, f, first, after)
}
