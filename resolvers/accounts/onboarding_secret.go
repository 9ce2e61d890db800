package accounts

import (
	"context"
	"maps"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/models"
)

// deriveOnboardingSecret makes the part after onb_sess_ of a session's
// client secret from the id of the record that keeps its hash: the secret
// key's reads make it again, and only the hash is stored.
func (ob *Onboarding) deriveOnboardingSecret(ctx context.Context, recordID uuid.UUID) (string, error) {
	return auth.DerivedSecrets(ob.svc.Secret, "onboarding_session_client_secret")(ctx, recordID)
}

// showSecrets sets, for the secret key only, each session's live client
// secret (docs/decisions.md, Onboarding sessions): the real service's
// SDK types it on a session read by its account. The secret key may open
// a session for any account anyway, so showing it again gives nothing
// more; other credentials never read it. One statement, however many
// sessions of a kind (an account's, a customer's); a secret minted at random before secrets were derived, or
// ended, stays null.
func (ob *Onboarding) showSecrets(ctx context.Context, sessions ...*models.OnboardingSession) error {
	p := auth.FromContext(ctx)
	if p == nil || p.Kind != auth.SecretKey || len(sessions) == 0 {
		return nil
	}
	var ofAccounts, ofCustomers []uuid.UUID
	for _, sess := range sessions {
		if sess.CustomerID != nil {
			ofCustomers = append(ofCustomers, sess.ID)
		} else {
			ofAccounts = append(ofAccounts, sess.ID)
		}
	}
	found := map[uuid.UUID]string{}
	for kind, idList := range map[auth.Kind][]uuid.UUID{auth.OnboardingSession: ofAccounts,
		auth.CustomerOnboardingSession: ofCustomers} {
		if len(idList) == 0 {
			continue
		}
		secrets, err := auth.SessionSecretsOf(ctx, ob.svc.DB.Tenant(p.Scope), kind, idList, ob.svc.Clock.Now(),
			ob.deriveOnboardingSecret)
		if err != nil {
			return err
		}
		maps.Copy(found, secrets)
	}
	for _, sess := range sessions {
		if secret, ok := found[sess.ID]; ok {
			sess.ClientSecret = &secret
		}
	}
	return nil
}

// OfAccountWithSecret is OfAccount as REST answers it to the secret key:
// the session with its live client secret.
func (ob *Onboarding) OfAccountWithSecret(ctx context.Context, accountID string) (*models.OnboardingSession, error) {
	sess, err := ob.OfAccount(ctx, accountID)
	if err != nil {
		return nil, err
	}
	return sess, ob.showSecrets(ctx, sess)
}
