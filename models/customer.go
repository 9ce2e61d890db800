package models

import (
	"encoding/json"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type customerKind struct{}

func (customerKind) objectName() string { return "customer" }

// Customer is a payer (spec doc 2 §2.2). The SSN is never returned: only
// its last four digits are kept, to know that one was given. A deleted
// customer renders as its Tombstone, the subset the spec keeps
// retrievable (wire:"tombstone").
type Customer struct {
	bun.BaseModel `bun:"table:customers,alias:cu"`
	Tenant

	ID              uuid.UUID            `bun:"id,pk,type:uuid" json:"id"`
	Object          Object[customerKind] `bun:"-" json:"object"`
	Name            *string              `bun:"name" json:"name"`
	Email           string               `bun:"email" json:"email"`
	Phone           *string              `bun:"phone" json:"phone"`
	Description     *string              `bun:"description" json:"description"`
	Status          CustomerStatus       `bun:"status" json:"status"`
	DateOfBirth     *string              `bun:"date_of_birth" json:"date_of_birth"`
	SSNLastFour     *string              `bun:"ssn_last_four" json:"-"`
	PaymentMethods  []*PaymentMethod     `bun:"-" json:"payment_methods"`
	BillingAddress  *BillingAddress      `bun:"billing_address,type:jsonb" json:"billing_address"`
	ShippingAddress *BillingAddress      `bun:"shipping_address,type:jsonb" json:"shipping_address"`
	Metadata        Metadata             `bun:"metadata,type:jsonb" json:"metadata"`
	Deleted         wire.Timestamp       `bun:"deleted,nullzero,type:timestamptz" json:"-" wire:"tombstone"`
	Created         wire.Timestamp       `bun:"created,type:timestamptz" json:"created"`
	Updated         wire.Timestamp       `bun:"updated,type:timestamptz" json:"updated"`

	// LoadedPaymentMethods receives the customer's payment methods when a
	// read selects them in the customer's own statement, as one JSON
	// column; the read moves them into PaymentMethods.
	LoadedPaymentMethods json.RawMessage `bun:"payment_methods_json,scanonly" json:"-"`

	// TestClockID is the sandbox test clock the customer was created on
	// (API-DECISIONS §7): its time is the customer's.
	TestClockID *uuid.UUID `bun:"test_clock_id,type:uuid" json:"test_clock"`
}

// IsDeleted reports whether the customer was deleted.
func (c *Customer) IsDeleted() bool { return !c.Deleted.IsZero() }

// CreateCustomerInput is the body of POST /v1/customers.
type CreateCustomerInput struct {
	Name            *string       `json:"name"`
	Email           *string       `json:"email"`
	Phone           *string       `json:"phone"`
	Description     *string       `json:"description"`
	SSN             *string       `json:"ssn"`
	DateOfBirth     *string       `json:"date_of_birth"`
	BillingAddress  *AddressInput `json:"billing_address"`
	ShippingAddress *AddressInput `json:"shipping_address"`
	Metadata        MetadataInput `json:"metadata"`
	// TestClock binds the customer to a sandbox test clock. Omitted when
	// absent, so the idempotency fingerprints of earlier requests hold.
	TestClock *string `json:"test_clock,omitempty"`
}

// UpdateCustomerInput is the body of PATCH /v1/customers/{id}: members
// omitted (or null) stay; addresses merge member by member.
type UpdateCustomerInput CreateCustomerInput
