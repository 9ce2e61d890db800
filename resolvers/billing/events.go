// Package billing is the area of subscriptions, invoices and billing
// credits. Its event types are declared ahead of the area, so that webhook
// endpoints can subscribe to them today (spec doc 1 §6, API-DECISIONS §4);
// nothing emits them until the area is built.
package billing

import "github.com/frame-oss/payments-server/internal/platform/events"

// Event types of subscriptions.
var (
	EventSubscriptionCreated    = events.Declare("customer.subscription.created", "a customer-owned subscription is created")
	EventSubscriptionUpdated    = events.Declare("customer.subscription.updated", "any change of a customer-owned subscription")
	EventSubscriptionIncomplete = events.Declare("customer.subscription.incomplete", "a subscription's first payment needs action")
	EventRenewalCompleted       = events.Declare("subscription.renewal.completed", "a subscription cycle renews")
)

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

// Event types of billing credits.
var EventBillingCreditExhausted = events.Declare("billing_credit.exhausted", "a billing credit is used up")
