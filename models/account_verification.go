package models

import (
	"time"

	"github.com/nyaruka/phonenumbers"

	"github.com/frame-oss/payments-server/internal/domain/capability"
)

// Verification is what an account's verifications have established, kept
// on the account row (never rendered): the requirement rules read it with
// the account, in the account's own statement, and every verification that
// changes it writes it in its own transaction under the account's lock.
type Verification struct {
	// VerifiedPhones are the numbers (E.164) a phone verification proved;
	// the phone_verification requirement is met while the profile's number
	// is one of them.
	VerifiedPhones []string `json:"verified_phones,omitempty"`
	// IdentityRun is the outcome of the latest identity verification run
	// that reached one (a conclusion, or a manual review that opened).
	IdentityRun *capability.RunOutcome `json:"identity_run,omitempty"`
	// DocumentVerified records an approved document check (/v1/idv).
	DocumentVerified bool `json:"document_verified,omitempty"`
	// OwnersConfirmed is the latest roster certification of the
	// beneficial owners.
	OwnersConfirmed *Attestation `json:"owners_confirmed,omitempty"`
	// PrefillConfirmed is the holder's first confirmation of prefilled
	// identity data.
	PrefillConfirmed *Attestation `json:"prefill_confirmed,omitempty"`
	// BankAccountLinked records a linked bank account.
	BankAccountLinked bool `json:"bank_account_linked,omitempty"`
	// ActiveCard records that an active card payment method (not a
	// single-use wallet credential) is attached to the account. Every write
	// that attaches, detaches or creates one recomputes it from the
	// payment_methods table under the account's lock.
	ActiveCard bool `json:"active_card,omitempty"`
	// GeoStatus is the latest geo compliance status ("" before any).
	GeoStatus string `json:"geo_status,omitempty"`
}

// Attestation is consent or certification evidence: when, from which IP
// address and user agent.
type Attestation struct {
	At        time.Time `json:"at"`
	IPAddress string    `json:"ip_address,omitempty"`
	UserAgent string    `json:"user_agent,omitempty"`
}

// PhoneVerified reports whether e164 was proven by a phone verification.
func (v *Verification) PhoneVerified(e164 string) bool {
	if e164 == "" {
		return false
	}
	for _, p := range v.VerifiedPhones {
		if p == e164 {
			return true
		}
	}
	return false
}

// ProfilePhone is the account's own phone in E.164 (the individual's, or
// the business's), "" when it has none. Sandbox personas are chosen by it.
func (a *Account) ProfilePhone() string {
	if a.Profile.Individual != nil {
		if e := a.Profile.Individual.Phone.E164(); e != "" {
			return e
		}
	}
	if a.Profile.Business != nil {
		return a.Profile.Business.Phone.E164()
	}
	return ""
}

// ProfileCountry is the country of the account's address (upper-case ISO
// code), "" when none is set.
func (a *Account) ProfileCountry() string {
	return textOf(a.profileAddress(func(ad *Address) *string { return ad.Country }))
}

// ProfileState is the state of the account's address, "" when none is set.
func (a *Account) ProfileState() string {
	return textOf(a.profileAddress(func(ad *Address) *string { return ad.State }))
}

// textOf is *s, "" for nil.
func textOf(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// profileAddress is one member of the address of the account's profile
// (individual or business), nil when there is none.
func (a *Account) profileAddress(member func(*Address) *string) *string {
	var addr *Address
	switch {
	case a.Profile.Individual != nil:
		addr = a.Profile.Individual.Address
	case a.Profile.Business != nil:
		addr = a.Profile.Business.Address
	}
	if addr == nil {
		return nil
	}
	return member(addr)
}

// PhoneRegion is the ISO region of an E.164 number ("US", "CA"), "" when
// the number belongs to no known region (sandbox persona numbers).
func PhoneRegion(e164 string) string {
	if e164 == "" {
		return ""
	}
	n, err := phonenumbers.Parse(e164, "")
	if err != nil {
		return ""
	}
	return phonenumbers.GetRegionCodeForNumber(n)
}
