package models

import (
	"math"
	"strings"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// CreateBeneficialOwnerInput is the body of POST
// /v1/accounts/{id}/beneficial_owners (spec doc 1 §4.2). With Invite only
// the name, e-mail and roles are needed; without it the identity details
// are sent directly.
type CreateBeneficialOwnerInput struct {
	Invite *bool `json:"invite"`
	BeneficialOwnerDetails
}

// UpdateBeneficialOwnerInput is the body of PATCH (spec doc 1 §4.2 rule 2):
// omitted members stay; roles, when sent, replace the roles; blank identity
// (email, phone_number, ssn, dob) and address values are ignored, not
// cleared.
type UpdateBeneficialOwnerInput struct {
	BeneficialOwnerDetails
}

// BeneficialOwnerDetails are the members a create and an update both
// send, declared once so that one validation and one merge serve both.
type BeneficialOwnerDetails struct {
	FirstName        *string     `json:"first_name"`
	MiddleName       *string     `json:"middle_name"`
	LastName         *string     `json:"last_name"`
	Suffix           *string     `json:"suffix"`
	Email            *string     `json:"email"`
	Roles            []OwnerRole `json:"roles"`
	PhoneNumber      *string     `json:"phone_number"`
	DOB              *string     `json:"dob"`
	SSN              *string     `json:"ssn"`
	AddressLine1     *string     `json:"address_line1"`
	AddressLine2     *string     `json:"address_line2"`
	City             *string     `json:"city"`
	State            *string     `json:"state"`
	PostalCode       *string     `json:"postal_code"`
	Country          *string     `json:"country"`
	PercentOwnership *float64    `json:"percent_ownership"`
}

// blanksDropped is what an update changes: a blank identity or address
// value counts as not sent.
func (d BeneficialOwnerDetails) blanksDropped() BeneficialOwnerDetails {
	for _, s := range []**string{&d.Email, &d.PhoneNumber, &d.DOB, &d.SSN,
		&d.AddressLine1, &d.AddressLine2, &d.City, &d.State, &d.PostalCode, &d.Country} {
		*s = blankAsNil(*s)
	}
	return d
}

// blankAsNil treats a blank value as not sent (PATCH rule 2).
func blankAsNil(s *string) *string {
	if s == nil || strings.TrimSpace(*s) == "" {
		return nil
	}
	return s
}

// Validate checks a create, every problem at once.
func (in *CreateBeneficialOwnerInput) Validate(now time.Time) error {
	var f apierr.Fields
	in.validate(&f, true, true, now)
	return f.Err()
}

// Validate checks an update, every problem at once.
func (in *UpdateBeneficialOwnerInput) Validate(now time.Time) error {
	var f apierr.Fields
	in.blanksDropped().validate(&f, false, in.Roles != nil, now)
	return f.Err()
}

// validate collects the details' problems; a create requires the names,
// e-mail and roles, and rolesSent says whether roles were sent at all.
func (d BeneficialOwnerDetails) validate(f *apierr.Fields, create, rolesSent bool, now time.Time) {
	// A name, when sent, must not be blank: a person always has one.
	checkText(f, "first_name", d.FirstName, 100, create || d.FirstName != nil)
	checkText(f, "last_name", d.LastName, 100, create || d.LastName != nil)
	checkText(f, "middle_name", d.MiddleName, 100, false)
	checkText(f, "suffix", d.Suffix, 20, false)
	if d.Email == nil && create {
		f.Add("email", "is required")
	}
	checkEmail(f, "email", d.Email)
	if d.PhoneNumber != nil {
		if _, ok := NormalizePhone(*d.PhoneNumber, ""); !ok {
			if _, ok := NormalizePhone(*d.PhoneNumber, "1"); !ok {
				f.Add("phone_number", "is not a valid phone number")
			}
		}
	}
	checkDate(f, "dob", d.DOB, now)
	checkPattern(f, "ssn", d.SSN, reSSN, "must be 9 digits (XXX-XX-XXXX)")
	checkText(f, "address_line1", d.AddressLine1, 200, false)
	checkText(f, "address_line2", d.AddressLine2, 200, false)
	checkText(f, "city", d.City, 100, false)
	checkText(f, "state", d.State, 100, false)
	checkText(f, "postal_code", d.PostalCode, 20, false)
	if d.Country != nil && !reCountry.MatchString(*d.Country) {
		f.Add("country", "must be a two-letter ISO 3166-1 country code")
	}
	switch {
	case create && d.Roles == nil:
		f.Add("roles", "is required")
	case rolesSent && len(d.Roles) == 0:
		f.Add("roles", "must name at least one role")
	case len(d.Roles) > 2:
		f.Add("roles", "must name each role at most once")
	}
	seen := map[OwnerRole]bool{}
	for _, r := range d.Roles {
		if r != RoleOwner && r != RoleController {
			f.Add("roles", "must be owner or controller")
			break
		}
		if seen[r] {
			f.Add("roles", "must name each role at most once")
			break
		}
		seen[r] = true
	}
	if p := d.PercentOwnership; p != nil && (math.IsNaN(*p) || *p < 0 || *p > 100) {
		f.Add("percent_ownership", "must be between 0 and 100")
	}
}

// NewBeneficialOwner builds the owner a validated create describes (its
// status and invitation are the operation's).
func (in *CreateBeneficialOwnerInput) NewBeneficialOwner() *BeneficialOwner {
	o := &BeneficialOwner{FirstName: strings.TrimSpace(*in.FirstName), LastName: strings.TrimSpace(*in.LastName),
		Email: *in.Email, Status: OwnerPending}
	in.applyTo(o)
	return o
}

// ApplyTo merges a validated update into o.
func (in *UpdateBeneficialOwnerInput) ApplyTo(o *BeneficialOwner) {
	in.blanksDropped().applyTo(o)
}

func (d BeneficialOwnerDetails) applyTo(b *BeneficialOwner) {
	if d.FirstName != nil {
		b.FirstName = strings.TrimSpace(*d.FirstName)
	}
	if d.LastName != nil {
		b.LastName = strings.TrimSpace(*d.LastName)
	}
	set(&b.MiddleName, d.MiddleName)
	set(&b.Suffix, d.Suffix)
	if d.Email != nil {
		b.Email = *d.Email
	}
	if d.PhoneNumber != nil {
		e, ok := NormalizePhone(*d.PhoneNumber, "")
		if !ok {
			e, _ = NormalizePhone(*d.PhoneNumber, "1")
		}
		b.PhoneNumber = &e
	}
	set(&b.Birthdate, d.DOB)
	if d.SSN != nil {
		digits := stripPhone(*d.SSN)
		last := digits[len(digits)-4:]
		b.SSNLastFour = &last
	}
	if d.AddressLine1 != nil || d.AddressLine2 != nil || d.City != nil || d.State != nil || d.PostalCode != nil || d.Country != nil {
		a := Address{}
		if b.Address != nil {
			a = *b.Address
		}
		set(&a.Line1, d.AddressLine1)
		set(&a.Line2, d.AddressLine2)
		set(&a.City, d.City)
		set(&a.State, d.State)
		set(&a.PostalCode, d.PostalCode)
		if d.Country != nil {
			c := strings.ToUpper(*d.Country)
			a.Country = &c
		}
		b.Address = &a
	}
	if d.Roles != nil {
		b.Roles = append([]OwnerRole{}, d.Roles...)
	}
	if d.PercentOwnership != nil {
		p := *d.PercentOwnership
		b.PercentOwnership = &p
	}
}
