package accounts

import (
	"time"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// checkAccountUpdate is the update's check before the transaction. An
// onboarding session may change only profile and terms (403, before any
// problem of the input). The input's problems are refused there when
// they are the same whatever the account turns out to be: of either type,
// at any time, and with any stored metadata (an update setting no key).
// Otherwise the write checks them on the locked account, every problem at
// once.
func checkAccountUpdate(p *auth.Principal, in *models.UpdateAccountInput) error {
	if p.Kind == auth.OnboardingSession && (in.Metadata != nil || in.ExternalID != nil) {
		return apierr.Forbidden("An onboarding session may update only profile and terms_of_service")
	}
	if op.SetsMetadata(in.Metadata) {
		return nil
	}
	ofType := func(t models.AccountType) error {
		return op.AtAnyTime(func(now time.Time) error { return in.Validate(t, now).Err() })()
	}
	return op.Settled(ofType(models.AccountTypeIndividual), ofType(models.AccountTypeBusiness))
}
