package money

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Who may do what with a charge intent (API-DECISIONS §1, spec doc 2
// §5.3): the secret key everything; a publishable key may read and
// confirm an intent when the request carries that intent's client_secret;
// the client secret itself (ci_…, sent as the Bearer credential, as the
// official Node SDK does) may read and confirm its own intent. Both of the
// latter see the intent without its secret-key-only members.
var intentClients = []auth.Kind{auth.SecretKey, auth.PublishableKey, auth.ChargeIntentSecret}

// ChargeIntentSecretTTL is how long a ci_ client secret works: long enough
// for a customer to come back to a payment that waits for them (a
// subscription's charge needing 3-D Secure), bounded so that no secret is
// a credential for ever.
const ChargeIntentSecretTTL = 30 * 24 * time.Hour

// mayUseIntent refuses a caller that may not act on intent id: a ci_
// secret on any other intent and a publishable key whose client_secret is
// not the intent's are answered 404 (as for a missing intent, so that
// neither learns whether it exists); a publishable key without a
// client_secret is 403.
func mayUseIntent(ctx context.Context, t *store.Tenant, p *auth.Principal, id uuid.UUID, clientSecret *string, now time.Time) error {
	missing := apierr.NotFound("charge_intent", id.String())
	switch p.Kind {
	case auth.ChargeIntentSecret:
		if p.SessionID != id {
			return missing
		}
	case auth.PublishableKey:
		if clientSecret == nil || *clientSecret == "" {
			return apierr.Forbidden("A publishable key may read or confirm a charge intent only with its client_secret")
		}
		ok, err := auth.ObjectSecretMatches(ctx, t, auth.ChargeIntentSecret, id, *clientSecret, now)
		if err != nil {
			return err
		}
		if !ok {
			return missing
		}
	}
	return nil
}

// present makes the intent render as p may see it: the secret-key-only
// members (customer, account, metadata, revenue_split, order) are left out
// for every other credential.
func present(p *auth.Principal, ci *models.ChargeIntent) *models.ChargeIntent {
	if ci != nil {
		ci.SetPublic(p.Kind != auth.SecretKey)
	}
	return ci
}

// writeIntent runs an intent's write (op.Write) and presents its result,
// fresh or replayed, to the caller.
func (s *Service) writeIntent(ctx context.Context, spec op.Spec,
	fn func(ctx context.Context, w *op.W) (*models.ChargeIntent, error)) (*models.ChargeIntent, error) {
	ci, err := op.Write(ctx, s.Kit, spec, fn)
	if err != nil {
		return nil, err
	}
	if p := auth.FromContext(ctx); p != nil {
		present(p, ci)
	}
	return ci, nil
}
