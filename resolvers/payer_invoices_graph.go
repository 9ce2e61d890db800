package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Customer.invoices and Account.invoices are page edges: the page each
// payer's field asks (first, after, the invoice list's status and
// subscription filters) for all the payers of a level in one statement
// per distinct set of arguments.
var (
	invoicePagesOfCustomerLoader = loader("invoicePagesOfCustomer", func(r *Resolver) batch[*op.Page[*models.Invoice]] {
		return pagesOf(func(ctx context.Context, customers []string, a payerInvoicesArgs) ([]op.Page[*models.Invoice], []error) {
			return r.Svc.Billing.Invoices.PagesOfCustomers(ctx, customers, a.filter(), a.First, a.After)
		})
	})
	invoicePagesOfAccountLoader = loader("invoicePagesOfAccount", func(r *Resolver) batch[*op.Page[*models.Invoice]] {
		return pagesOf(func(ctx context.Context, accounts []string, a payerInvoicesArgs) ([]op.Page[*models.Invoice], []error) {
			return r.Svc.Billing.Invoices.PagesOfAccounts(ctx, accounts, a.filter(), a.First, a.After)
		})
	})
	_ = pageEdge(invoicePagesOfCustomerLoader, "invoices", func(c *models.Customer) string { return c.ID.String() })
	_ = pageEdge(invoicePagesOfAccountLoader, "invoices", func(a *models.Account) string { return a.ID.String() })
)

// payerInvoicesArgs are the arguments of Customer.invoices and
// Account.invoices.
type payerInvoicesArgs struct {
	First        *int    `json:"first"`
	After        *string `json:"after"`
	Status       *string `json:"status"`
	Subscription *string `json:"subscription"`
}

func (a payerInvoicesArgs) filter() billing.InvoiceFilter {
	return billing.InvoiceFilter{Status: a.Status, Subscription: a.Subscription}
}
