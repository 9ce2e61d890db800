package accounts

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Create creates a connected account with its requested
// capabilities (and their dependencies) in one transaction. Requirements
// are evaluated once: a capability satisfied at creation is stored active.
func (as *Accounts) Create(ctx context.Context, in *models.CreateAccountInput) (*models.Account, error) {
	s := as.svc
	spec := op.Spec{Name: "account.create", Allow: []auth.Kind{auth.SecretKey}, Params: in, Check: op.AtAnyTime(in.Validate)}
	a, err := op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.Account, error) {
		clock, err := w.AtTestClock(ctx, "test_clock", in.TestClock)
		if err != nil {
			return nil, err
		}
		now := w.Now()
		// At the account's time (its test clock's, when bound to one): what
		// the check before the transaction could not settle (op.AtAnyTime).
		if err := in.Validate(now); err != nil {
			return nil, err
		}
		plan, err := planCapabilities(w.P, in.CapabilityNames())
		if err != nil {
			return nil, err
		}
		a := &models.Account{ID: ids.New(now), Type: *in.Type, Status: models.AccountStatusPending,
			RestrictedBy: []models.Restrictor{}, ExternalID: in.ExternalID, TestClockID: clock, Metadata: models.MergeMetadata(nil, in.Metadata),
			Created: models.At(now), Updated: models.At(now)}
		in.Profile.ApplyTo(&a.Profile)
		var bindTerms func(context.Context) error
		if in.TermsOfService != nil {
			if a.TermsOfService, bindTerms, err = termsOfAccount(ctx, w.Tx, a.ID, in.TermsOfService, now); err != nil {
				return nil, err
			}
		}
		caps, _ := ensureCapabilities(a, nil, plan, now)
		d := s.derive(a, caps)
		created, err := events.Render(a)
		if err != nil {
			return nil, err
		}
		activated, accountActivated := s.reconcile(a, d, models.At(now), nil)
		if _, err := w.Tx.Insert(a).Exec(ctx); err != nil {
			return nil, externalIDTaken(err)
		}
		if err := saveCapabilities(ctx, w.Tx, nil, caps); err != nil {
			return nil, err
		}
		if bindTerms != nil {
			if err := bindTerms(ctx); err != nil {
				return nil, err
			}
		}
		w.Emit(EventAccountCreated, a.ID, created, nil)
		if len(activated) == 0 && !accountActivated {
			return a, nil
		}
		after, err := events.Render(a)
		if err != nil {
			return nil, err
		}
		return a, emitActivations(w, a, after, activated, accountActivated)
	})
	if err != nil {
		return nil, err
	}
	return present(ctx, a), nil
}
