package money

// Event types of the area (docs/payments.md lists them with what triggers
// each). API-DECISIONS §4 names created, succeeded, completed and failed;
// canceled and updated announce the two other changes a transfer can
// undergo, so that a webhook consumer sees every state change.
const (
	EventTransferCreated   = "transfer.created"
	EventTransferSucceeded = "transfer.succeeded"
	EventTransferFailed    = "transfer.failed"
	EventTransferCanceled  = "transfer.canceled"
	EventTransferUpdated   = "transfer.updated"
	// EventTransferCompleted announces that a succeeded transfer settled
	// (settlement.go).
	EventTransferCompleted = "transfer.completed"
)

// Event types of refunds and disputes (API-DECISIONS §4, and the real
// service's published types; docs/payments.md says when each is emitted).
const (
	EventRefundCreated  = "refund.created"
	EventRefundFailed   = "refund.failed"
	EventChargeRefunded = "charge.refunded"
	EventDisputeCreated = "charge.dispute.created"
	EventDisputeUpdated = "charge.dispute.updated"
	EventDisputeClosed  = "charge.dispute.closed"
)
