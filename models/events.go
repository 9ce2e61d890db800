package models

import "github.com/frame-oss/payments-server/internal/platform/events"

// Event types of payment methods. They are declared with the wire shape,
// not in an area, because more than one area changes payment methods (a
// customer's block blocks them, its deletion detaches them).
var (
	EventPaymentMethodCreated   = events.Declare("payment_method.created", "a payment method is created")
	EventPaymentMethodUpdated   = events.Declare("payment_method.updated", "a payment method changes")
	EventPaymentMethodAttached  = events.Declare("payment_method.attached", "a payment method is attached")
	EventPaymentMethodDetached  = events.Declare("payment_method.detached", "a payment method is detached")
	EventPaymentMethodBlocked   = events.Declare("payment_method.blocked", "a payment method is blocked on its own (POST /v1/payment_methods/{id}/block)")
	EventPaymentMethodUnblocked = events.Declare("payment_method.unblocked", "a blocked payment method is unblocked")
)
