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

// BeneficialOwnerDetails are the members a create and an update both send,
// declared once so that the two bodies, their validation and the way they
// are applied cannot drift apart.
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

// sent is what an update means: its blank identity and address values
// count as not sent (PATCH rule 2).
func (in *UpdateBeneficialOwnerInput) sent() BeneficialOwnerDetails {
	d := in.BeneficialOwnerDetails
	for _, p := range []**string{&d.Email, &d.PhoneNumber, &d.DOB, &d.SSN, &d.AddressLine1, &d.AddressLine2,
		&d.City, &d.State, &d.PostalCode, &d.Country} {
		*p = blankAsNil(*p)
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
	in.BeneficialOwnerDetails.validate(&f, true, true, now)
	return f.Err()
}

// Validate checks an update, every problem at once.
func (in *UpdateBeneficialOwnerInput) Validate(now time.Time) error {
	var f apierr.Fields
	in.sent().validate(&f, false, in.Roles != nil, now)
	return f.Err()
}

// validate checks the details; create requires the members a new owner
// needs, and rolesSent tells whether roles were sent at all.
func (o BeneficialOwnerDetails) validate(f *apierr.Fields, create, rolesSent bool, now time.Time) {
	// A name, when sent, must not be blank: a person always has one.
	checkText(f, "first_name", o.FirstName, 100, create || o.FirstName != nil)
	checkText(f, "last_name", o.LastName, 100, create || o.LastName != nil)
	checkText(f, "middle_name", o.MiddleName, 100, false)
	checkText(f, "suffix", o.Suffix, 20, false)
	if o.Email == nil && create {
		f.Add("email", "is required")
	}
	checkEmail(f, "email", o.Email)
	if o.PhoneNumber != nil {
		if _, ok := NormalizePhone(*o.PhoneNumber, ""); !ok {
			if _, ok := NormalizePhone(*o.PhoneNumber, "1"); !ok {
				f.Add("phone_number", "is not a valid phone number")
			}
		}
	}
	checkDate(f, "dob", o.DOB, now)
	checkPattern(f, "ssn", o.SSN, reSSN, "must be 9 digits (XXX-XX-XXXX)")
	checkText(f, "address_line1", o.AddressLine1, 200, false)
	checkText(f, "address_line2", o.AddressLine2, 200, false)
	checkText(f, "city", o.City, 100, false)
	checkText(f, "state", o.State, 100, false)
	checkText(f, "postal_code", o.PostalCode, 20, false)
	if o.Country != nil && !reCountry.MatchString(*o.Country) {
		f.Add("country", "must be a two-letter ISO 3166-1 country code")
	}
	switch {
	case create && o.Roles == nil:
		f.Add("roles", "is required")
	case rolesSent && len(o.Roles) == 0:
		f.Add("roles", "must name at least one role")
	case len(o.Roles) > 2:
		f.Add("roles", "must name each role at most once")
	}
	seen := map[OwnerRole]bool{}
	for _, r := range o.Roles {
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
	if p := o.PercentOwnership; p != nil && (math.IsNaN(*p) || *p < 0 || *p > 100) {
		f.Add("percent_ownership", "must be between 0 and 100")
	}
}

// NewBeneficialOwner builds the owner a validated create describes (its
// status and invitation are the operation's).
func (in *CreateBeneficialOwnerInput) NewBeneficialOwner() *BeneficialOwner {
	o := &BeneficialOwner{FirstName: strings.TrimSpace(*in.FirstName), LastName: strings.TrimSpace(*in.LastName),
		Email: *in.Email, Status: OwnerPending}
	in.BeneficialOwnerDetails.applyTo(o)
	return o
}

// ApplyTo merges a validated update into o.
func (in *UpdateBeneficialOwnerInput) ApplyTo(o *BeneficialOwner) {
	in.sent().applyTo(o)
}

func (o BeneficialOwnerDetails) applyTo(b *BeneficialOwner) {
	if o.FirstName != nil {
		b.FirstName = strings.TrimSpace(*o.FirstName)
	}
	if o.LastName != nil {
		b.LastName = strings.TrimSpace(*o.LastName)
	}
	set(&b.MiddleName, o.MiddleName)
	set(&b.Suffix, o.Suffix)
	if o.Email != nil {
		b.Email = *o.Email
	}
	if o.PhoneNumber != nil {
		e, ok := NormalizePhone(*o.PhoneNumber, "")
		if !ok {
			e, _ = NormalizePhone(*o.PhoneNumber, "1")
		}
		b.PhoneNumber = &e
	}
	set(&b.Birthdate, o.DOB)
	if o.SSN != nil {
		digits := stripPhone(*o.SSN)
		last := digits[len(digits)-4:]
		b.SSNLastFour = &last
	}
	if o.AddressLine1 != nil || o.AddressLine2 != nil || o.City != nil || o.State != nil || o.PostalCode != nil || o.Country != nil {
		// The owner's flat address members merge as an account's address does.
		sent := AddressInput{Line1: o.AddressLine1, Line2: o.AddressLine2, City: o.City, State: o.State,
			PostalCode: o.PostalCode, Country: o.Country}
		b.Address = sent.mergeInto(b.Address)
	}
	if o.Roles != nil {
		b.Roles = append([]OwnerRole{}, o.Roles...)
	}
	if o.PercentOwnership != nil {
		p := *o.PercentOwnership
		b.PercentOwnership = &p
	}
}
