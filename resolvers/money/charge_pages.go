package money

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// PagesOfAccounts reads one page of the charges each of many accounts paid
// in one statement (Account.charges under a page of accounts). REST has no
// charge list, so there is no filter; like a charge's read, it is the
// secret key's.
func (cs *Charges) PagesOfAccounts(ctx context.Context, accountIDs []string,
	first *int, after *string) ([]op.Page[*models.Charge], []error) {
	return chargeTable.PagesOf(ctx, cs.svc.Kit, "account_id", "account", accountIDs, op.NoFilter{}, first, after)
}

// PagesOfCustomers is PagesOfAccounts for paying customers
// (Customer.charges).
func (cs *Charges) PagesOfCustomers(ctx context.Context, customerIDs []string,
	first *int, after *string) ([]op.Page[*models.Charge], []error) {
	return chargeTable.PagesOf(ctx, cs.svc.Kit, "customer_id", "customer", customerIDs, op.NoFilter{}, first, after)
}
