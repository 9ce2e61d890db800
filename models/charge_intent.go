package models

import (
	"encoding/json"
	"reflect"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type chargeIntentKind struct{}

func (chargeIntentKind) objectName() string { return "charge_intent" }

// ChargeIntent collects one payment (spec doc 2 §2.9; deprecated in favour
// of transfers, kept wire-compatible). Amount is what is charged, after
// promotion codes; currency is lowercase. Customer and Account are the
// payer's objects as a secret key sees them (the reads fill them); a
// publishable key's or the intent's own client secret's response leaves
// them out with metadata, revenue_split and order (SetPublic, spec doc 2
// §5.3). ClientSecret is shown when the intent is created only: the server
// keeps its hash.
type ChargeIntent struct {
	bun.BaseModel `bun:"table:charge_intents,alias:ci"`
	Tenant

	ID                    uuid.UUID                `bun:"id,pk,type:uuid" json:"id"`
	Object                Object[chargeIntentKind] `bun:"-" json:"object"`
	Amount                int64                    `bun:"amount" json:"amount"`
	AmountBeforeDiscounts int64                    `bun:"amount_before_discounts" json:"-"`
	Currency              string                   `bun:"currency" json:"currency"`
	Status                ChargeIntentStatus       `bun:"status" json:"status"`
	ClientSecret          *string                  `bun:"-" json:"client_secret,omitempty"`
	AuthorizationMode     AuthorizationMode        `bun:"authorization_mode" json:"authorization_mode"`
	Description           *string                  `bun:"description" json:"description"`
	FailureDescription    *string                  `bun:"failure_description" json:"failure_description"`
	ReferenceID           *string                  `bun:"reference_id" json:"reference_id"`
	ReceiptEmail          *string                  `bun:"receipt_email" json:"receipt_email"`
	CustomerID            *uuid.UUID               `bun:"customer_id,type:uuid" json:"customer_id"`
	Customer              *Customer                `bun:"-" json:"customer" visible:"merchant"`
	AccountID             *uuid.UUID               `bun:"account_id,type:uuid" json:"account_id"`
	Account               *Account                 `bun:"-" json:"account" visible:"merchant"`
	PaymentMethodID       *uuid.UUID               `bun:"payment_method_id,type:uuid" json:"-"`
	PaymentMethod         *PaymentMethod           `bun:"rel:belongs-to,join:merchant_id=merchant_id,join:payment_method_id=id" json:"payment_method"`
	// SubscriptionID and InvoiceID name what an invoice's payment attempt
	// pays (docs/billing.md, "Payment attempts are charge intents").
	SubscriptionID     *uuid.UUID              `bun:"subscription_id,type:uuid" json:"subscription,omitempty"`
	InvoiceID          *uuid.UUID              `bun:"invoice_id,type:uuid" json:"invoice,omitempty"`
	LatestChargeID     *uuid.UUID              `bun:"charge_id,type:uuid" json:"-"`
	LatestCharge       *Charge                 `bun:"rel:belongs-to,join:merchant_id=merchant_id,join:charge_id=id" json:"latest_charge,omitempty"`
	Shipping           *BillingAddress         `bun:"shipping,type:jsonb" json:"shipping,omitempty"`
	Metadata           Metadata                `bun:"metadata,type:jsonb" json:"metadata" visible:"merchant"`
	RevenueSplit       map[string]any          `bun:"-" json:"revenue_split" visible:"merchant"`
	Order              map[string]any          `bun:"-" json:"order" visible:"merchant"`
	AmountCaptured     int64                   `bun:"amount_captured" json:"amount_captured"`
	AmountVoided       int64                   `bun:"amount_voided" json:"amount_voided"`
	CartData           map[string]any          `bun:"-" json:"cart_data"`
	NextAction         *ChargeIntentNextAction `bun:"-" json:"next_action"`
	SonarSessionID     *string                 `bun:"sonar_session_id" json:"-"`
	RequestedFeePlanID *uuid.UUID              `bun:"requested_fee_plan_id,type:uuid" json:"-"`
	BillableEventType  *string                 `bun:"billable_event_type" json:"-"`
	FeePlanID          *uuid.UUID              `bun:"fee_plan_id,type:uuid" json:"-"`
	BillingAgreementID *uuid.UUID              `bun:"billing_agreement_id,type:uuid" json:"-"`
	Created            wire.Timestamp          `bun:"created,type:timestamptz" json:"created"`
	Updated            wire.Timestamp          `bun:"updated,type:timestamptz" json:"updated"`

	public bool
}

// ChargeIntentNextAction tells a client what a charge intent waits for: a
// 3-D Secure challenge the platform's SDK runs (the official mobile SDKs
// read type use_frame_sdk and use_frame_sdk.source).
type ChargeIntentNextAction struct {
	Type        string            `json:"type"`
	UseFrameSDK map[string]string `json:"use_frame_sdk"`
}

// Derive sets the members computed at read time: the next action, the
// charge's payment method, an empty metadata object.
func (c *ChargeIntent) Derive() {
	if c.Metadata == nil {
		c.Metadata = Metadata{}
	}
	if c.LatestCharge != nil {
		if c.LatestCharge.PaymentMethodDetails == nil {
			c.LatestCharge.PaymentMethodDetails = c.PaymentMethod
		}
		c.LatestCharge.Derive()
	}
	c.NextAction = nil
	if c.Status == ChargeIntentRequires3DS && c.PaymentMethodID != nil {
		c.NextAction = &ChargeIntentNextAction{Type: "use_frame_sdk",
			UseFrameSDK: map[string]string{"source": c.PaymentMethodID.String()}}
	}
}

// Capturable is what is still authorized and not captured: what capture
// may take and void_remaining releases.
func (c *ChargeIntent) Capturable() int64 { return c.Amount - c.AmountCaptured - c.AmountVoided }

// SetPublic makes the intent render as a publishable key or its client
// secret may see it: without customer, account, metadata, revenue_split
// and order, the fields tagged visible:"merchant" (customer_id and
// account_id remain; spec doc 2 §5.3).
func (c *ChargeIntent) SetPublic(public bool) { c.public = public }

// IsPublic tells whether the intent renders without the secret-key-only
// members.
func (c *ChargeIntent) IsPublic() bool { return c.public }

// MarshalJSON omits the members a publishable key may not see (those
// tagged visible:"merchant").
func (c ChargeIntent) MarshalJSON() ([]byte, error) {
	type plain ChargeIntent
	b, err := json.Marshal(plain(c))
	if err != nil || !c.public {
		return b, err
	}
	return withoutMembers(b, chargeIntentHidden)
}

// chargeIntentHidden are the members a publishable key does not see.
var chargeIntentHidden = hiddenMembers(reflect.TypeFor[ChargeIntent]())[VisiblePublic]
