package accounts

import (
	"context"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/domain/verification"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/httpx"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// ConfirmKYCPrefill records the holder's confirmation of the identity data
// prefilled for them (spec doc 1 §4.7), with the request's IP address and
// user agent as consent evidence, and answers the account. The first
// success satisfies kyc_prefill_confirmation and emits
// platform.account.prefill.completed (carrying the account); later calls
// answer the account unchanged and emit nothing.
//
// A prefill record is confirmable when kyc_prefill is requested (pending or
// active), the profile's phone was proven by a phone verification, and the
// sandbox persona of that phone has prefill data (docs/sandbox.md);
// otherwise 422 names what is missing on `kyc_prefill`. Prefilled data
// comes from a data provider in live mode, and none ships: 503
// provider_not_configured there.
func (as *Accounts) ConfirmKYCPrefill(ctx context.Context, accountID string) (*models.Account, error) {
	s := as.svc
	spec := op.Spec{Name: "kyc_prefill.confirm", Allow: []auth.Kind{auth.SecretKey}, Params: ownerParams{AccountID: accountID}, Provider: "KYC prefill data"}
	a, err := writeAccount(ctx, s, spec, accountID, nil, func(ctx context.Context, aw *accountWrite) error {
		a := aw.Account
		if err := writable(a); err != nil {
			return err
		}
		if a.Verification.PrefillConfirmed != nil {
			return nil
		}
		if problem := s.prefillProblem(aw); problem != "" {
			return apierr.FieldError("kyc_prefill", problem)
		}
		info := httpx.Info(ctx)
		a.Verification.PrefillConfirmed = &models.Attestation{At: aw.Now(), IPAddress: info.RemoteIP, UserAgent: info.UserAgent}
		aw.Announce = EventPrefillCompleted
		return nil
	}, accountOf)
	if err != nil {
		return nil, err
	}
	return present(ctx, a), nil
}

// prefillProblem says why the account has no confirmable prefill record,
// or "" when it has one.
func (s *Service) prefillProblem(aw *accountWrite) string {
	a := aw.Account
	requested := false
	for _, c := range aw.Caps {
		if c.Name == capability.KYCPrefill && (c.Status == capability.StatusPending || c.Status == capability.StatusActive) {
			requested = true
		}
	}
	phone := a.ProfilePhone()
	switch {
	case !requested:
		return "no prefill record: the kyc_prefill capability is not requested"
	case !a.Verification.PhoneVerified(phone):
		return "no prefill record yet: the profile's phone number must first be verified by a phone verification"
	case !s.inUS(a):
		return "no prefill record: prefill is available to US account holders only"
	}
	switch verification.PersonaFor(phone).Prefill {
	case verification.PrefillPending:
		return "the prefill record is still being gathered; try again later"
	case verification.PrefillFailed:
		return "no prefill data was found for this account holder"
	}
	return ""
}
