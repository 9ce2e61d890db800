package models

import (
	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type checkoutSessionKind struct{}

func (checkoutSessionKind) objectName() string { return "checkout_session" }

// CheckoutSession locks the amount a browser may charge to one account
// (spec doc 2 §2.11; API-DECISIONS §4). ClientSecret (chk_sess_) is
// returned on create only.
type CheckoutSession struct {
	bun.BaseModel `bun:"table:checkout_sessions,alias:cs"`
	Tenant

	ID                uuid.UUID                   `bun:"id,pk,type:uuid" json:"id"`
	Object            Object[checkoutSessionKind] `bun:"-" json:"object"`
	AccountID         uuid.UUID                   `bun:"account_id,type:uuid" json:"account_id"`
	ClientSecret      *string                     `bun:"-" json:"client_secret"`
	ExpiresAt         wire.Timestamp              `bun:"expires_at,type:timestamptz" json:"expires_at"`
	Amount            MoneyV2                     `bun:"-" json:"amount"`
	Value             int64                       `bun:"amount" json:"-"`
	Currency          string                      `bun:"currency" json:"-"`
	AuthorizationMode AuthorizationMode           `bun:"authorization_mode" json:"authorization_mode"`
	Created           wire.Timestamp              `bun:"created,type:timestamptz" json:"created"`
}

// Derive sets the members computed at read time.
func (c *CheckoutSession) Derive() { c.Amount = MoneyV2{Value: c.Value, Currency: c.Currency} }

// CreateCheckoutSessionInput is the body of POST /v1/checkout_sessions.
type CreateCheckoutSessionInput struct {
	AccountID         *string            `json:"account_id"`
	Amount            *AmountInput       `json:"amount"`
	AuthorizationMode *AuthorizationMode `json:"authorization_mode"`
}

// AmountInput is {value, currency}.
type AmountInput struct {
	Value    *int64  `json:"value" range:"amount"`
	Currency *string `json:"currency"`
}

// Build validates the input (every problem at once) and returns the
// session without ids or times, and the account id unresolved.
func (in *CreateCheckoutSessionInput) Build() (*CheckoutSession, uuid.UUID, error) {
	var f apierr.Fields
	c := &CheckoutSession{Currency: "USD", AuthorizationMode: AuthorizationAutomatic}
	var account uuid.UUID
	if in.AccountID == nil {
		f.Add("account_id", "is required")
	} else if id, ok := ids.Parse(*in.AccountID); ok {
		account = id
	} else {
		f.Add("account_id", "is not an account of this merchant and mode")
	}
	switch {
	case in.Amount == nil || in.Amount.Value == nil:
		f.Add("amount.value", "is required: a session without an amount cannot create a transfer")
	case *in.Amount.Value <= 0 || *in.Amount.Value > MaxAmount:
		f.Add("amount.value", "must be greater than 0 and at most 99999999999")
	default:
		c.Value = *in.Amount.Value
	}
	if in.Amount != nil && in.Amount.Currency != nil {
		if cur := currencyOr(&f, "amount.currency", in.Amount.Currency, "USD"); cur != nil {
			c.Currency = *cur
		}
	}
	if in.AuthorizationMode != nil && checkOneOf(&f, "authorization_mode", in.AuthorizationMode, AuthorizationModes...) {
		c.AuthorizationMode = *in.AuthorizationMode
	}
	return c, account, f.Err()
}
