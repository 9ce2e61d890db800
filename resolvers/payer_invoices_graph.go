package resolvers

import (
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/invoices"
)

// Customer.invoices and Account.invoices are page edges: the page each
// payer's field asks (first, after, the invoice list's status and
// subscription filters) for all the payers of a level in one statement
// per distinct set of arguments.
var invoicePagesOfAccountLoader, invoicePagesOfCustomerLoader = payerPageEdges[payerInvoicesArgs]("invoice", "invoices",
	func(r *Resolver) *invoices.Invoices { return r.Svc.Billing.Invoices },
	(*invoices.Invoices).PagesOfAccounts, (*invoices.Invoices).PagesOfCustomers)

// payerInvoicesArgs are the arguments of Customer.invoices and
// Account.invoices.
type payerInvoicesArgs struct {
	pageArgs
	Status       *string `json:"status"`
	Subscription *string `json:"subscription"`
}

func (a payerInvoicesArgs) filter() invoices.InvoiceFilter {
	return invoices.InvoiceFilter{Status: enumArg[models.InvoiceListStatus](a.Status), Subscription: a.Subscription}
}
