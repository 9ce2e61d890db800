package models

import (
	"encoding/json"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type accountKind struct{}

func (accountKind) objectName() string { return "account" }

// Account is a connected account (spec doc 1 §2.1).
type Account struct {
	bun.BaseModel `bun:"table:accounts,alias:a"`
	Tenant

	ID                    uuid.UUID           `bun:"id,pk,type:uuid" json:"id"`
	Object                Object[accountKind] `bun:"-" json:"object"`
	Type                  AccountType         `bun:"type" json:"type"`
	Status                AccountStatus       `bun:"status" json:"status"`
	BlockedReason         *BlockedReason      `bun:"-" json:"blocked_reason"`
	RestrictedBy          []Restrictor        `bun:"restricted_by,array" json:"restricted_by"`
	ServiceBlockedReason  *string             `bun:"service_blocked_reason" json:"-"`
	ExternalID            *string             `bun:"external_id" json:"external_id"`
	Metadata              Metadata            `bun:"metadata,type:jsonb" json:"metadata" visible:"merchant"`
	PayoutPaymentMethodID *uuid.UUID          `bun:"payout_payment_method_id,type:uuid" json:"payout_payment_method_id" visible:"merchant"`
	Profile               Profile             `bun:"profile,type:jsonb" json:"profile" visible:"holder"`
	Capabilities          []*Capability       `bun:"-" json:"capabilities"`
	TermsOfService        *TermsOfService     `bun:"terms_of_service,type:jsonb" json:"terms_of_service"`
	Steps                 []capability.Step   `bun:"-" json:"steps"`
	Verification          Verification        `bun:"verification,type:jsonb" json:"-"`
	Activated             wire.Timestamp      `bun:"activated,nullzero" json:"-"`
	Disabled              wire.Timestamp      `bun:"disabled,nullzero" json:"-"`
	Created               wire.Timestamp      `bun:"created" json:"created"`
	Updated               wire.Timestamp      `bun:"updated" json:"updated"`

	// LoadedCapabilities receives the account's capabilities when a read
	// selects them in the account's own statement, as one JSON column
	// (capabilities_json); the read decodes them into Capabilities. Never
	// selected, written or rendered by itself.
	LoadedCapabilities json.RawMessage `bun:"capabilities_json,scanonly" json:"-"`

	// TestClockID is the sandbox test clock the account was created on
	// (API-DECISIONS §7): its time is the account's.
	TestClockID *uuid.UUID `bun:"test_clock_id,type:uuid" json:"test_clock"`

	visibility Visibility
}

// Visibility says which merchant-internal fields a response may carry:
// a field of Account says who sees it in its `visible` tag
// (models/visibility.go).
type Visibility int

// Visibility levels (spec doc 1 §2.1, §5.4).
const (
	// VisibleAll is what secret keys see.
	VisibleAll Visibility = iota
	// VisibleToHolder hides metadata and the payout method: an onboarding
	// session secret reading its own account sees the profile but not the
	// merchant's own fields.
	VisibleToHolder
	// VisiblePublic hides metadata, the payout method and the profile, for
	// publishable keys and checkout session secrets.
	VisiblePublic
)

// SetVisibility chooses which fields the account renders. The IP address
// and user agent recorded with the terms are consent evidence kept for the
// merchant, so only a secret key sees them.
func (a *Account) SetVisibility(v Visibility) {
	a.visibility = v
	if v != VisibleAll && a.TermsOfService != nil {
		tos := *a.TermsOfService
		tos.IPAddress, tos.UserAgent = nil, nil
		a.TermsOfService = &tos
	}
}

// Visibility tells which fields the account renders.
func (a *Account) Visibility() Visibility { return a.visibility }

// TermsOfService records the holder's acceptance of the terms.
type TermsOfService struct {
	Token      *string      `json:"token"`
	Accepted   bool         `json:"accepted"`
	AcceptedAt wire.ISOTime `json:"accepted_at"`
	IPAddress  *string      `json:"ip_address,omitempty"`
	UserAgent  *string      `json:"user_agent,omitempty"`
}

// Profile holds the individual or the business behind the account.
type Profile struct {
	Individual *IndividualProfile `json:"individual,omitempty"`
	Business   *BusinessProfile   `json:"business,omitempty"`
}

// IndividualProfile is a person's identity data. The SSN itself is never
// stored: only its last four digits.
type IndividualProfile struct {
	Name        *PersonName `json:"name"`
	Email       *string     `json:"email"`
	Phone       *Phone      `json:"phone"`
	SSNLastFour *string     `json:"ssn_last_four"`
	Birthdate   *string     `json:"birthdate"`
	Address     *Address    `json:"address"`
}

// BusinessProfile is a business's identity data. Only the last four digits
// of the EIN are kept.
type BusinessProfile struct {
	LegalBusinessName           *string  `json:"legal_business_name"`
	DoingBusinessAs             *string  `json:"doing_business_as"`
	BusinessType                *string  `json:"business_type"`
	Email                       *string  `json:"email"`
	Phone                       *Phone   `json:"phone"`
	Website                     *string  `json:"website"`
	Description                 *string  `json:"description"`
	EINLastFour                 *string  `json:"ein_last_four"`
	MCC                         *string  `json:"mcc"`
	NAICS                       *string  `json:"naics"`
	SamePhysicalAndLegalAddress *bool    `json:"same_physical_and_legal_address"`
	Address                     *Address `json:"address"`
	PhysicalAddress             *Address `json:"physical_address"`
}

// PersonName is a person's name.
type PersonName struct {
	FirstName  *string `json:"first_name"`
	MiddleName *string `json:"middle_name"`
	LastName   *string `json:"last_name"`
	Suffix     *string `json:"suffix"`
}

// Phone is a phone number with its country calling code.
//
// E164 is the number in E.164, worked out once when the number is written
// (the national number and the code are stored as it parses them) and kept
// in the stored profile beside them, never rendered: requirements and
// sandbox personas read it on every read of the account, and parsing the
// number there was most of the CPU of an account page
// (docs/performance.md). A phone stored before it was kept has none until
// migration 00034 fills it in; E164 parses such a one as before. Its
// `wire:"-"` keeps it out of the account's rendering (models/generate) and
// `jsonschema:"-"` out of the documented shape.
type Phone struct {
	Number      *string `json:"number"`
	CountryCode *string `json:"country_code"`
	Normalized  *string `json:"e164,omitempty" jsonschema:"-" wire:"-"`
}

// Address is a postal address; output always uses line_1/line_2.
type Address struct {
	Line1      *string `json:"line_1"`
	Line2      *string `json:"line_2"`
	City       *string `json:"city"`
	State      *string `json:"state"`
	PostalCode *string `json:"postal_code"`
	Country    *string `json:"country"`
}
