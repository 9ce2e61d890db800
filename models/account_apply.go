package models

import (
	"strconv"
	"strings"
	"time"

	"github.com/nyaruka/phonenumbers"
)

// The apply functions merge validated input into stored state: members that
// were sent replace, members that were not stay.

// ApplyTo merges the profile input into p.
func (in *ProfileInput) ApplyTo(p *Profile) {
	if in == nil {
		return
	}
	if in.Individual != nil {
		if p.Individual == nil {
			p.Individual = &IndividualProfile{}
		}
		in.Individual.applyTo(p.Individual)
	}
	if in.Business != nil {
		if p.Business == nil {
			p.Business = &BusinessProfile{}
		}
		in.Business.applyTo(p.Business)
	}
}

func set[T any](dst **T, v *T) {
	if v != nil {
		c := *v
		*dst = &c
	}
}

func (in *IndividualInput) applyTo(p *IndividualProfile) {
	if in.Name != nil {
		if p.Name == nil {
			p.Name = &PersonName{}
		}
		set(&p.Name.FirstName, in.Name.FirstName)
		set(&p.Name.MiddleName, in.Name.MiddleName)
		set(&p.Name.LastName, in.Name.LastName)
		set(&p.Name.Suffix, in.Name.Suffix)
	}
	set(&p.Email, in.Email)
	if in.Phone != nil {
		p.Phone = in.Phone.normalized()
	}
	if in.SSN != nil {
		digits := stripPhone(*in.SSN)
		last := digits[len(digits)-4:]
		p.SSNLastFour = &last
	}
	set(&p.SSNLastFour, in.SSNLastFour)
	set(&p.Birthdate, in.DOB)
	set(&p.Birthdate, in.Birthdate)
	if in.Address != nil {
		p.Address = in.Address.mergeInto(p.Address)
	}
}

func (in *BusinessInput) applyTo(p *BusinessProfile) {
	set(&p.LegalBusinessName, in.LegalBusinessName)
	set(&p.DoingBusinessAs, in.DoingBusinessAs)
	set(&p.BusinessType, in.BusinessType)
	set(&p.Email, in.Email)
	if in.Phone != nil {
		p.Phone = in.Phone.normalized()
	}
	set(&p.Website, in.Website)
	set(&p.Description, in.Description)
	if in.EIN != nil {
		digits := stripPhone(*in.EIN)
		last := digits[len(digits)-4:]
		p.EINLastFour = &last
	}
	set(&p.MCC, in.MCC)
	set(&p.NAICS, in.NAICS)
	set(&p.SamePhysicalAndLegalAddress, in.SamePhysicalAndLegalAddress)
	if in.Address != nil {
		p.Address = in.Address.mergeInto(p.Address)
	}
	if in.PhysicalAddress != nil {
		p.PhysicalAddress = in.PhysicalAddress.mergeInto(p.PhysicalAddress)
	}
}

// normalized stores a phone in one canonical form, whatever way it was
// written: the national number's digits and the calling code without '+'
// ("+1 (200) 100-1695", or "2001001695" with "US", become 2001001695 / 1).
func (in *PhoneInput) normalized() *Phone {
	number, cc := "", ""
	if in.Number != nil {
		number = *in.Number
	}
	if in.CountryCode != nil {
		cc = *in.CountryCode
	}
	if e164, ok := NormalizePhone(number, cc); ok {
		if n, err := phonenumbers.Parse(e164, ""); err == nil {
			national := phonenumbers.GetNationalSignificantNumber(n)
			code := strconv.Itoa(int(n.GetCountryCode()))
			return &Phone{Number: &national, CountryCode: &code, Normalized: &e164}
		}
	}
	digits := stripPhone(number)
	out := &Phone{Number: &digits}
	if in.CountryCode != nil {
		c := strings.TrimPrefix(strings.TrimSpace(cc), "+")
		out.CountryCode = &c
	}
	return out
}

func (in *AddressInput) mergeInto(a *Address) *Address {
	out := &Address{}
	if a != nil {
		*out = *a
	}
	set(&out.Line1, in.Line1Alias)
	set(&out.Line1, in.Line1)
	set(&out.Line2, in.Line2Alias)
	set(&out.Line2, in.Line2)
	set(&out.City, in.City)
	set(&out.State, in.State)
	set(&out.PostalCode, in.PostalCode)
	if in.Country != nil {
		c := strings.ToUpper(*in.Country)
		out.Country = &c
	}
	return out
}

// E164 is the profile phone in E.164, or "" when there is none (or it is
// not a phone number). The form stored with the number answers without
// parsing it again.
func (p *Phone) E164() string {
	if p == nil || p.Number == nil {
		return ""
	}
	if p.Normalized != nil {
		return *p.Normalized
	}
	cc := ""
	if p.CountryCode != nil {
		cc = *p.CountryCode
	}
	e, _ := NormalizePhone(*p.Number, cc)
	return e
}

// Accept turns validated terms input into the stored record.
func (t *TermsOfServiceInput) Accept(now time.Time) *TermsOfService {
	at := now
	if t.AcceptedAt != nil {
		if v, err := time.Parse(time.RFC3339, *t.AcceptedAt); err == nil {
			at = v.UTC()
		}
	}
	return &TermsOfService{Token: t.Token, Accepted: true, AcceptedAt: ISOTime{Time: at}, IPAddress: t.IPAddress, UserAgent: t.UserAgent}
}

// PresentFields lists the profile's dotted requirement keys that hold a
// value; the requirement checklists are evaluated against it.
func (p *Profile) PresentFields() map[string]bool {
	out := map[string]bool{}
	has := func(key string, s *string) {
		if s != nil && strings.TrimSpace(*s) != "" {
			out[key] = true
		}
	}
	if i := p.Individual; i != nil {
		if i.Name != nil {
			has("individual.name.first_name", i.Name.FirstName)
			has("individual.name.last_name", i.Name.LastName)
		}
		has("individual.birthdate", i.Birthdate)
		has("individual.ssn_last_four", i.SSNLastFour)
		has("individual.email", i.Email)
		if i.Phone.E164() != "" {
			out["individual.phone"] = true
		}
		if i.Address.complete() {
			out["individual.address"] = true
		}
	}
	if b := p.Business; b != nil {
		has("business.legal_business_name", b.LegalBusinessName)
		has("business.ein", b.EINLastFour)
		has("business.business_type", b.BusinessType)
		has("business.email", b.Email)
		if b.Phone.E164() != "" {
			out["business.phone"] = true
		}
		if b.Address.complete() {
			out["business.address"] = true
		}
	}
	return out
}

// complete reports whether an address has what a verification needs.
func (a *Address) complete() bool {
	if a == nil {
		return false
	}
	for _, s := range []*string{a.Line1, a.City, a.PostalCode, a.Country} {
		if s == nil || strings.TrimSpace(*s) == "" {
			return false
		}
	}
	return true
}
