// Package usage is the billing family of usage billing (docs/billing.md,
// "Usage billing"): meters and their metering events, the usage payer,
// billing credits, invoices of usage windows, auto-charge thresholds and
// the usage reports. Its parts share the usage payer and its locks, so
// they are one package; it bills through the invoices family.
package usage

import "github.com/frame-oss/payments-server/internal/platform/events"

// Event types of billing credits.
var EventBillingCreditExhausted = events.Declare("billing_credit.exhausted", "a billing credit is used up")
