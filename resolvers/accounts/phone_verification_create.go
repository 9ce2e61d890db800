package accounts

import (
	"context"
	"time"

	"github.com/frame-oss/payments-server/internal/domain/verification"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// PhoneCodeTTL is how long a passcode sent for a phone verification can
// be confirmed (the attempt's `expires`).
const PhoneCodeTTL = 10 * time.Minute

// MaxVerifiedPhones bounds the numbers an account remembers as verified
// (the newest are kept).
const MaxVerifiedPhones = 10

// defaultPhoneType is the verification type of an attempt that names none:
// a one-time passcode by SMS.
const defaultPhoneType = "sms"

// phoneActors may run the phone verification flow: the merchant's secret
// key, and the holder's onboarding secret for its own account (spec doc 1
// §5.5).
var phoneActors = []auth.Kind{auth.SecretKey, auth.OnboardingSession}

// phoneParams identify a phone verification operation for idempotency.
type phoneParams struct {
	AccountID string `json:"account_id"`
	ID        string `json:"id,omitempty"`
	Input     any    `json:"input"`
}

// Create starts a one-time-passcode attempt for the
// account holder's number (spec doc 1 §4.6): the number given, or the
// profile's. The sandbox provider sends nothing and answers the codes that
// verify it in `sandbox.expected_codes`; a line it refuses (docs/sandbox.md)
// gets no code and the attempt stays pending with the refusal. Creating an
// attempt ends the account's open one (session_out_of_order), so an account
// has one open attempt; the account's row lock serializes creates and a
// unique index keeps it so. date_of_birth, when given, is saved to the
// profile in the same write.
func (ps *PhoneVerifications) Create(ctx context.Context, accountID string, in *models.CreatePhoneVerificationInput) (*models.PhoneVerification, error) {
	s := ps.svc
	spec := op.Spec{Name: "phone_verification.create", Allow: phoneActors, Params: phoneParams{AccountID: accountID, Input: in}, Provider: "phone verification",
		Check: op.AtAnyTime(in.Validate)}
	var pv *models.PhoneVerification
	// At the write's time: what the check before the transaction could not
	// settle (op.AtAnyTime), a date against the time, is checked here.
	check := func(w *op.W) error { return in.Validate(w.Now()) }
	return writeAccount(ctx, s, spec, accountID, check, func(ctx context.Context, aw *accountWrite) error {
		a := aw.Account
		if err := writable(a); err != nil {
			return err
		}
		number := a.ProfilePhone()
		if in.PhoneNumber != nil {
			number, _ = models.ParsePhoneNumber(*in.PhoneNumber)
		}
		if number == "" {
			return apierr.FieldError("phone_number", "is required: the account's profile has no phone number")
		}
		if in.DateOfBirth != nil {
			if a.Profile.Individual == nil {
				return apierr.FieldError("date_of_birth", "applies to individual accounts only")
			}
			dob := *in.DateOfBirth
			a.Profile.Individual.Birthdate = &dob
		}
		now := aw.Now()
		if err := endOpenPhoneVerification(ctx, aw, now); err != nil {
			return err
		}
		typ := defaultPhoneType
		if in.Type != nil {
			typ = *in.Type
		}
		pv = &models.PhoneVerification{ID: ids.New(now), AccountID: a.ID, PhoneNumber: number, Type: typ,
			Provider: sandboxProvider, Status: models.PhoneStatusPending, Created: models.At(now), Updated: models.At(now)}
		if o, refused := verification.LineRefusal(number); refused {
			pv.SetOutcome(o.Status, o.FailureType, o.Category, o.Retriable)
		} else {
			pv.Expires = models.At(now.Add(PhoneCodeTTL))
		}
		if _, err := aw.Tx.Insert(pv).Exec(ctx); err != nil {
			return err
		}
		pv.Sandbox = &models.PhoneSandbox{ExpectedCodes: verification.ExpectedCodes(number)}
		return nil
	}, func(*accountWrite) *models.PhoneVerification { return pv })
}

// endOpenPhoneVerification expires the account's open attempt: one whose
// passcode lapsed as otp_not_completed, any other as superseded
// (session_out_of_order). Neither is announced: nobody failed a challenge.
func endOpenPhoneVerification(ctx context.Context, aw *accountWrite, now time.Time) error {
	sup, lapsed := verification.Superseded(), verification.Expired()
	_, err := aw.Tx.Update((*models.PhoneVerification)(nil)).
		Set("status = ?", sup.Status).
		Set("failure_type = CASE WHEN pv.expires IS NOT NULL AND pv.expires <= ? THEN ? ELSE ? END",
			now, lapsed.FailureType, sup.FailureType).
		Set("category = ?", sup.Category).Set("retriable = ?", sup.Retriable).Set("updated = ?", now).
		Where("pv.account_id = ?", aw.Account.ID).Where("pv.status = ?", models.PhoneStatusPending).Exec(ctx)
	return err
}

// requireSandboxProvider refuses a request that needs an external provider
// in live mode: none ships (API-DECISIONS §1).
func requireSandboxProvider(p *auth.Principal, what string) error {
	if p.Scope.Livemode {
		return &apierr.Error{Status: 503, Code: apierr.CodeProviderNotConfigured,
			Message: "No live " + what + " provider is configured on this server"}
	}
	return nil
}
