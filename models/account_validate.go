package models

import (
	"time"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// CheckCapabilityNames reports every name that is not a capability.
func CheckCapabilityNames(f *apierr.Fields, path string, names []string) {
	for _, n := range names {
		if _, ok := capability.ParseName(n); !ok {
			f.Addf(path, "contains %q, which is not a capability", n)
		}
	}
}

// BusinessTypes are the accepted business_type values. The spec shows llc
// and single_member_llc; the rest are the common US legal forms.
var BusinessTypes = []string{"sole_proprietorship", "single_member_llc", "llc", "partnership",
	"corporation", "c_corporation", "s_corporation", "non_profit", "cooperative", "government"}

// Validate checks a create request, reporting every problem at once.
func (in *CreateAccountInput) Validate(now time.Time) error {
	var f apierr.Fields
	if in.Type == nil {
		f.Add("type", "is required")
	} else {
		checkOneOf(&f, "type", (*string)(in.Type), string(AccountTypeIndividual), string(AccountTypeBusiness))
	}
	if in.Profile == nil {
		f.Add("profile", "is required")
	} else if in.Type != nil {
		in.Profile.validate(&f, *in.Type, true, now)
	}
	CheckCapabilityNames(&f, "capabilities", in.CapabilityNames())
	if in.ExternalID != nil {
		checkText(&f, "external_id", in.ExternalID, 255, true)
	}
	checkMetadata(&f, "metadata", in.Metadata)
	CheckMetadataSize(&f, "metadata", MergeMetadata(nil, in.Metadata))
	in.TermsOfService.validate(&f, now)
	return f.Err()
}

// Validate checks an update request against the account's type.
func (in *UpdateAccountInput) Validate(t AccountType, now time.Time) *apierr.Fields {
	var f apierr.Fields
	if in.ExternalID != nil && *in.ExternalID != "" {
		checkText(&f, "external_id", in.ExternalID, 255, true)
	}
	checkMetadata(&f, "metadata", in.Metadata)
	if in.Profile != nil {
		in.Profile.validate(&f, t, false, now)
	}
	in.TermsOfService.validate(&f, now)
	return &f
}

func (p *ProfileInput) validate(f *apierr.Fields, t AccountType, create bool, now time.Time) {
	switch t {
	case AccountTypeIndividual:
		if p.Business != nil {
			f.Add("profile.business", "is not allowed for an individual account")
		}
		if p.Individual == nil {
			if create {
				f.Add("profile.individual", "is required for an individual account")
			}
			return
		}
		p.Individual.validate(f, "profile.individual", create, now)
	case AccountTypeBusiness:
		if p.Individual != nil {
			f.Add("profile.individual", "is not allowed for a business account")
		}
		if p.Business == nil {
			if create {
				f.Add("profile.business", "is required for a business account")
			}
			return
		}
		p.Business.validate(f, "profile.business", create)
	}
}

func (in *IndividualInput) validate(f *apierr.Fields, path string, create bool, now time.Time) {
	if in.Name == nil {
		if create {
			f.Add(path+".name", "is required")
		}
	} else {
		checkText(f, path+".name.first_name", in.Name.FirstName, 100, create)
		checkText(f, path+".name.last_name", in.Name.LastName, 100, create)
		checkText(f, path+".name.middle_name", in.Name.MiddleName, 100, false)
		checkText(f, path+".name.suffix", in.Name.Suffix, 20, false)
	}
	checkEmail(f, path+".email", in.Email)
	checkPhone(f, path+".phone", in.Phone)
	checkPattern(f, path+".ssn", in.SSN, reSSN, "must be 9 digits (XXX-XX-XXXX)")
	if in.SSNLastFour != nil && (len(*in.SSNLastFour) != 4 || !reDigits.MatchString(*in.SSNLastFour)) {
		f.Add(path+".ssn_last_four", "must be 4 digits")
	}
	if in.Birthdate != nil && in.DOB != nil && *in.Birthdate != *in.DOB {
		f.Add(path+".birthdate", "conflicts with dob")
	}
	checkDate(f, path+".birthdate", in.Birthdate, now)
	checkDate(f, path+".dob", in.DOB, now)
	in.Address.validate(f, path+".address")
}

func (in *BusinessInput) validate(f *apierr.Fields, path string, create bool) {
	checkText(f, path+".legal_business_name", in.LegalBusinessName, 200, create)
	checkText(f, path+".doing_business_as", in.DoingBusinessAs, 200, false)
	checkOneOf(f, path+".business_type", in.BusinessType, BusinessTypes...)
	checkEmail(f, path+".email", in.Email)
	checkPhone(f, path+".phone", in.Phone)
	checkURL(f, path+".website", in.Website)
	checkText(f, path+".description", in.Description, maxTextLength, false)
	checkPattern(f, path+".ein", in.EIN, reEIN, "must be 9 digits (XX-XXXXXXX)")
	if in.MCC != nil && (len(*in.MCC) != 4 || !reDigits.MatchString(*in.MCC)) {
		f.Add(path+".mcc", "must be 4 digits")
	}
	if in.NAICS != nil && (len(*in.NAICS) < 2 || len(*in.NAICS) > 6 || !reDigits.MatchString(*in.NAICS)) {
		f.Add(path+".naics", "must be 2 to 6 digits")
	}
	in.Address.validate(f, path+".address")
	in.PhysicalAddress.validate(f, path+".physical_address")
}

func (a *AddressInput) validate(f *apierr.Fields, path string) {
	if a == nil {
		return
	}
	if a.Line1 != nil && a.Line1Alias != nil && *a.Line1 != *a.Line1Alias {
		f.Add(path+".line_1", "conflicts with line1")
	}
	if a.Line2 != nil && a.Line2Alias != nil && *a.Line2 != *a.Line2Alias {
		f.Add(path+".line_2", "conflicts with line2")
	}
	checkText(f, path+".line_1", a.Line1, 200, false)
	checkText(f, path+".line1", a.Line1Alias, 200, false)
	checkText(f, path+".line_2", a.Line2, 200, false)
	checkText(f, path+".line2", a.Line2Alias, 200, false)
	checkText(f, path+".city", a.City, 100, false)
	checkText(f, path+".state", a.State, 100, false)
	checkText(f, path+".postal_code", a.PostalCode, 20, false)
	if a.Country != nil && !reCountry.MatchString(*a.Country) {
		f.Add(path+".country", "must be a two-letter ISO 3166-1 country code")
	}
}

func (t *TermsOfServiceInput) validate(f *apierr.Fields, now time.Time) {
	if t == nil {
		return
	}
	checkText(f, "terms_of_service.token", t.Token, 500, false)
	checkIP(f, "terms_of_service.ip_address", t.IPAddress)
	checkText(f, "terms_of_service.user_agent", t.UserAgent, 1000, false)
	if t.AcceptedAt != nil {
		at, err := time.Parse(time.RFC3339, *t.AcceptedAt)
		switch {
		case err != nil:
			f.Add("terms_of_service.accepted_at", "must be an ISO 8601 timestamp")
		case at.After(now.Add(5 * time.Minute)):
			f.Add("terms_of_service.accepted_at", "must not be in the future")
		}
	}
}
