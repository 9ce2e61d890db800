package invoices

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Invoices is the invoice family: reads from the kit, and Create, Update,
// Delete (invoice_write.go), Issue, Void, MarkUncollectible
// (invoice_actions.go) and Pay (invoice_pay.go).
type Invoices struct {
	op.Reader[models.Invoice, InvoiceFilter]
	// OfSubscriptions reads the newest invoices a batch of subscriptions
	// billed in one statement (Subscription.invoices); a payer's invoices
	// are pages (invoice_pages.go).
	OfSubscriptions op.Batch[[]*models.Invoice]
	svc             *Service
}

// RecentInvoices is how many invoices of each subscription a page of them
// reads in one batch: Subscription.invoices serves its first page from
// them.
const RecentInvoices = 100

// InvoicePosition is an invoice's place in the newest-first order (its
// connection cursor).
func InvoicePosition(inv *models.Invoice) op.Position { return invoiceTable.Position(inv) }

func newInvoices(s *Service) *Invoices {
	return &Invoices{Reader: op.Read[models.Invoice, InvoiceFilter](s.Kit, invoiceTable), svc: s,
		OfSubscriptions: (&op.Children[models.Invoice]{Table: invoiceTable, Parent: "subscription", Column: "subscription_id",
			Limit: RecentInvoices}).Bind(s.Kit)}
}

// invoiceTable reads invoices whole, in one statement: the lines and the
// payer (its short form) come in the invoice's row.
var invoiceTable = &op.Table[models.Invoice]{Resource: "invoice",
	Embedded: []op.Embedding[models.Invoice]{linesOfInvoice, customerOfInvoice, accountOfInvoice},
	Derive:   func(inv *models.Invoice, _ time.Time) { inv.Derive() }}

var (
	// linesOfInvoice are its lines, oldest first.
	linesOfInvoice = &op.Embed[models.Invoice, models.InvoiceLineItem]{Column: "invoice_id", As: "line_items_json",
		Order: "li.created, li.id",
		Into:  func(inv *models.Invoice) *[]*models.InvoiceLineItem { return &inv.LineItems }}
	// customerOfInvoice and accountOfInvoice are its payer, with what its
	// short form shows.
	customerOfInvoice = &op.EmbedOne[models.Invoice, models.Customer]{Column: "customer_id", As: "customer_json",
		Only: models.CustomerRefColumns, Into: func(inv *models.Invoice) **models.Customer { return &inv.PayerCustomer }}
	accountOfInvoice = &op.EmbedOne[models.Invoice, models.Account]{Column: "account_id", As: "account_json",
		Only: models.AccountRefColumns, Into: func(inv *models.Invoice) **models.Account { return &inv.PayerAccount }}
)

// InvoiceFilter is the list's filter (spec doc 2 §4.5). status takes the
// list values of §3 (draft, outstanding, due, overdue, paid, written_off,
// voided) and the object's own statuses (open, void, uncollectible), so a
// client filters by the status an invoice shows.
type InvoiceFilter struct {
	Customer     *string `query:"customer" filter:"customer_id,id"`
	Account      *string `query:"account" filter:"account_id,id"`
	Subscription *string `query:"subscription" filter:"subscription_id,id"`
	// Status is checked against its closed set and applied by Apply.
	Status *models.InvoiceListStatus `query:"status" filter:"-,enum"`

	// today is the date of the read (the kit's clock), which tells due
	// from overdue.
	today string
}

// Apply narrows the list to the status asked. Outstanding is every open
// invoice; due, those not past their due date (or without one); overdue,
// those past it.
func (f InvoiceFilter) Apply(q *bun.SelectQuery) *bun.SelectQuery {
	if f.Status == nil {
		return q
	}
	switch *f.Status {
	case "draft":
		return q.Where("inv.status = ?", models.InvoiceDraft)
	case "outstanding", "open":
		return q.Where("inv.status = ?", models.InvoiceOpen)
	case "due":
		return q.Where("inv.status = ?", models.InvoiceOpen).Where("(inv.due_date IS NULL OR inv.due_date >= ?::date)", f.today)
	case "overdue":
		return q.Where("inv.status = ?", models.InvoiceOpen).Where("inv.due_date < ?::date", f.today)
	case "paid":
		return q.Where("inv.status = ?", models.InvoicePaid)
	case "written_off", "uncollectible":
		return q.Where("inv.status = ?", models.InvoiceUncollectible)
	default: // voided, void
		return q.Where("inv.status = ?", models.InvoiceVoid)
	}
}

// List is the invoice list, newest first, filtered as of the clock's day.
func (is *Invoices) List(ctx context.Context, f InvoiceFilter, lp op.ListParams) (op.Page[*models.Invoice], error) {
	f.today = is.svc.Clock.Now().UTC().Format(time.DateOnly)
	return is.Reader.List(ctx, f, lp)
}
