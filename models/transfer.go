package models

import (
	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type transferKind struct{}

func (transferKind) objectName() string { return "transfer" }

// Transfer is any movement of funds (spec doc 2 §2.7): a charge of a
// source payment method or a payout to a destination. Amount is what is
// charged, after promotion codes; the fee members are what the plan
// priced (internal/domain/fees).
type Transfer struct {
	bun.BaseModel `bun:"table:transfers,alias:tr"`
	Tenant

	ID                    uuid.UUID            `bun:"id,pk,type:uuid" json:"id"`
	Object                Object[transferKind] `bun:"-" json:"object"`
	Status                TransferStatus       `bun:"status" json:"status"`
	Amount                int64                `bun:"amount" json:"amount"`
	AmountBeforeDiscounts int64                `bun:"amount_before_discounts" json:"-"`
	AmountCaptured        int64                `bun:"amount_captured" json:"amount_captured"`
	// AmountRefunded is what the transfer's charge refunded (read from the
	// charge, never written here): the v2 shape's payment.amount_refunded.
	AmountRefunded             int64              `bun:"amount_refunded,scanonly" json:"-"`
	Currency                   string             `bun:"currency" json:"currency"`
	PlatformFee                int64              `bun:"platform_fee" json:"platform_fee"`
	FrameFee                   int64              `bun:"frame_fee" json:"frame_fee"`
	TotalFees                  int64              `bun:"total_fees" json:"total_fees"`
	GrossAmount                int64              `bun:"gross_amount" json:"gross_amount"`
	NetAmount                  int64              `bun:"net_amount" json:"net_amount"`
	Description                *string            `bun:"description" json:"description,omitempty"`
	FailureReason              *string            `bun:"failure_reason" json:"failure_reason"`
	FailureCode                *string            `bun:"failure_code" json:"failure_code"`
	FailureMessage             *string            `bun:"failure_message" json:"failure_message"`
	ChargeIntent               *string            `bun:"-" json:"charge_intent"`
	LatestCharge               *uuid.UUID         `bun:"charge_id,type:uuid" json:"latest_charge"`
	Payout                     *string            `bun:"-" json:"payout"`
	BillingAgreementID         *uuid.UUID         `bun:"billing_agreement_id,type:uuid" json:"billing_agreement"`
	FeeSource                  FeeSource          `bun:"fee_source" json:"fee_source"`
	FeeApplicationMode         FeeApplicationMode `bun:"fee_application_mode" json:"-"`
	TransferFeePlanID          uuid.UUID          `bun:"transfer_fee_plan_id,type:uuid" json:"transfer_fee_plan"`
	AuthorizationMode          AuthorizationMode  `bun:"authorization_mode" json:"authorization_mode"`
	ClientSecret               *string            `bun:"-" json:"client_secret"`
	Account                    uuid.UUID          `bun:"-" json:"account"`
	AccountID                  uuid.UUID          `bun:"account_id,type:uuid" json:"account_id"`
	SellerID                   *uuid.UUID         `bun:"seller_id,type:uuid" json:"seller_id"`
	SourcePaymentMethodID      *uuid.UUID         `bun:"source_payment_method_id,type:uuid" json:"-"`
	SourcePaymentMethod        *PaymentMethod     `bun:"rel:belongs-to,join:merchant_id=merchant_id,join:source_payment_method_id=id" json:"source_payment_method"`
	DestinationPaymentMethodID *uuid.UUID         `bun:"destination_payment_method_id,type:uuid" json:"-"`
	DestinationPaymentMethod   *PaymentMethod     `bun:"rel:belongs-to,join:merchant_id=merchant_id,join:destination_payment_method_id=id" json:"destination_payment_method"`
	BillableEventType          string             `bun:"billable_event_type" json:"-"`
	Reference                  *string            `bun:"reference" json:"reference"`
	SonarSessionID             *string            `bun:"sonar_session_id" json:"-"`
	CheckoutSessionID          *uuid.UUID         `bun:"checkout_session_id,type:uuid" json:"-"`
	NextAction                 *NextAction        `bun:"-" json:"next_action"`
	Metadata                   Metadata           `bun:"metadata,type:jsonb" json:"metadata"`
	Created                    wire.Timestamp     `bun:"created,type:timestamptz" json:"created"`
	Updated                    wire.Timestamp     `bun:"updated,type:timestamptz" json:"updated"`

	// SettlesAt is when a succeeded transfer settles, Completed when it
	// did (transfer.completed); the spec's transfer shape has neither, so
	// REST keeps them out and GraphQL shows them.
	SettlesAt wire.Timestamp `bun:"settles_at,nullzero" json:"-"`
	Completed wire.Timestamp `bun:"completed,nullzero" json:"-"`
}

// NextAction tells a client what a transfer waits for (3-D Secure).
type NextAction struct {
	Type           NextActionType    `json:"type"`
	UsePlatformSDK map[string]string `json:"use_platform_sdk"`
}

// Derive sets the members computed at read time.
func (t *Transfer) Derive() {
	t.Account = t.AccountID
	if t.Metadata == nil {
		t.Metadata = Metadata{}
	}
	t.NextAction = nil
	if t.Status == TransferRequires3DS && t.SourcePaymentMethodID != nil {
		t.NextAction = &NextAction{Type: NextActionUsePlatformSDK,
			UsePlatformSDK: map[string]string{"source": t.SourcePaymentMethodID.String()}}
	}
}

// IsCharge says whether the transfer charges a source.
func (t *Transfer) IsCharge() bool { return t.SourcePaymentMethodID != nil }
