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
	Invite           *bool       `json:"invite"`
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

// UpdateBeneficialOwnerInput is the body of PATCH (spec doc 1 §4.2 rule 2):
// omitted members stay; roles, when sent, replace the roles; blank identity
// (email, phone_number, ssn, dob) and address values are ignored, not
// cleared.
type UpdateBeneficialOwnerInput struct {
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

// ownerFields are the members both inputs share, for one validation.
type ownerFields struct {
	first, middle, last, suffix, email, phone, dob, ssn *string
	line1, line2, city, state, postal, country          *string
	roles                                               []OwnerRole
	rolesSent                                           bool
	percent                                             *float64
}

func (in *CreateBeneficialOwnerInput) fields() ownerFields {
	return ownerFields{in.FirstName, in.MiddleName, in.LastName, in.Suffix, in.Email, in.PhoneNumber, in.DOB, in.SSN,
		in.AddressLine1, in.AddressLine2, in.City, in.State, in.PostalCode, in.Country, in.Roles, true, in.PercentOwnership}
}

func (in *UpdateBeneficialOwnerInput) fields() ownerFields {
	return ownerFields{in.FirstName, in.MiddleName, in.LastName, in.Suffix, blankAsNil(in.Email), blankAsNil(in.PhoneNumber),
		blankAsNil(in.DOB), blankAsNil(in.SSN), blankAsNil(in.AddressLine1), blankAsNil(in.AddressLine2), blankAsNil(in.City),
		blankAsNil(in.State), blankAsNil(in.PostalCode), blankAsNil(in.Country), in.Roles, in.Roles != nil, in.PercentOwnership}
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
	in.fields().validate(&f, true, now)
	return f.Err()
}

// Validate checks an update, every problem at once.
func (in *UpdateBeneficialOwnerInput) Validate(now time.Time) error {
	var f apierr.Fields
	in.fields().validate(&f, false, now)
	return f.Err()
}

func (o ownerFields) validate(f *apierr.Fields, create bool, now time.Time) {
	// A name, when sent, must not be blank: a person always has one.
	checkText(f, "first_name", o.first, 100, create || o.first != nil)
	checkText(f, "last_name", o.last, 100, create || o.last != nil)
	checkText(f, "middle_name", o.middle, 100, false)
	checkText(f, "suffix", o.suffix, 20, false)
	if o.email == nil && create {
		f.Add("email", "is required")
	}
	checkEmail(f, "email", o.email)
	if o.phone != nil {
		if _, ok := NormalizePhone(*o.phone, ""); !ok {
			if _, ok := NormalizePhone(*o.phone, "1"); !ok {
				f.Add("phone_number", "is not a valid phone number")
			}
		}
	}
	checkDate(f, "dob", o.dob, now)
	checkPattern(f, "ssn", o.ssn, reSSN, "must be 9 digits (XXX-XX-XXXX)")
	checkText(f, "address_line1", o.line1, 200, false)
	checkText(f, "address_line2", o.line2, 200, false)
	checkText(f, "city", o.city, 100, false)
	checkText(f, "state", o.state, 100, false)
	checkText(f, "postal_code", o.postal, 20, false)
	if o.country != nil && !reCountry.MatchString(*o.country) {
		f.Add("country", "must be a two-letter ISO 3166-1 country code")
	}
	switch {
	case create && o.roles == nil:
		f.Add("roles", "is required")
	case o.rolesSent && len(o.roles) == 0:
		f.Add("roles", "must name at least one role")
	case len(o.roles) > 2:
		f.Add("roles", "must name each role at most once")
	}
	seen := map[OwnerRole]bool{}
	for _, r := range o.roles {
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
	if p := o.percent; p != nil && (math.IsNaN(*p) || *p < 0 || *p > 100) {
		f.Add("percent_ownership", "must be between 0 and 100")
	}
}

// NewBeneficialOwner builds the owner a validated create describes (its
// status and invitation are the operation's).
func (in *CreateBeneficialOwnerInput) NewBeneficialOwner() *BeneficialOwner {
	o := &BeneficialOwner{FirstName: strings.TrimSpace(*in.FirstName), LastName: strings.TrimSpace(*in.LastName),
		Email: *in.Email, Status: OwnerPending}
	in.fields().applyTo(o)
	return o
}

// ApplyTo merges a validated update into o.
func (in *UpdateBeneficialOwnerInput) ApplyTo(o *BeneficialOwner) {
	in.fields().applyTo(o)
}

func (o ownerFields) applyTo(b *BeneficialOwner) {
	if o.first != nil {
		b.FirstName = strings.TrimSpace(*o.first)
	}
	if o.last != nil {
		b.LastName = strings.TrimSpace(*o.last)
	}
	set(&b.MiddleName, o.middle)
	set(&b.Suffix, o.suffix)
	if o.email != nil {
		b.Email = *o.email
	}
	if o.phone != nil {
		e, ok := NormalizePhone(*o.phone, "")
		if !ok {
			e, _ = NormalizePhone(*o.phone, "1")
		}
		b.PhoneNumber = &e
	}
	set(&b.Birthdate, o.dob)
	if o.ssn != nil {
		digits := stripPhone(*o.ssn)
		last := digits[len(digits)-4:]
		b.SSNLastFour = &last
	}
	if o.line1 != nil || o.line2 != nil || o.city != nil || o.state != nil || o.postal != nil || o.country != nil {
		a := Address{}
		if b.Address != nil {
			a = *b.Address
		}
		set(&a.Line1, o.line1)
		set(&a.Line2, o.line2)
		set(&a.City, o.city)
		set(&a.State, o.state)
		set(&a.PostalCode, o.postal)
		if o.country != nil {
			c := strings.ToUpper(*o.country)
			a.Country = &c
		}
		b.Address = &a
	}
	if o.roles != nil {
		b.Roles = append([]OwnerRole{}, o.roles...)
	}
	if o.percent != nil {
		p := *o.percent
		b.PercentOwnership = &p
	}
}
