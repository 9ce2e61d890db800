package models

import (
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type payoutKind struct{}

func (payoutKind) objectName() string { return "payout" }

// Payout is money sent from the merchant's instant-payout balance to an
// account's own card or bank account (spec doc 2 §2.7, docs/funding.md).
// PaymentMethod and PaymentMethodID carry the same id: the spec names it
// payment_method, the real service's SDK reads payment_method_id.
type Payout struct {
	bun.BaseModel `bun:"table:payouts,alias:po"`
	Tenant

	ID                 uuid.UUID          `bun:"id,pk,type:uuid" json:"id"`
	Object             Object[payoutKind] `bun:"-" json:"object"`
	Status             PayoutStatus       `bun:"status" json:"status"`
	Speed              *PayoutSpeed       `bun:"speed" json:"speed"`
	Amount             int64              `bun:"amount" json:"amount"`
	Currency           string             `bun:"currency" json:"currency"`
	PaymentMethodID    uuid.UUID          `bun:"payment_method_id,type:uuid" json:"payment_method"`
	PaymentMethodIDSDK uuid.UUID          `bun:"-" json:"payment_method_id"`
	AccountID          uuid.UUID          `bun:"account_id,type:uuid" json:"account_id"`
	ProcessorFee       int64              `bun:"processor_fee" json:"processor_fee"`
	MerchantFee        *int64             `bun:"merchant_fee" json:"merchant_fee"`
	CustomerFee        *int64             `bun:"customer_fee" json:"customer_fee"`
	BillingAgreementID *uuid.UUID         `bun:"billing_agreement_id,type:uuid" json:"billing_agreement"`
	TransferFeePlanID  *uuid.UUID         `bun:"transfer_fee_plan_id,type:uuid" json:"transfer_fee_plan"`
	FailureCode        *string            `bun:"failure_code" json:"failure_code"`
	FailureMessage     *string            `bun:"failure_message" json:"failure_message"`
	Metadata           Metadata           `bun:"metadata,type:jsonb" json:"metadata"`
	Created            wire.Timestamp     `bun:"created,type:timestamptz" json:"created"`
	Updated            wire.Timestamp     `bun:"updated,type:timestamptz" json:"updated"`
	Succeeded          wire.Timestamp     `bun:"succeeded,type:timestamptz,nullzero" json:"succeeded"`
	Failed             wire.Timestamp     `bun:"failed,type:timestamptz,nullzero" json:"failed"`
}

// Derive sets the members computed at read time.
func (p *Payout) Derive() {
	p.PaymentMethodIDSDK = p.PaymentMethodID
	if p.Metadata == nil {
		p.Metadata = Metadata{}
	}
}

// CreatePayoutInput is the body of POST /v1/payouts (spec doc 2 §4.7).
// payment_method_id is accepted as another name of payment_method (the
// real service's SDK sends it).
type CreatePayoutInput struct {
	PaymentMethod   *string       `json:"payment_method"`
	PaymentMethodID *string       `json:"payment_method_id"`
	Amount          *int64        `json:"amount" range:"amount"`
	Currency        *string       `json:"currency"`
	Speed           *PayoutSpeed  `json:"speed"`
	Metadata        MetadataInput `json:"metadata"`
}

// PayoutRequest is a validated create.
type PayoutRequest struct {
	PaymentMethodID uuid.UUID
	Amount          int64
	Currency        string
	Speed           *PayoutSpeed
	Metadata        Metadata
}

// Validate checks the create's own members, every problem at once. Whether
// speed fits the destination is the operation's rule (it needs the
// payment method).
func (in *CreatePayoutInput) Validate() (*PayoutRequest, error) {
	var f apierr.Fields
	r := &PayoutRequest{Currency: "USD"}
	pm := in.PaymentMethod
	switch {
	case pm != nil && in.PaymentMethodID != nil && *pm != *in.PaymentMethodID:
		f.Add("payment_method_id", "must equal payment_method when both are given")
	case pm == nil:
		pm = in.PaymentMethodID
	}
	if pm == nil {
		f.Add("payment_method", "is required")
	} else if id, ok := ids.Parse(*pm); !ok {
		f.Add("payment_method", "is not a valid id")
	} else {
		r.PaymentMethodID = id
	}
	r.Amount = checkAmount(&f, "amount", in.Amount, true)
	switch {
	case in.Currency == nil:
		f.Add("currency", "is required")
	case !checkCurrency(&f, "currency", in.Currency):
	case !strings.EqualFold(*in.Currency, "USD"):
		f.Add("currency", "must be USD: payouts are sent in US dollars only")
	}
	if checkOneOf(&f, "speed", in.Speed, PayoutSpeeds...) {
		r.Speed = in.Speed
	}
	checkMetadata(&f, "metadata", in.Metadata)
	r.Metadata = MergeMetadata(nil, in.Metadata)
	CheckMetadataSize(&f, "metadata", r.Metadata)
	return r, f.Err()
}
