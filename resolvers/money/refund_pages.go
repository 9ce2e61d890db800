package money

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// PagesOfAccounts reads one page of the refunds of the charges each of many
// accounts paid in one statement (Account.refunds under a page of
// accounts), filtered as the refund list is. A refund carries its charge's
// payer (migration 00024), so each account's page is one range of an
// index.
func (rs *Refunds) PagesOfAccounts(ctx context.Context, accountIDs []string, f RefundFilter,
	first *int, after *string) ([]op.Page[*models.Refund], []error) {
	return refundTable.PagesOf(ctx, rs.svc.Kit, "account_id", "account", accountIDs, f, first, after)
}

// PagesOfCustomers is PagesOfAccounts for paying customers
// (Customer.refunds).
func (rs *Refunds) PagesOfCustomers(ctx context.Context, customerIDs []string, f RefundFilter,
	first *int, after *string) ([]op.Page[*models.Refund], []error) {
	return refundTable.PagesOf(ctx, rs.svc.Kit, "customer_id", "customer", customerIDs, f, first, after)
}
