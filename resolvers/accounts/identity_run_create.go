package accounts

import (
	"context"
	"net/http"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/domain/verification"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// DefaultIdentityAttempts is the identity verification attempt allowance
// of an account when none is configured (API-DECISIONS §9).
const DefaultIdentityAttempts = 3

// Error codes of identity verification create (spec doc 1 §7).
const (
	CodeVerificationInProgress = "verification_in_progress"
	CodeAttemptLimitReached    = "attempt_limit_reached"
	CodeCapabilityDisabled     = "capability_disabled"
	CodeKYCNotAvailable        = "kyc_not_available"
)

// sandboxProvider names the identity provider of the sandbox.
const sandboxProvider = "sandbox"

// Create starts a KYC run against the account's
// current identity data (spec doc 1 §4.5). The run is pending and concludes
// in the background: its job is enqueued in the run's own transaction, so
// the run exists exactly when its job does.
//
// Refusals, in this order: 404 for an account the caller cannot see; 503
// provider_not_configured in live mode (no identity provider ships); 422
// capability_disabled while kyc is disabled; 422 kyc_not_available for a
// holder outside the US; 409 verification_in_progress while a run is open
// (details.id names it); 429 attempt_limit_reached once the allowance is
// spent (errored runs do not count). The account's row lock serializes
// creates, and a unique index allows one open run per account whatever
// happens.
func (rs *IdentityRuns) Create(ctx context.Context, accountID string) (*models.IdentityVerification, error) {
	s := rs.svc
	spec := op.Spec{Name: "identity_verification.create", Allow: []auth.Kind{auth.SecretKey}, Params: ownerParams{AccountID: accountID}, Provider: "identity"}
	var run *models.IdentityVerification
	return writeAccount(ctx, s, spec, accountID, nil, func(ctx context.Context, aw *accountWrite) error {
		a := aw.Account
		if err := writable(a); err != nil {
			return err
		}
		for _, c := range aw.Caps {
			if c.Name == capability.KYC && c.Status == capability.StatusDisabled {
				return apierr.Rule(CodeCapabilityDisabled,
					"The kyc capability is disabled on this account; request it again to verify the holder", "", nil)
			}
		}
		if !s.inUS(a) {
			return apierr.Rule(CodeKYCNotAvailable,
				"Identity verification runs are available to US account holders only; use the document verification flow", "", nil)
		}
		var runs []*models.IdentityVerification
		if err := aw.Tx.Select(&runs).Column("id", "status").Where("iv.account_id = ?", a.ID).
			Where("iv.status <> ?", models.RunStatusErrored).Scan(ctx); err != nil {
			return err
		}
		for _, r := range runs {
			if r.Status == models.RunStatusPending {
				return apierr.Conflict(CodeVerificationInProgress, "An identity verification run is already in progress for this account",
					map[string]any{"id": r.ID.String()})
			}
		}
		if len(runs) >= s.attempts() {
			return &apierr.Error{Status: http.StatusTooManyRequests, Code: CodeAttemptLimitReached,
				Message: "This account has used all of its identity verification attempts"}
		}
		now := aw.Now()
		run = &models.IdentityVerification{ID: ids.New(now), AccountID: a.ID, Status: models.RunStatusPending,
			Provider: sandboxProvider, Subject: a.ProfilePhone(), Created: models.At(now), Updated: models.At(now)}
		if _, err := aw.Tx.Insert(run).Exec(ctx); err != nil {
			return err
		}
		return aw.Enqueue(ctx, IdentityRunArgs{Tenant: jobs.TenantOf(aw.Tx.Scope()), RunID: run.ID})
	}, func(*accountWrite) *models.IdentityVerification { return run })
}

// attempts is the configured allowance.
func (s *Service) attempts() int {
	if s.IdentityAttempts > 0 {
		return s.IdentityAttempts
	}
	return DefaultIdentityAttempts
}

// inUS reports whether the holder may run KYC: a US address (or none yet)
// and a phone that is not a non-US persona nor another country's number.
func (s *Service) inUS(a *models.Account) bool {
	if c := a.ProfileCountry(); c != "" && c != "US" {
		return false
	}
	phone := a.ProfilePhone()
	if verification.PersonaFor(phone).NonUS {
		return false
	}
	region := models.PhoneRegion(phone)
	return region == "" || region == "US"
}
