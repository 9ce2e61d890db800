package models

import (
	"regexp"
	"strings"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// reCustomerSSN is an SSN as the spec accepts it for customers:
// XXX-XX-XXXX, or digits alone (nine, or the ten the spec also names).
var reCustomerSSN = regexp.MustCompile(`^([0-9]{3}-[0-9]{2}-[0-9]{4}|[0-9]{9,10})$`)

// Validate checks a create request, reporting every problem at once.
func (in *CreateCustomerInput) Validate(now time.Time) error {
	var f apierr.Fields
	in.Check(&f, now)
	return f.Err()
}

// Check reports every problem of a create request into f (a view, for a
// customer created inside another request: a charge intent's
// customer_data).
func (in *CreateCustomerInput) Check(f *apierr.Fields, now time.Time) {
	if in.Email == nil {
		f.Add("email", "is required")
	}
	in.validate(f, now)
	CheckMetadataSize(f, "metadata", MergeMetadata(nil, in.Metadata))
}

// Validate checks an update against the stored customer: ssn and
// date_of_birth, once set, cannot be removed (an empty string would).
func (in *UpdateCustomerInput) Validate(c *Customer, now time.Time) *apierr.Fields {
	var f apierr.Fields
	base := CreateCustomerInput(*in)
	if in.TestClock != nil {
		f.Add("test_clock", "cannot change: a customer is bound to a test clock when it is created")
	}
	if in.SSN != nil && *in.SSN == "" {
		if c.SSNLastFour != nil {
			f.Add("ssn", "cannot be removed once set")
		}
		base.SSN = nil
	}
	if in.DateOfBirth != nil && *in.DateOfBirth == "" {
		if c.DateOfBirth != nil {
			f.Add("date_of_birth", "cannot be removed once set")
		}
		base.DateOfBirth = nil
	}
	base.validate(&f, now)
	CheckMetadataSize(&f, "metadata", MergeMetadata(c.Metadata, in.Metadata))
	return &f
}

func (in *CreateCustomerInput) validate(f *apierr.Fields, now time.Time) {
	checkEmail(f, "email", in.Email)
	checkText(f, "name", in.Name, 100, false)
	checkText(f, "description", in.Description, maxTextLength, false)
	if in.Phone != nil && *in.Phone != "" && checkText(f, "phone", in.Phone, 32, false) {
		if _, ok := CustomerPhone(*in.Phone); !ok {
			f.Add("phone", "is not a valid phone number")
		}
	}
	checkPattern(f, "ssn", in.SSN, reCustomerSSN, "must be XXX-XX-XXXX or 10 digits")
	checkDate(f, "date_of_birth", in.DateOfBirth, now)
	in.BillingAddress.validate(f, "billing_address")
	in.ShippingAddress.validate(f, "shipping_address")
	checkMetadata(f, "metadata", in.Metadata)
}

// CustomerPhone is a customer's phone in E.164: a number written without
// its calling code is taken as a US number.
func CustomerPhone(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "+") {
		return NormalizePhone(s, "")
	}
	return NormalizePhone(s, "US")
}

// SSNLastFour is the last four digits of an SSN as sent.
func SSNLastFour(ssn string) string {
	digits := strings.ReplaceAll(ssn, "-", "")
	return digits[len(digits)-4:]
}
