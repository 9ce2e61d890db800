package accounts

import (
	"context"
	"slices"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Disable disables the account (DELETE) and ends its session
// secrets. Disabling a disabled account changes nothing and answers it as
// it is.
func (as *Accounts) Disable(ctx context.Context, id string) (*models.Account, error) {
	s := as.svc
	return s.changeHold(ctx, "account.disable", id, func(ctx context.Context, aw *accountWrite) error {
		a := aw.Account
		if a.Status == models.AccountStatusDisabled {
			return nil
		}
		a.Disabled, aw.Announce = models.At(aw.Now()), EventAccountDisabled
		return auth.RevokeSessionSecrets(ctx, aw.Tx, "", a.ID, aw.Now())
	})
}

// Restrict places the merchant's hold on the account.
func (as *Accounts) Restrict(ctx context.Context, id string) (*models.Account, error) {
	s := as.svc
	return s.changeHold(ctx, "account.restrict", id, func(ctx context.Context, aw *accountWrite) error {
		a := aw.Account
		if a.Status == models.AccountStatusDisabled {
			return apierr.InvalidState("The account is disabled and cannot be restricted")
		}
		if slices.Contains(a.RestrictedBy, models.RestrictorMerchant) {
			return nil
		}
		a.RestrictedBy = append(slices.Clone(a.RestrictedBy), models.RestrictorMerchant)
		aw.Announce = EventAccountRestricted
		return nil
	})
}

// Unrestrict lifts the merchant's own hold. A hold the service
// placed stays, and so does the restriction it causes.
func (as *Accounts) Unrestrict(ctx context.Context, id string) (*models.Account, error) {
	s := as.svc
	return s.changeHold(ctx, "account.unrestrict", id, func(ctx context.Context, aw *accountWrite) error {
		a := aw.Account
		if a.Status == models.AccountStatusDisabled {
			return apierr.InvalidState("The account is disabled and cannot be unrestricted")
		}
		if !slices.Contains(a.RestrictedBy, models.RestrictorMerchant) {
			return nil
		}
		a.RestrictedBy = slices.DeleteFunc(slices.Clone(a.RestrictedBy), func(p models.Restrictor) bool {
			return p == models.RestrictorMerchant
		})
		aw.Announce = EventAccountUpdated
		return nil
	})
}

// holdParams identify a hold change for idempotency.
type holdParams struct {
	ID string `json:"id"`
}

// changeHold runs one hold change (restrict, unrestrict, disable) with the
// secret key. The status is derived again from the holds; lifting the last
// hold can make the account active for the first time (a capability
// activated while it was held), and that activation is announced now.
func (s *Service) changeHold(ctx context.Context, name, id string, rule func(ctx context.Context, aw *accountWrite) error) (*models.Account, error) {
	spec := op.Spec{Name: name, Allow: []auth.Kind{auth.SecretKey}, Params: holdParams{ID: id}}
	a, err := writeAccount(ctx, s, spec, id, nil, rule, accountOf)
	if err != nil {
		return nil, err
	}
	return present(ctx, a), nil
}
