package models

import (
	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type paymentLinkSessionKind struct{}

func (paymentLinkSessionKind) objectName() string { return "payment_link_session" }

// PaymentLinkURLBase is where a payment link session's url sends the payer
// in the sandbox, which hosts no payment page.
const PaymentLinkURLBase = "https://pay.frame.test/link/"

// PaymentLinkSession is the SDK's hosted payment page (frame-node's
// PaymentLinkSession), for an amount and a customer when given.
type PaymentLinkSession struct {
	bun.BaseModel `bun:"table:payment_link_sessions,alias:pls"`
	Tenant

	ID         uuid.UUID                      `bun:"id,pk,type:uuid" json:"id"`
	Object     Object[paymentLinkSessionKind] `bun:"-" json:"object"`
	URL        string                         `bun:"-" json:"url"`
	Status     PaymentLinkSessionStatus       `bun:"status" json:"status"`
	Amount     *int64                         `bun:"amount" json:"amount"`
	Currency   *string                        `bun:"currency" json:"currency"`
	CustomerID *uuid.UUID                     `bun:"customer_id,type:uuid" json:"customer_id"`
	// ClientReferenceID is the merchant's own reference for the session
	// (the SDK sends it; its Ruby client reads it back), null when none.
	ClientReferenceID *string        `bun:"client_reference_id" json:"client_reference_id"`
	Metadata          Metadata       `bun:"metadata,type:jsonb" json:"metadata"`
	Created           wire.Timestamp `bun:"created" json:"created"`
	Updated           wire.Timestamp `bun:"updated" json:"updated"`
	URLToken          string         `bun:"url_token" json:"-"`
}

// maxClientReferenceLength bounds a session's client_reference_id.
const maxClientReferenceLength = 255

// CreatePaymentLinkSessionInput is POST /v1/payment_link_sessions.
type CreatePaymentLinkSessionInput struct {
	Amount            *int64        `json:"amount" range:"amount"`
	Currency          *string       `json:"currency"`
	CustomerID        *string       `json:"customer_id"`
	ClientReferenceID *string       `json:"client_reference_id"`
	Metadata          MetadataInput `json:"metadata"`
}

// Validate checks the input, every field at once: an amount, when given,
// in minor units with its currency (USD when none is given).
func (in *CreatePaymentLinkSessionInput) Validate() error {
	var f apierr.Fields
	if in.Amount != nil {
		checkAmount(&f, "amount", in.Amount, true)
	}
	if c := checkChargeCurrency(&f, "currency", in.Currency, false); c != nil {
		in.Currency = c
	}
	parseOptionalID(&f, "customer_id", in.CustomerID)
	checkText(&f, "client_reference_id", in.ClientReferenceID, maxClientReferenceLength, false)
	checkMetadata(&f, "metadata", in.Metadata)
	CheckMetadataSize(&f, "metadata", MergeMetadata(nil, in.Metadata))
	return f.Err()
}
