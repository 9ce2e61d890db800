package resolvers

import (
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing"
)

// Customer.invoices and Account.invoices are page edges: the page each
// payer's field asks (first, after, the invoice list's status and
// subscription filters) for all the payers of a level in one statement
// per distinct set of arguments.
var invoicePagesOfAccountLoader, invoicePagesOfCustomerLoader = payerPageEdges[payerInvoicesArgs]("invoice", "invoices",
	func(r *Resolver) *billing.Invoices { return r.Svc.Billing.Invoices },
	(*billing.Invoices).PagesOfAccounts, (*billing.Invoices).PagesOfCustomers)

// payerInvoicesArgs are the arguments of Customer.invoices and
// Account.invoices.
type payerInvoicesArgs struct {
	pageArgs
	Status       *string `json:"status"`
	Subscription *string `json:"subscription"`
}

func (a payerInvoicesArgs) filter() billing.InvoiceFilter {
	return billing.InvoiceFilter{Status: enumArg[models.InvoiceListStatus](a.Status), Subscription: a.Subscription}
}
