package models

import (
	"strconv"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type refundKind struct{}

func (refundKind) objectName() string { return "refund" }

// Refund returns captured money of one charge to the buyer's payment
// method (spec doc 2 §2.9). It names the charge it acted on and the
// object that charge was made for: a transfer or a charge intent.
type Refund struct {
	bun.BaseModel `bun:"table:refunds,alias:rf"`
	Tenant

	ID             uuid.UUID          `bun:"id,pk,type:uuid" json:"id"`
	Object         Object[refundKind] `bun:"-" json:"object"`
	Amount         int64              `bun:"amount" json:"amount"`
	Currency       string             `bun:"currency" json:"currency"`
	Status         RefundStatus       `bun:"status" json:"status"`
	Reason         *RefundReason      `bun:"reason" json:"reason"`
	FailureReason  *string            `bun:"failure_reason" json:"failure_reason"`
	ChargeID       uuid.UUID          `bun:"charge_id,type:uuid" json:"charge"`
	TransferID     *uuid.UUID         `bun:"transfer_id,type:uuid" json:"transfer"`
	ChargeIntentID *uuid.UUID         `bun:"charge_intent_id,type:uuid" json:"charge_intent"`
	Created        wire.Timestamp     `bun:"created,type:timestamptz" json:"created"`
	Updated        wire.Timestamp     `bun:"updated,type:timestamptz" json:"updated"`
	// AccountID and CustomerID are the charge's payer, copied from the
	// charge on insert (by the writer, and by the database for any writer:
	// migration 00024). They page a payer's refunds
	// (Account.refunds, Customer.refunds) and are not on the REST wire.
	AccountID  *uuid.UUID `bun:"account_id,type:uuid" json:"-"`
	CustomerID *uuid.UUID `bun:"customer_id,type:uuid" json:"-"`
}

// CreateRefundInput is the body of POST /v1/refunds (spec doc 2 §4.10).
type CreateRefundInput struct {
	ChargeIntent *string `json:"charge_intent"`
	Transfer     *string `json:"transfer"`
	Amount       *int64  `json:"amount" range:"amount"`
	Reason       *string `json:"reason"`
}

// RefundRequest is a validated create: exactly one of the two targets,
// parsed.
type RefundRequest struct {
	ChargeIntentID, TransferID *uuid.UUID
	// Amount is nil for "the remaining amount".
	Amount *int64
	Reason *RefundReason
}

// Validate checks the create, every problem at once: exactly one of
// charge_intent and transfer, a positive amount, a known reason.
func (in *CreateRefundInput) Validate() (*RefundRequest, error) {
	var f apierr.Fields
	r := &RefundRequest{Amount: in.Amount, Reason: (*RefundReason)(in.Reason)}
	switch {
	case in.ChargeIntent == nil && in.Transfer == nil:
		f.Add("transfer", "or charge_intent is required")
	case in.ChargeIntent != nil && in.Transfer != nil:
		f.Add("charge_intent", "is not accepted with transfer")
	default:
		r.ChargeIntentID = parseOptionalID(&f, "charge_intent", in.ChargeIntent)
		r.TransferID = parseOptionalID(&f, "transfer", in.Transfer)
	}
	if in.Amount != nil && *in.Amount <= 0 {
		f.Add("amount", "must be a positive integer")
	} else if in.Amount != nil && *in.Amount > MaxAmount {
		f.Add("amount", "must be at most "+strconv.FormatInt(MaxAmount, 10))
	}
	checkOneOf(&f, "reason", in.Reason, RefundReasonDuplicate, RefundReasonFraudulent, RefundReasonRequestedByCustomer)
	return r, f.Err()
}
