// Package subscriptions is the billing family of subscriptions and their
// change logs: creating, changing, renewing and dunning them. It bills
// through the invoices family and registers on it what paying a
// subscription's invoice does to the subscription.
package subscriptions

import "github.com/frame-oss/payments-server/internal/platform/events"

// Event types of subscriptions.
var (
	EventSubscriptionCreated    = events.Declare("customer.subscription.created", "a customer-owned subscription is created")
	EventSubscriptionUpdated    = events.Declare("customer.subscription.updated", "any change of a customer-owned subscription")
	EventSubscriptionIncomplete = events.Declare("customer.subscription.incomplete", "a subscription's first payment needs action")
	EventRenewalCompleted       = events.Declare("subscription.renewal.completed", "a subscription cycle renews")
)
