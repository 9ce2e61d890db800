package models

import (
	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type paymentMethodKind struct{}

func (paymentMethodKind) objectName() string { return "payment_method" }

// PaymentMethod is a stored card or bank account (spec doc 2 §2.3). The
// card number is never stored: the card carries its last four digits and
// brand, and Fingerprint (never rendered) is a keyed HMAC of the number.
type PaymentMethod struct {
	bun.BaseModel `bun:"table:payment_methods,alias:pm"`
	Tenant

	ID             uuid.UUID                 `bun:"id,pk,type:uuid" json:"id"`
	Object         Object[paymentMethodKind] `bun:"-" json:"object"`
	Type           PaymentMethodType         `bun:"type" json:"type"`
	Status         PaymentMethodStatus       `bun:"status" json:"status"`
	CustomerID     *uuid.UUID                `bun:"customer_id,type:uuid" json:"customer_id" sdk:"customer"`
	AccountID      *uuid.UUID                `bun:"account_id,type:uuid" json:"account_id"`
	Billing        *BillingAddress           `bun:"billing,type:jsonb" json:"billing"`
	Card           *CardDetails              `bun:"card,type:jsonb" json:"card,omitempty"`
	ACH            *ACHDetails               `bun:"ach,type:jsonb" json:"ach,omitempty"`
	Fingerprint    *string                   `bun:"fingerprint" json:"-"`
	SingleUse      bool                      `bun:"single_use" json:"-"`
	SandboxOutcome *string                   `bun:"sandbox_outcome" json:"-"`
	Created        wire.Timestamp            `bun:"created,type:timestamptz" json:"created"`
	Updated        wire.Timestamp            `bun:"updated,type:timestamptz" json:"updated"`

	// redacted marks a copy made by Redacted, which renders the members
	// its tag names alone (payment_method_redact.go).
	redacted bool `wire:"redacts:id,object,type,status,livemode,created,updated"`
}

// CardDetails is what is kept of a card. Issuer, currency, segment and
// type, which the SDKs declare optional but not nullable, are left out
// while unknown (docs/decisions.md, "Absent, not null").
type CardDetails struct {
	Brand                    string         `json:"brand"`
	LastFour                 string         `json:"last_four"`
	ExpMonth                 *string        `json:"exp_month"`
	ExpYear                  *string        `json:"exp_year"`
	Issuer                   *string        `json:"issuer,omitempty"`
	Currency                 *string        `json:"currency,omitempty"`
	Segment                  *string        `json:"segment,omitempty"`
	Type                     *string        `json:"type,omitempty"`
	InstantAvailable         bool           `json:"instant_available"`
	InstantUnavailableReason *string        `json:"instant_unavailable_reason"`
	InstantSteerTo           *string        `json:"instant_steer_to"`
	Wallet                   *WalletDetails `json:"wallet"`
}

// WalletDetails describes a card credential that came from a wallet.
type WalletDetails struct {
	Type         WalletType `json:"type"`
	DynamicLast4 *string    `json:"dynamic_last4"`
	SingleUse    bool       `json:"single_use"`
	Consumed     bool       `json:"consumed"`
}

// ACHDetails is what is kept of a bank account. The routing number names
// the bank, not the account, and is kept whole (the PHP SDK's model
// requires it); methods stored before it was kept answer it as null.
type ACHDetails struct {
	BankName      *string         `json:"bank_name"`
	RoutingNumber *string         `json:"routing_number"`
	LastFour      string          `json:"last_four"`
	AccountType   BankAccountType `json:"account_type"`
}

// BillingAddress is an address object of spec doc 2 §2.3. A line the
// address does not have is left out rather than sent as null: the SDKs
// declare every line optional and none nullable (docs/decisions.md,
// "Absent, not null").
type BillingAddress struct {
	ID         uuid.UUID   `json:"id"`
	Line1      *string     `json:"line_1,omitempty"`
	Line2      *string     `json:"line_2,omitempty"`
	City       *string     `json:"city,omitempty"`
	State      *string     `json:"state,omitempty"`
	PostalCode *string     `json:"postal_code,omitempty"`
	Country    *string     `json:"country,omitempty"`
	Livemode   bool        `json:"livemode"`
	Type       AddressType `json:"type"`
}

// AddressFrom builds the address object of kind ("billing", "shipping")
// from in, merged into the current one (members omitted stay).
func AddressFrom(in *AddressInput, current *BillingAddress, kind AddressType, id uuid.UUID, livemode bool) *BillingAddress {
	var base *Address
	if current != nil {
		base = &Address{Line1: current.Line1, Line2: current.Line2, City: current.City, State: current.State,
			PostalCode: current.PostalCode, Country: current.Country}
		id = current.ID
	}
	a := in.mergeInto(base)
	return &BillingAddress{ID: id, Line1: a.Line1, Line2: a.Line2, City: a.City, State: a.State,
		PostalCode: a.PostalCode, Country: a.Country, Livemode: livemode, Type: kind}
}

// CardAccount is the account whose payment_method.card requirement pm
// meets (API-DECISIONS §4b: an active card attached to the account), or
// nil: pm must be a card, active, attached to an account, and not a
// single-use wallet credential (which is consumed by its one charge).
func (pm *PaymentMethod) CardAccount() *uuid.UUID {
	if pm.Type != PaymentMethodCard || pm.Status != PaymentMethodActive || pm.SingleUse || pm.AccountID == nil {
		return nil
	}
	return pm.AccountID
}
