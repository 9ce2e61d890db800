package models

import "github.com/frame-oss/payments-server/internal/domain/capability"

// CapabilityNames returns the requested capability names as sent.
func (in *CreateAccountInput) CapabilityNames() []string {
	if in.Capabilities == nil {
		return nil
	}
	out := make([]string, len(in.Capabilities))
	for i, n := range in.Capabilities {
		out[i] = string(n)
	}
	return out
}

// CreateAccountInput is the body of POST /v1/accounts (API-DECISIONS §4).
type CreateAccountInput struct {
	Type           *AccountType         `json:"type"`
	Profile        *ProfileInput        `json:"profile"`
	Capabilities   []capability.Name    `json:"capabilities"`
	ExternalID     *string              `json:"external_id"`
	Metadata       MetadataInput        `json:"metadata"`
	TermsOfService *TermsOfServiceInput `json:"terms_of_service"`
	// TestClock binds the account to a sandbox test clock. Omitted when
	// absent, so the idempotency fingerprints of earlier requests hold.
	TestClock *string `json:"test_clock,omitempty"`
}

// UpdateAccountInput is the body of PATCH /v1/accounts/{id}. Omitted members
// stay unchanged; profile members merge into the stored profile.
type UpdateAccountInput struct {
	ExternalID     *string              `json:"external_id"`
	Metadata       MetadataInput        `json:"metadata"`
	Profile        *ProfileInput        `json:"profile"`
	TermsOfService *TermsOfServiceInput `json:"terms_of_service"`
}

// MetadataInput is metadata as sent: a null or empty value removes its key
// on update.
type MetadataInput map[string]*string

// ProfileInput is the profile as sent.
type ProfileInput struct {
	Individual *IndividualInput `json:"individual"`
	Business   *BusinessInput   `json:"business"`
}

// IndividualInput is a person's identity data as sent. It accepts `dob` as
// well as `birthdate`, and the full `ssn` (of which only the last four
// digits are kept) as well as `ssn_last_four`.
type IndividualInput struct {
	Name        *PersonNameInput `json:"name"`
	Email       *string          `json:"email"`
	Phone       *PhoneInput      `json:"phone"`
	SSN         *string          `json:"ssn"`
	SSNLastFour *string          `json:"ssn_last_four"`
	Birthdate   *string          `json:"birthdate"`
	DOB         *string          `json:"dob"`
	Address     *AddressInput    `json:"address"`
}

// BusinessInput is a business's identity data as sent.
type BusinessInput struct {
	LegalBusinessName           *string       `json:"legal_business_name"`
	DoingBusinessAs             *string       `json:"doing_business_as"`
	BusinessType                *string       `json:"business_type"`
	Email                       *string       `json:"email"`
	Phone                       *PhoneInput   `json:"phone"`
	Website                     *string       `json:"website"`
	Description                 *string       `json:"description"`
	EIN                         *string       `json:"ein"`
	MCC                         *string       `json:"mcc"`
	NAICS                       *string       `json:"naics"`
	SamePhysicalAndLegalAddress *bool         `json:"same_physical_and_legal_address"`
	Address                     *AddressInput `json:"address"`
	PhysicalAddress             *AddressInput `json:"physical_address"`
}

// PersonNameInput is a name as sent.
type PersonNameInput struct {
	FirstName  *string `json:"first_name"`
	MiddleName *string `json:"middle_name"`
	LastName   *string `json:"last_name"`
	Suffix     *string `json:"suffix"`
}

// PhoneInput is a phone as sent; spaces, dashes and parentheses are allowed.
type PhoneInput struct {
	Number      *string `json:"number"`
	CountryCode *string `json:"country_code"`
}

// AddressInput is an address as sent; `line1`/`line2` are accepted as
// aliases of `line_1`/`line_2`.
type AddressInput struct {
	Line1      *string `json:"line_1"`
	Line1Alias *string `json:"line1"`
	Line2      *string `json:"line_2"`
	Line2Alias *string `json:"line2"`
	City       *string `json:"city"`
	State      *string `json:"state"`
	PostalCode *string `json:"postal_code"`
	Country    *string `json:"country"`
}

// TermsOfServiceInput records acceptance of the terms of service.
type TermsOfServiceInput struct {
	Token      *string `json:"token"`
	IPAddress  *string `json:"ip_address"`
	UserAgent  *string `json:"user_agent"`
	AcceptedAt *string `json:"accepted_at"`
}

// AccountListFilter filters GET /v1/accounts.
type AccountListFilter struct {
	Status          *string
	Type            *string
	ExternalID      *string
	IncludeDisabled bool
}

// AccountSearch filters GET /v1/accounts/search.
type AccountSearch struct {
	Name       *string
	Email      *string
	ExternalID *string
	Status     *string
	Type       *string
}
