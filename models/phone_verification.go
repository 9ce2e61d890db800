package models

import (
	"regexp"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type phoneVerificationKind struct{}

func (phoneVerificationKind) objectName() string { return "phone_verification" }

// PhoneVerification is one one-time-passcode attempt proving that the
// account holder owns a number (spec doc 1 §2.6). Sandbox, when set, is
// the sandbox provider's hint on the create response: the passcodes that
// verify the attempt.
type PhoneVerification struct {
	bun.BaseModel `bun:"table:phone_verifications,alias:pv"`
	Tenant

	ID          uuid.UUID                     `bun:"id,pk,type:uuid" json:"id"`
	Object      Object[phoneVerificationKind] `bun:"-" json:"object"`
	AccountID   uuid.UUID                     `bun:"account_id,type:uuid" json:"account" sdk:"account_id"`
	PhoneNumber string                        `bun:"phone_number" json:"phone_number"`
	Type        string                        `bun:"type" json:"type"`
	Provider    IdentityProvider              `bun:"provider" json:"provider"`
	Status      PhoneStatus                   `bun:"status" json:"status"`
	FailureType *PhoneFailureType             `bun:"failure_type" json:"failure_type"`
	Retriable   *bool                         `bun:"retriable" json:"retriable"`
	Category    *VerificationCategory         `bun:"category" json:"category"`
	Expires     wire.Timestamp                `bun:"expires,nullzero" json:"expires"`
	Created     wire.Timestamp                `bun:"created" json:"created"`
	Updated     wire.Timestamp                `bun:"updated" json:"updated"`
	Sandbox     *PhoneSandbox                 `bun:"-" json:"sandbox,omitempty"`

	Attempts int `bun:"attempts" json:"-"`
}

// PhoneSandbox is the sandbox provider's hint on a created attempt.
type PhoneSandbox struct {
	ExpectedCodes []string `json:"expected_codes"`
}

// Lapsed reports whether a pending attempt's passcode expired by now
// unconfirmed: it is then expired, whatever its row still says.
func (p *PhoneVerification) Lapsed(now time.Time) bool {
	return p.Status == PhoneStatusPending && !p.Expires.IsZero() && !now.Before(p.Expires.Time)
}

// SetOutcome records an outcome: its status and, unless verified, its
// failure type, category and retriability (all null when verified).
func (p *PhoneVerification) SetOutcome(status, failureType, category string, retriable bool) {
	p.Status = PhoneStatus(status)
	if failureType == "" {
		p.FailureType, p.Category, p.Retriable = nil, nil, nil
		return
	}
	ft, cat := PhoneFailureType(failureType), VerificationCategory(category)
	p.FailureType, p.Category, p.Retriable = &ft, &cat, &retriable
}

// CreatePhoneVerificationInput is the body of POST
// /v1/accounts/{id}/phone_verifications (spec doc 1 §4.6).
type CreatePhoneVerificationInput struct {
	Type        *string `json:"type"`
	PhoneNumber *string `json:"phone_number"`
	DateOfBirth *string `json:"date_of_birth"`
}

var reProviderType = regexp.MustCompile(`^[a-z0-9_]{1,40}$`)

// Validate checks a create, every problem at once.
func (in *CreatePhoneVerificationInput) Validate(now time.Time) error {
	var f apierr.Fields
	if in.Type != nil && !reProviderType.MatchString(*in.Type) {
		f.Add("type", "must be a provider name of lower-case letters, digits and underscores (at most 40)")
	}
	if in.PhoneNumber != nil && checkText(&f, "phone_number", in.PhoneNumber, 32, true) {
		if _, ok := ParsePhoneNumber(*in.PhoneNumber); !ok {
			f.Add("phone_number", "is not a valid phone number")
		}
	}
	checkDate(&f, "date_of_birth", in.DateOfBirth, now)
	return f.Err()
}

// ParsePhoneNumber reads a phone number written with its + and calling
// code, or a US national number, into E.164.
func ParsePhoneNumber(s string) (string, bool) {
	if e, ok := NormalizePhone(s, ""); ok {
		return e, true
	}
	return NormalizePhone(s, "1")
}

// ConfirmPhoneVerificationInput is the body of POST
// /v1/accounts/{id}/phone_verifications/{id}/confirm.
type ConfirmPhoneVerificationInput struct {
	Code *string `json:"code"`
}

// Validate checks a confirm.
func (in *ConfirmPhoneVerificationInput) Validate() error {
	var f apierr.Fields
	checkText(&f, "code", in.Code, 12, true)
	return f.Err()
}

// SetPhoneE164 sets the profile phone of an individual (or a business) to
// a number in E.164, in the stored canonical form.
func (p *Profile) SetPhoneE164(e164 string) {
	in := PhoneInput{Number: &e164}
	switch {
	case p.Individual != nil:
		p.Individual.Phone = in.normalized()
	case p.Business != nil:
		p.Business.Phone = in.normalized()
	}
}
