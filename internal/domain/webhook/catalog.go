package webhook

import "slices"

// AllEvents subscribes an endpoint to every event type, present and future.
const AllEvents = "*"

// catalogue is every event type the API documents (spec doc 1 §6, doc 2 §6,
// API-DECISIONS §4 and §5, and the real service's published event types),
// with what triggers it. docs/webhooks.md shows the same list; an endpoint
// may subscribe only to these (or to AllEvents), so a typo is refused at
// once instead of silently receiving nothing.
var catalogue = []Type{
	{"account.created", "an account is created"},
	{"account.updated", "an account's profile, metadata, external id or terms change"},
	{"account.activated", "an account becomes active"},
	{"account.restricted", "an account is restricted"},
	{"account.disabled", "an account is disabled (DELETE)"},
	{"capability.activated", "a capability becomes active"},
	{"capability.disabled", "a capability is disabled"},
	{"account.phone_verification.verified", "a phone verification attempt is verified"},
	{"account.phone_verification.failed", "a phone verification attempt fails"},
	{"account.identity_verification.approved", "an identity verification run is approved"},
	{"account.identity_verification.failed", "an identity verification run fails"},
	{"customer.identity_verification.created", "a customer identity verification is created"},
	{"customer.identity_verification.updated", "a customer identity verification changes"},
	{"platform.account.prefill.completed", "the first successful KYC prefill confirmation"},
	{"customer.created", "a customer is created"},
	{"customer.updated", "a customer changes"},
	{"customer.deleted", "a customer is deleted"},
	{"product.created", "a product is created"},
	{"product.updated", "a product changes"},
	{"product.deleted", "a product is deleted"},
	{"payment_method.attached", "a payment method is attached"},
	{"payment_method.updated", "a payment method changes"},
	{"payment_method.detached", "a payment method is detached"},
	{"customer.subscription.created", "a customer-owned subscription is created"},
	{"customer.subscription.updated", "any change of a customer-owned subscription"},
	{"customer.subscription.incomplete", "a subscription's first payment needs action"},
	{"subscription.renewal.completed", "a subscription cycle renews"},
	{"invoice.created", "an invoice is created"},
	{"invoice.issued", "an invoice is issued (draft to open)"},
	{"invoice.updated", "an invoice changes"},
	{"invoice.paid", "an invoice is paid"},
	{"invoice.voided", "an invoice is voided"},
	{"invoice.overdue", "an invoice passes its due date unpaid"},
	{"invoice.deleted", "a draft invoice is deleted"},
	{"invoice.line_item.created", "a line item is added to an invoice"},
	{"invoice.line_item.updated", "an invoice line item changes"},
	{"invoice.line_item.deleted", "an invoice line item is removed"},
	{"billing_credit.exhausted", "a billing credit is used up"},
	{"transfer.created", "a transfer is created"},
	{"transfer.succeeded", "a transfer succeeds"},
	{"transfer.completed", "a transfer's funds settle"},
	{"transfer.failed", "a transfer fails (a decline is recorded, not thrown)"},
	{"transfer.canceled", "a transfer is canceled"},
	{"transfer.updated", "a transfer's description or metadata change, it waits for capture or 3-D Secure, or it is refunded in full"},
	{"charge_intent.created", "a charge intent is created"},
	{"charge_intent.succeeded", "a charge intent succeeds"},
	{"charge_intent.canceled", "a charge intent is canceled"},
	{"charge_intent.payment_failed", "a charge intent's payment fails"},
	{"charge_intent.requires_action", "a charge intent needs customer action (3-D Secure)"},
	{"charge_intent.payment_action_required", "a charge intent's payment needs action"},
	{"charge_intent.updated", "a charge intent changes otherwise (PATCH, authorized for manual capture, partly captured)"},
	{"charge.captured", "a charge is captured"},
	{"charge.pending", "a charge is pending"},
	{"charge.expired", "an uncaptured charge expires"},
	{"charge.refunded", "a charge is refunded"},
	{"refund.created", "a refund is created"},
	{"refund.failed", "a refund fails"},
	{"charge.dispute.created", "a dispute is opened on a charge"},
	{"charge.dispute.updated", "a dispute changes"},
	{"charge.dispute.closed", "a dispute is decided (won or lost)"},
	{"payment_link.created", "a payment link is created"},
	{"payout.created", "a payout from the instant-payout balance is created"},
	{"payout.succeeded", "a payout is sent"},
	{"payout.failed", "a payout's destination declines it (recorded, nothing moves)"},
	{"payout_funding_schedule.created", "a payout funding schedule is created"},
	{"payout_funding_schedule.updated", "a payout funding schedule changes"},
	{"payout_funding_entry.created", "the instant-payout balance is funded (a top-up or a schedule's run)"},
}

// Type is one event type of the catalogue and what triggers it.
type Type struct {
	Name    string
	Trigger string
}

// Catalogue returns every event type, in documentation order.
func Catalogue() []Type { return slices.Clone(catalogue) }

// Known reports whether code is an event type an endpoint may subscribe to.
func Known(code string) bool {
	if code == AllEvents {
		return true
	}
	for _, t := range catalogue {
		if t.Name == code {
			return true
		}
	}
	return false
}
