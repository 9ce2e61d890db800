package billing

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

// invoiceTable reads invoices whole, in one statement: the payer's short
// form and the lines come as columns of the invoice's row.
var invoiceTable = &op.Table[models.Invoice]{Resource: "invoice", Columns: invoiceColumns,
	Derive: func(inv *models.Invoice, _ time.Time) { inv.Derive() }}

// lineItemsColumn is an invoice's lines as a JSON array in their wire
// shape, oldest first.
const lineItemsColumn = `(SELECT coalesce(json_agg(json_build_object('id', li.id, 'object', 'invoice_line_item',
	'invoice', li.invoice_id, 'product', li.product_id, 'description', li.description, 'quantity', li.quantity,
	'unit_amount_cents', li.unit_amount_cents, 'unit_amount_currency', li.unit_amount_currency,
	'amount', li.quantity::bigint * li.unit_amount_cents, 'kind', li.kind,
	'period_start', floor(extract(epoch FROM li.period_start))::bigint,
	'period_end', floor(extract(epoch FROM li.period_end))::bigint, 'proportion', li.proportion, 'livemode', li.livemode,
	'event_name', li.event_name, 'usage', li.usage::text, 'credits_applied', li.credits_applied::text, 'meter_id', li.meter_id,
	'created', floor(extract(epoch FROM li.created))::bigint, 'updated', floor(extract(epoch FROM li.updated))::bigint)
	ORDER BY li.created, li.id), '[]')
	FROM invoice_line_items AS li WHERE li.merchant_id = inv.merchant_id AND li.livemode = inv.livemode
	AND li.invoice_id = inv.id) AS line_items`

const customerRefColumn = `(SELECT json_build_object('id', cu.id, 'object', 'customer', 'name', cu.name)
	FROM customers AS cu WHERE cu.merchant_id = inv.merchant_id AND cu.livemode = inv.livemode
	AND cu.id = inv.customer_id) AS customer_ref`

const accountRefColumn = `(SELECT json_build_object('id', a.id, 'object', 'account', 'name',
	coalesce(a.profile #>> '{business,legal_business_name}', nullif(concat_ws(' ',
	a.profile #>> '{individual,name,first_name}', a.profile #>> '{individual,name,last_name}'), '')))
	FROM accounts AS a WHERE a.merchant_id = inv.merchant_id AND a.livemode = inv.livemode
	AND a.id = inv.account_id) AS account_ref`

func invoiceColumns(q *bun.SelectQuery) *bun.SelectQuery {
	return q.ColumnExpr(lineItemsColumn).ColumnExpr(customerRefColumn).ColumnExpr(accountRefColumn)
}

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
