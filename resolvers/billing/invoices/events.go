// Package invoices is the billing family of invoices and their line items:
// reading, writing, issuing and paying them, their numbers and the overdue
// notice. It is the bottom of billing: subscriptions and usage bill through
// it, and it reaches them only through what they register on it.
package invoices

import "github.com/frame-oss/payments-server/internal/platform/events"

// Event types of invoices and their line items.
var (
	EventInvoiceCreated         = events.Declare("invoice.created", "an invoice is created")
	EventInvoiceIssued          = events.Declare("invoice.issued", "an invoice is issued (draft to open)")
	EventInvoiceUpdated         = events.Declare("invoice.updated", "an invoice changes")
	EventInvoicePaid            = events.Declare("invoice.paid", "an invoice is paid")
	EventInvoiceVoided          = events.Declare("invoice.voided", "an invoice is voided")
	EventInvoiceOverdue         = events.Declare("invoice.overdue", "an invoice passes its due date unpaid")
	EventInvoiceDeleted         = events.Declare("invoice.deleted", "a draft invoice is deleted")
	EventInvoiceLineItemCreated = events.Declare("invoice.line_item.created", "a line item is added to an invoice")
	EventInvoiceLineItemUpdated = events.Declare("invoice.line_item.updated", "an invoice line item changes")
	EventInvoiceLineItemDeleted = events.Declare("invoice.line_item.deleted", "an invoice line item is removed")
)
