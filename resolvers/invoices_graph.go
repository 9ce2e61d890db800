package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing"
)

// Invoices load by id (nodes, invoice) and their lines by invoice
// (Invoice.lineItems), each in one statement for a whole page.
var (
	invoiceLoader            = nodeLoader("invoice", func(r *Resolver) batch[*models.Invoice] { return r.Svc.Billing.Invoices.ByIDs })
	lineItemsOfInvoiceLoader = loader("lineItemsOfInvoice", func(r *Resolver) batch[[]*models.InvoiceLineItem] {
		return r.Svc.Billing.LineItems.OfInvoices
	})
	invoicesOfCustomerLoader = loader("invoicesOfCustomer", func(r *Resolver) batch[[]*models.Invoice] { return r.Svc.Billing.Invoices.OfCustomers })
)

// lineItemLoader finds an invoice's line by its own id (nodes).
var lineItemLoader = nodeLoader("invoiceLineItem", func(r *Resolver) batch[*models.InvoiceLineItem] { return r.Svc.Billing.LineItems.ByIDs })

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(invoicesOfCustomerLoader, "invoices", func(c *models.Customer) string { return c.ID.String() })
	_ = edge(lineItemsOfInvoiceLoader, "lineItems", func(i *models.Invoice) string { return i.ID.String() })
	_ = edge(customerLoader, "customer", func(i *models.Invoice) string { return idKey(i.CustomerID) })
	_ = edge(accountLoader, "account", func(i *models.Invoice) string { return idKey(i.AccountID) })
	_ = edge(chargeLoader, "charge", func(i *models.Invoice) string { return idKey(i.ChargeID) })
	_ = edge(productLoader, "product", func(li *models.InvoiceLineItem) string { return li.ProductID.String() })
)

func invoices(ctx context.Context, r *Resolver, first *int, after *string, f *model.InvoiceFilter) (*model.InvoiceConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Billing.Invoices.List, filterOf(f, func(g model.InvoiceFilter) billing.InvoiceFilter {
		return billing.InvoiceFilter{Customer: g.Customer, Account: g.Account, Subscription: g.Subscription, Status: g.Status}
	}), first, after, invoiceLoader, func(cursor string, inv *models.Invoice) *model.InvoiceEdge {
		return &model.InvoiceEdge{Cursor: cursor, Node: inv}
	})
	return &model.InvoiceConnection{Edges: edges, PageInfo: info}, err
}

// customerInvoices is Customer.invoices: its first page from the batch of
// the customers' newest invoices (one statement for a whole page of
// customers), a later page from the list.
func customerInvoices(ctx context.Context, r *Resolver, c *models.Customer, first *int, after *string) (*model.InvoiceConnection, error) {
	rows, err := load(ctx, invoicesOfCustomerLoader, c.ID.String())
	if err != nil {
		return nil, err
	}
	page, ok := firstPageOf(rows, first, after, billing.RecentInvoices, billing.InvoicePosition)
	if !ok {
		return invoices(ctx, r, first, after, &model.InvoiceFilter{Customer: textOf(c.ID.String())})
	}
	for i, inv := range page.Items {
		invoiceLoader.Prime(ctx, page.IDs[i], inv)
	}
	edges, info := connect(page, func(cursor string, inv *models.Invoice) *model.InvoiceEdge {
		return &model.InvoiceEdge{Cursor: cursor, Node: inv}
	})
	return &model.InvoiceConnection{Edges: edges, PageInfo: info}, nil
}

// textOf is a string's pointer, for a filter member.
func textOf(s string) *string { return &s }
