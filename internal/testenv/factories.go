package testenv

import (
	"maps"
	"slices"
)

// Typed test factories.
//
// The REST and GraphQL suites need the same fixtures — "Ada Lovelace, a
// complete individual", "Analytical Engines LLC" — but each transport spells
// a request differently (snake_case vs camelCase, lower- vs upper-case
// enums). An AccountSpec says what the account is once; RESTBody and
// GraphQLInput (factories_render.go) spell it for a transport, and the
// Client factories (factories_create.go) create it and fail the test when
// the server refuses. Specs describe valid accounts: tests of malformed
// input build their odd bodies as raw maps instead.

// AccountSpec describes an account to create. Zero values are left out of
// the request, so a field only appears when a test (or a default) sets it.
type AccountSpec struct {
	// Type is "individual" or "business", as REST spells it.
	Type string
	// Individual is the profile of an individual account.
	Individual *IndividualSpec
	// Business is the profile of a business account.
	Business *BusinessSpec
	// Capabilities are requested by their REST names ("kyc"), in this
	// order; duplicates are sent as given.
	Capabilities []string
	ExternalID   string
	Metadata     map[string]string
	// TermsOfService, when set, accepts the terms at creation.
	TermsOfService *TermsSpec
}

// IndividualSpec is an individual's profile.
type IndividualSpec struct {
	Name      PersonName
	Email     string
	Phone     *PhoneSpec
	SSN       string // the full SSN; the server keeps only its last four
	Birthdate string // YYYY-MM-DD
	Address   *AddressSpec
}

// PersonName is an individual's name.
type PersonName struct {
	First, Middle, Last, Suffix string
}

// PhoneSpec is a phone number with its country (a calling code or region).
type PhoneSpec struct {
	Number, CountryCode string
}

// AddressSpec is a postal address.
type AddressSpec struct {
	Line1, Line2, City, State, PostalCode, Country string
}

// BusinessSpec is a business's profile.
type BusinessSpec struct {
	LegalBusinessName string
	DoingBusinessAs   string
	BusinessType      string // as REST spells it ("llc"); GraphQL takes the same string
	Email             string
	Phone             *PhoneSpec
	Website           string
	Description       string
	EIN               string // the full EIN; the server keeps only its last four
	MCC               string
	NAICS             string
	// SamePhysicalAndLegalAddress is a pointer so false can be sent.
	SamePhysicalAndLegalAddress *bool
	Address                     *AddressSpec
	PhysicalAddress             *AddressSpec
}

// TermsSpec is an acceptance of the terms of service. AcceptedAt is RFC
// 3339; empty lets the server stamp its clock's now.
type TermsSpec struct {
	Token, IPAddress, UserAgent, AcceptedAt string
}

// Individual is a complete individual account with no capabilities: every
// profile field a capability can ask for is filled in, so a test that
// requests capabilities starts from "profile done".
func Individual() AccountSpec {
	return AccountSpec{
		Type: "individual",
		Individual: &IndividualSpec{
			Name:      PersonName{First: "Ada", Last: "Lovelace"},
			Email:     "ada@example.com",
			Phone:     &PhoneSpec{Number: "(200) 100-1695", CountryCode: "+1"},
			SSN:       "123-45-6789",
			Birthdate: "1990-12-10",
			Address: &AddressSpec{Line1: "1 Main St", City: "Austin", State: "TX",
				PostalCode: "78701", Country: "US"},
		},
	}
}

// Business is a complete business account with no capabilities. Its
// country is sent lower-case on purpose: the server normalises it.
func Business() AccountSpec {
	return AccountSpec{
		Type: "business",
		Business: &BusinessSpec{
			LegalBusinessName: "Analytical Engines LLC",
			BusinessType:      "llc",
			EIN:               "12-3456789",
			Email:             "ops@engines.example",
			Address: &AddressSpec{Line1: "2 Market St", City: "Denver", State: "CO",
				PostalCode: "80202", Country: "us"},
		},
	}
}

// The modifiers below return a modified copy and never change s, so one
// spec can be the base of several fixtures.

// WithCapabilities requests names (REST names, e.g. "card_send").
func (s AccountSpec) WithCapabilities(names ...string) AccountSpec {
	s = s.clone()
	s.Capabilities = slices.Clone(names)
	return s
}

// WithExternalID sets the merchant's external id.
func (s AccountSpec) WithExternalID(id string) AccountSpec {
	s = s.clone()
	s.ExternalID = id
	return s
}

// WithMetadata sets the metadata.
func (s AccountSpec) WithMetadata(m map[string]string) AccountSpec {
	s = s.clone()
	s.Metadata = maps.Clone(m)
	return s
}

// WithTermsOfService accepts the terms at creation.
func (s AccountSpec) WithTermsOfService(tos TermsSpec) AccountSpec {
	s = s.clone()
	s.TermsOfService = &tos
	return s
}

// WithIndividual edits (a copy of) the individual profile, creating it when
// the spec has none.
func (s AccountSpec) WithIndividual(edit func(*IndividualSpec)) AccountSpec {
	s = s.clone()
	editOrNew(&s.Individual, edit)
	return s
}

// WithBusiness edits (a copy of) the business profile, creating it when the
// spec has none.
func (s AccountSpec) WithBusiness(edit func(*BusinessSpec)) AccountSpec {
	s = s.clone()
	editOrNew(&s.Business, edit)
	return s
}

// editOrNew runs edit on the profile *p, made empty first when the spec
// has none.
func editOrNew[P any](p **P, edit func(*P)) {
	if *p == nil {
		*p = new(P)
	}
	edit(*p)
}

// clone copies everything s points to, so edits to the copy never reach a
// spec another fixture was built from.
func (s AccountSpec) clone() AccountSpec {
	if s.Individual != nil {
		ind := *s.Individual
		ind.Phone = clonePtr(ind.Phone)
		ind.Address = clonePtr(ind.Address)
		s.Individual = &ind
	}
	if s.Business != nil {
		biz := *s.Business
		biz.Phone = clonePtr(biz.Phone)
		biz.SamePhysicalAndLegalAddress = clonePtr(biz.SamePhysicalAndLegalAddress)
		biz.Address = clonePtr(biz.Address)
		biz.PhysicalAddress = clonePtr(biz.PhysicalAddress)
		s.Business = &biz
	}
	s.Capabilities = slices.Clone(s.Capabilities)
	s.Metadata = maps.Clone(s.Metadata)
	s.TermsOfService = clonePtr(s.TermsOfService)
	return s
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
