package models

import (
	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type chargeKind struct{}

func (chargeKind) objectName() string { return "charge" }

// Charge is one processor answer to a charge-backed flow (spec doc 2 §2.9):
// the charge of a transfer or of a charge intent, approved or declined.
// Refunds and disputes act on it. Both the spec's names (customer,
// account, payment_method, charge_intent) and the official SDK's
// (customer_id, payment_method_id, charge_intent_id) are rendered, since
// integrations read either.
type Charge struct {
	bun.BaseModel `bun:"table:charges,alias:ch"`
	Tenant

	ID                      uuid.UUID          `bun:"id,pk,type:uuid" json:"id"`
	Object                  Object[chargeKind] `bun:"-" json:"object"`
	Amount                  int64              `bun:"amount" json:"amount"`
	Currency                string             `bun:"currency" json:"currency"`
	Status                  ChargeStatus       `bun:"status" json:"status"`
	FailureCode             *string            `bun:"failure_code" json:"failure_code"`
	FailureMessage          *string            `bun:"failure_message" json:"failure_message"`
	FailureCategory         *string            `bun:"failure_category" json:"failure_category"`
	Description             *string            `bun:"description" json:"description"`
	AcquirerReferenceNumber *string            `bun:"acquirer_reference_number" json:"acquirer_reference_number"`
	AuthorizationCode       *string            `bun:"authorization_code" json:"authorization_code"`
	PaymentMethodDetails    *PaymentMethod     `bun:"rel:belongs-to,join:merchant_id=merchant_id,join:payment_method_id=id" json:"payment_method_details"`
	PaymentMethodID         uuid.UUID          `bun:"payment_method_id,type:uuid" json:"payment_method_id"`
	PaymentMethod           uuid.UUID          `bun:"-" json:"payment_method"`
	CustomerID              *uuid.UUID         `bun:"customer_id,type:uuid" json:"customer_id,omitempty"`
	Customer                *uuid.UUID         `bun:"-" json:"customer"`
	AccountID               *uuid.UUID         `bun:"account_id,type:uuid" json:"account_id"`
	Account                 *uuid.UUID         `bun:"-" json:"account"`
	AmountCaptured          int64              `bun:"amount_captured" json:"amount_captured"`
	AmountRefunded          int64              `bun:"amount_refunded" json:"amount_refunded"`
	Captured                bool               `bun:"captured" json:"captured"`
	Disputed                bool               `bun:"disputed" json:"disputed"`
	Refunded                bool               `bun:"-" json:"refunded"`
	RefundReason            *RefundReason      `bun:"refund_reason" json:"refund_reason"`
	NetAmount               int64              `bun:"net_amount" json:"net_amount"`
	ChargeIntentID          *uuid.UUID         `bun:"charge_intent_id,type:uuid" json:"charge_intent_id,omitempty"`
	ChargeIntent            *uuid.UUID         `bun:"-" json:"charge_intent"`
	TransferID              *uuid.UUID         `bun:"transfer_id,type:uuid" json:"transfer"`
	InvoiceID               *uuid.UUID         `bun:"invoice_id,type:uuid" json:"invoice"`
	RevenueSplit            map[string]any     `bun:"-" json:"revenue_split"`
	Metadata                Metadata           `bun:"metadata,type:jsonb" json:"metadata"`
	Created                 wire.Timestamp     `bun:"created,type:timestamptz" json:"created"`
	Updated                 wire.Timestamp     `bun:"updated,type:timestamptz" json:"updated"`
}

// Derive sets the members computed at read time: the aliases and
// `refunded`, true once everything captured was refunded.
func (c *Charge) Derive() {
	c.PaymentMethod, c.Customer, c.Account, c.ChargeIntent = c.PaymentMethodID, c.CustomerID, c.AccountID, c.ChargeIntentID
	c.Refunded = c.AmountCaptured > 0 && c.AmountRefunded == c.AmountCaptured
	if c.Metadata == nil {
		c.Metadata = Metadata{}
	}
}

// ChargeTrace is a charge with the ledger journals that moved its money
// (GET /v1/charges/{id}/trace: spec doc 2 §2.9 "the trace form adds
// ledger {journals}"). charge_id and events are what the official SDK's
// ChargeTrace reads: the charge's id and the events of the object it was
// made for, oldest first.
type ChargeTrace struct {
	*Charge
	Ledger   ChargeLedger `json:"ledger"`
	ChargeID uuid.UUID    `json:"charge_id"`
	Events   []TraceEvent `json:"events"`
}

// ChargeLedger holds a trace's journals, oldest first.
type ChargeLedger struct {
	Journals []*LedgerJournal `json:"journals"`
}

// TraceEvent is one event in a charge's trace.
type TraceEvent struct {
	ID      uuid.UUID      `json:"id"`
	Type    string         `json:"type"`
	Created wire.Timestamp `json:"created"`
	Data    any            `json:"data"`
}
