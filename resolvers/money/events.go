package money

import "github.com/frame-oss/payments-server/internal/platform/events"

// Event types of transfers (docs/payments.md says when each is emitted).
// API-DECISIONS §4 names created, succeeded, completed and failed; canceled
// and updated announce the two other changes a transfer can undergo, so
// that a webhook consumer sees every state change.
var (
	EventTransferCreated   = events.Declare("transfer.created", "a transfer is created")
	EventTransferSucceeded = events.Declare("transfer.succeeded", "a transfer succeeds")
	EventTransferFailed    = events.Declare("transfer.failed", "a transfer fails (a decline is recorded, not thrown)")
	EventTransferCanceled  = events.Declare("transfer.canceled", "a transfer is canceled")
	EventTransferUpdated   = events.Declare("transfer.updated", "a transfer's description or metadata change, it waits for capture or 3-D Secure, or it is refunded in full")
	// EventTransferCompleted announces that a succeeded transfer settled
	// (settlement.go).
	EventTransferCompleted = events.Declare("transfer.completed", "a transfer's funds settle")
)

// Event types of charge intents (the official SDK's names; updated is
// this server's, for changes that are none of the others).
var (
	EventChargeIntentCreated               = events.Declare("charge_intent.created", "a charge intent is created")
	EventChargeIntentSucceeded             = events.Declare("charge_intent.succeeded", "a charge intent succeeds")
	EventChargeIntentCanceled              = events.Declare("charge_intent.canceled", "a charge intent is canceled")
	EventChargeIntentPaymentFailed         = events.Declare("charge_intent.payment_failed", "a charge intent's payment fails")
	EventChargeIntentRequiresAction        = events.Declare("charge_intent.requires_action", "a charge intent needs customer action (3-D Secure)")
	EventChargeIntentPaymentActionRequired = events.Declare("charge_intent.payment_action_required", "a charge intent's payment needs action")
	EventChargeIntentUpdated               = events.Declare("charge_intent.updated", "a charge intent changes otherwise (PATCH, authorized for manual capture, partly captured)")
)

// Event types of refunds and disputes (API-DECISIONS §4, and the real
// service's published types; docs/payments.md says when each is emitted).
var (
	EventRefundCreated  = events.Declare("refund.created", "a refund is created")
	EventRefundFailed   = events.Declare("refund.failed", "a refund fails")
	EventChargeRefunded = events.Declare("charge.refunded", "a charge is refunded")
	EventDisputeCreated = events.Declare("charge.dispute.created", "a dispute is opened on a charge")
	EventDisputeUpdated = events.Declare("charge.dispute.updated", "a dispute changes")
	EventDisputeClosed  = events.Declare("charge.dispute.closed", "a dispute is decided (won or lost)")
)

// Event types the real service publishes for charges and payment links.
// Nothing emits them yet (a charge's changes are announced by its
// transfer's or charge intent's events, and payment links are not built);
// they are declared so that an integration subscribing to them is accepted
// (docs/webhooks.md).
var (
	EventChargeCaptured     = events.Declare("charge.captured", "a charge is captured")
	EventChargePending      = events.Declare("charge.pending", "a charge is pending")
	EventChargeExpired      = events.Declare("charge.expired", "an uncaptured charge expires")
	EventPaymentLinkCreated = events.Declare("payment_link.created", "a payment link is created")
)

// Event types of the SDK's sessions beyond the spec (docs/sandbox.md,
// "Resources from the SDK"): created when one opens, updated when its
// status or metadata change.
var (
	EventChargeSessionCreated      = events.Declare("charge_session.created", "a charge session is created")
	EventChargeSessionUpdated      = events.Declare("charge_session.updated", "a charge session is completed, canceled or its metadata change")
	EventSonarSessionCreated       = events.Declare("sonar_session.created", "a Sonar session is created")
	EventSonarSessionUpdated       = events.Declare("sonar_session.updated", "a Sonar session is completed, canceled or its metadata change")
	EventPaymentLinkSessionCreated = events.Declare("payment_link_session.created", "a payment link session is created")
)
