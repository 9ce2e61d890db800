package money

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// deriveIntentSecret makes the derived part of a charge intent's client
// secret from the id of the record that keeps its hash: a secret key's
// reads make it again, and only the hash is stored.
func (s *Service) deriveIntentSecret(ctx context.Context, recordID uuid.UUID) (string, error) {
	return auth.DerivedSecrets(s.Secret, "charge_intent_client_secret")(ctx, recordID)
}

// ListWithSecrets is List as REST answers it to the secret key: each
// intent with its live client secret (one statement more, whatever the
// page size). The real service's server samples read a subscription's
// intent and hand its client_secret to the page (docs/payments.md).
func (cis *ChargeIntents) ListWithSecrets(ctx context.Context, f ChargeIntentFilter, lp op.ListParams) (op.Page[*models.ChargeIntent], error) {
	page, err := cis.List(ctx, f, lp)
	if err != nil {
		return page, err
	}
	p := auth.FromContext(ctx)
	return page, cis.svc.showSecrets(ctx, cis.svc.DB.Tenant(p.Scope), p, page.Items)
}

// showSecrets sets, for the secret key only, each intent's live client
// secret (made again from its record: only the hash is stored). A
// publishable key or a ci_ secret never reads one: the page that holds the
// secret already has it.
func (s *Service) showSecrets(ctx context.Context, tn *store.Tenant, p *auth.Principal, intents []*models.ChargeIntent) error {
	if p == nil || p.Kind != auth.SecretKey || len(intents) == 0 {
		return nil
	}
	idList := make([]uuid.UUID, len(intents))
	for i, ci := range intents {
		idList[i] = ci.ID
	}
	found, err := auth.ObjectSecretsOf(ctx, tn, auth.ChargeIntentSecret, auth.ChargeIntentSecretPrefix, idList,
		s.Clock.Now(), s.deriveIntentSecret)
	if err != nil {
		return err
	}
	for _, ci := range intents {
		if secret, ok := found[ci.ID]; ok {
			ci.ClientSecret = &secret
		}
	}
	return nil
}
