package auth

import (
	"context"
	"net/http"
	"strings"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

// Authenticator resolves credentials against the stored hashes.
type Authenticator struct {
	DB    *store.DB
	Clock clock.Clock
}

// FromRequest authenticates the request's Authorization header. A request
// without one yields a nil principal (operations then answer 401).
func (a *Authenticator) FromRequest(r *http.Request) (*Principal, error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return nil, nil
	}
	scheme, cred, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(cred) == "" {
		return nil, apierr.Unauthorized(apierr.CodeAuthenticationNeeded,
			"Malformed Authorization header: use 'Bearer <credential>'")
	}
	return a.Authenticate(r.Context(), strings.TrimSpace(cred))
}

// Authenticate resolves one credential.
func (a *Authenticator) Authenticate(ctx context.Context, cred string) (*Principal, error) {
	if strings.HasPrefix(cred, OnboardingSecretPrefix) || strings.HasPrefix(cred, CheckoutSecretPrefix) {
		return a.sessionSecret(ctx, cred)
	}
	kind, livemode, ok := parseKey(cred)
	if !ok {
		return nil, invalidKey()
	}
	key := new(APIKey)
	err := a.DB.Bun.NewSelect().Model(key).Relation("Merchant").Where("k.hash = ?", Hash(cred)).Limit(1).Scan(ctx)
	if store.IsNoRows(err) {
		return nil, invalidKey()
	}
	if err != nil {
		return nil, apierr.Internal(err)
	}
	now := a.Clock.Now()
	if !key.RevokedAt.IsZero() || (!key.ExpiresAt.IsZero() && !now.Before(key.ExpiresAt.Time)) ||
		Kind(key.Kind) != kind || key.Livemode != livemode {
		return nil, invalidKey()
	}
	m := key.Merchant
	return &Principal{Kind: kind, Merchant: m, CredentialID: key.ID,
		Scope: store.Scope{MerchantID: m.ID, Livemode: livemode}}, nil
}

func (a *Authenticator) sessionSecret(ctx context.Context, cred string) (*Principal, error) {
	s := new(SessionSecret)
	err := a.DB.Bun.NewSelect().Model(s).Relation("Merchant").Where("ss.hash = ?", Hash(cred)).Limit(1).Scan(ctx)
	if store.IsNoRows(err) {
		return nil, invalidSecret()
	}
	if err != nil {
		return nil, apierr.Internal(err)
	}
	if !s.RevokedAt.IsZero() || !a.Clock.Now().Before(s.ExpiresAt.Time) {
		return nil, invalidSecret()
	}
	return &Principal{Kind: Kind(s.Kind), Merchant: s.Merchant, CredentialID: s.ID, AccountID: s.AccountID,
		SessionID: s.SessionID, Scope: store.Scope{MerchantID: s.MerchantID, Livemode: s.Livemode}}, nil
}

func invalidKey() error {
	return apierr.Unauthorized(apierr.CodeInvalidAPIKey, "Invalid API key provided")
}

func invalidSecret() error {
	return apierr.Unauthorized(apierr.CodeInvalidClientSecret, "Invalid or expired client secret")
}
