package accounts

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// updateParams is what identifies an update for idempotency.
type updateParams struct {
	ID    string                     `json:"id"`
	Input *models.UpdateAccountInput `json:"input"`
}

// Update merges a partial update into the account. An onboarding
// session secret may update its own account's profile and terms only. An
// update that changes nothing writes nothing: `updated` keeps meaning "last
// changed".
func (as *Accounts) Update(ctx context.Context, id string, in *models.UpdateAccountInput) (*models.Account, error) {
	s := as.svc
	spec := op.Spec{Name: "account.update", Allow: []auth.Kind{auth.SecretKey, auth.OnboardingSession},
		Params: updateParams{ID: id, Input: in},
		Check:  func() error { return checkAccountUpdate(auth.FromContext(ctx), in) }}
	a, err := writeAccount(ctx, s, spec, id, nil, func(ctx context.Context, aw *accountWrite) error {
		a := aw.Account
		if a.Status == models.AccountStatusDisabled {
			return apierr.InvalidState("The account is disabled and cannot be updated")
		}
		now := aw.Now()
		// Against the account's type and time and its stored metadata: what
		// checkAccountUpdate could not settle before the transaction.
		fields := in.Validate(a.Type, now)
		metadata := models.MergeMetadata(a.Metadata, in.Metadata)
		models.CheckMetadataSize(fields, "metadata", metadata)
		if err := fields.Err(); err != nil {
			return err
		}
		a.Metadata = metadata
		if in.ExternalID != nil {
			a.ExternalID = in.ExternalID
			if *in.ExternalID == "" {
				a.ExternalID = nil
			}
		}
		in.Profile.ApplyTo(&a.Profile)
		if in.TermsOfService != nil {
			terms, bind, err := termsOfAccount(ctx, aw.Tx, a.ID, in.TermsOfService, now)
			if err != nil {
				return err
			}
			a.TermsOfService = terms
			if bind != nil {
				return bind(ctx)
			}
		}
		return nil
	}, accountOf)
	if err != nil {
		return nil, err
	}
	return present(ctx, a), nil
}

func accountOf(aw *accountWrite) *models.Account { return aw.Account }
