package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/invoices"
)

// Invoices load by id (nodes, invoice), in one statement for a whole
// page, with their lines (Invoice.lineItems) in it.
var invoiceLoader = nodeLoader("invoice", func(r *Resolver) batch[*models.Invoice] { return r.Svc.Billing.Invoices.ByIDs })

// lineItemLoader finds an invoice's line by its own id (nodes).
var lineItemLoader = nodeLoader("invoiceLineItem", func(r *Resolver) batch[*models.InvoiceLineItem] { return r.Svc.Billing.LineItems.ByIDs })

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(customerLoader, "customer", func(i *models.Invoice) string { return idKey(i.CustomerID) })
	_ = edge(accountLoader, "account", func(i *models.Invoice) string { return idKey(i.AccountID) })
	_ = edge(chargeLoader, "charge", func(i *models.Invoice) string { return idKey(i.ChargeID) })
	_ = edge(productLoader, "product", func(li *models.InvoiceLineItem) string { return li.ProductID.String() })
)

func listInvoices(ctx context.Context, r *Resolver, first *int, after *string, f *invoices.InvoiceFilter) (*model.InvoiceConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Billing.Invoices.List, filterOf(f, same[invoices.InvoiceFilter]), first, after, invoiceLoader, func(cursor string, inv *models.Invoice) *model.InvoiceEdge {
		return &model.InvoiceEdge{Cursor: cursor, Node: inv}
	})
	return &model.InvoiceConnection{Edges: edges, PageInfo: info}, err
}

// textOf is a string's pointer, for a filter member.
func textOf(s string) *string { return &s }
