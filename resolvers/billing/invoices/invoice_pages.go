package invoices

import (
	"context"
	"time"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// PagesOfCustomers reads one page of the invoices of each of many
// customers in one statement (Customer.invoices under a page of
// customers), filtered as the invoice list is, as of the clock's day; the
// payer is the parent, not a filter.
func (is *Invoices) PagesOfCustomers(ctx context.Context, customerIDs []string, f InvoiceFilter,
	first *int, after *string) ([]op.Page[*models.Invoice], []error) {
	return is.pagesOf(ctx, "customer_id", "customer", customerIDs, f, first, after)
}

// PagesOfAccounts is PagesOfCustomers for paying accounts
// (Account.invoices).
func (is *Invoices) PagesOfAccounts(ctx context.Context, accountIDs []string, f InvoiceFilter,
	first *int, after *string) ([]op.Page[*models.Invoice], []error) {
	return is.pagesOf(ctx, "account_id", "account", accountIDs, f, first, after)
}

func (is *Invoices) pagesOf(ctx context.Context, column, parent string, parentIDs []string, f InvoiceFilter,
	first *int, after *string) ([]op.Page[*models.Invoice], []error) {
	f.Customer, f.Account = nil, nil
	f.today = is.svc.Clock.Now().UTC().Format(time.DateOnly)
	return invoiceTable.PagesOf(ctx, is.svc.Kit, column, parent, parentIDs, f, first, after)
}
