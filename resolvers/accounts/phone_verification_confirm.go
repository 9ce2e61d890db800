package accounts

import (
	"context"
	"slices"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/domain/verification"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Confirm checks a passcode against an open attempt
// (spec doc 1 §4.6), under the account's lock so that concurrent confirms
// count every wrong code once:
//
//   - the correct, unexpired code verifies the attempt: the number is
//     linked to the holder (remembered as verified, and made the profile's
//     phone when the profile has none), the capabilities re-evaluate, and
//     account.phone_verification.verified is emitted;
//   - a wrong code leaves it pending with challenge_failed, until the
//     allowance's last wrong code fails it (otp_attempts_exceeded);
//   - an expired code (or any code after `expires`) expires it
//     (otp_not_completed);
//
// failing or expiring emits account.phone_verification.failed. Confirming
// a verified attempt again answers it unchanged; one that failed, expired
// or whose line was refused (no code was sent) is 422 invalid_state.
func (ps *PhoneVerifications) Confirm(ctx context.Context, accountID, id string, in *models.ConfirmPhoneVerificationInput) (*models.PhoneVerification, error) {
	s := ps.svc
	spec := op.Spec{Name: "phone_verification.confirm", Allow: phoneActors,
		Params: phoneParams{AccountID: accountID, ID: id, Input: in}}
	spec.Check = in.Validate
	var pv *models.PhoneVerification
	return writeAccount(ctx, s, spec, accountID, nil, func(ctx context.Context, aw *accountWrite) error {
		if err := writable(aw.Account); err != nil {
			return err
		}
		var err error
		if pv, err = lockPhoneVerification(ctx, aw, id); err != nil {
			return err
		}
		now := aw.Now()
		switch {
		case pv.Status == models.PhoneStatusVerified:
			return nil
		case pv.Status != models.PhoneStatusPending:
			return apierr.InvalidState("This phone verification is " + string(pv.Status) + "; start a new one")
		case pv.Expires.IsZero():
			return apierr.InvalidState("No passcode was sent for this phone verification (its line was refused); start a new one with another number")
		}
		verified, o := false, verification.Expired()
		if !pv.Lapsed(now) {
			if verified, o = verification.Challenge(*in.Code, pv.Attempts); !verified && o.Status != verification.PhoneExpired {
				pv.Attempts++ // a wrong code
			}
		}
		pv.SetOutcome(o.Status, o.FailureType, o.Category, o.Retriable)
		pv.Updated = models.At(now)
		if _, err := aw.Tx.Update(pv).Column("status", "failure_type", "category", "retriable", "attempts", "updated").
			WherePK().Exec(ctx); err != nil {
			return err
		}
		if verified {
			linkVerifiedPhone(aw.Account, pv.PhoneNumber)
		}
		return announcePhoneVerification(aw, pv)
	}, func(*accountWrite) *models.PhoneVerification { return pv })
}

// linkVerifiedPhone records e164 as proven for the account, keeping the
// newest MaxVerifiedPhones, and makes it the profile's phone when the
// profile has none.
func linkVerifiedPhone(a *models.Account, e164 string) {
	v := &a.Verification
	v.VerifiedPhones = slices.DeleteFunc(v.VerifiedPhones, func(p string) bool { return p == e164 })
	v.VerifiedPhones = append(v.VerifiedPhones, e164)
	if n := len(v.VerifiedPhones); n > MaxVerifiedPhones {
		v.VerifiedPhones = v.VerifiedPhones[n-MaxVerifiedPhones:]
	}
	if a.ProfilePhone() == "" {
		a.Profile.SetPhoneE164(e164)
	}
}

// announcePhoneVerification emits the event of an attempt that reached an
// outcome: verified, or failed/expired.
func announcePhoneVerification(aw *accountWrite, pv *models.PhoneVerification) error {
	var typ events.Type
	switch pv.Status {
	case models.PhoneStatusVerified:
		typ = EventPhoneVerificationVerified
	case models.PhoneStatusFailed, models.PhoneStatusExpired:
		typ = EventPhoneVerificationFailed
	default:
		return nil
	}
	if err := aw.EmitObject(typ, pv.ID, pv); err != nil {
		return err
	}
	return nil
}

// lockPhoneVerification reads one attempt of the locked account for
// update; another account's attempt is 404 like a missing one.
func lockPhoneVerification(ctx context.Context, aw *accountWrite, id string) (*models.PhoneVerification, error) {
	return lockOfAccount(ctx, aw, phoneRows, id, func(pv *models.PhoneVerification) uuid.UUID { return pv.AccountID })
}
