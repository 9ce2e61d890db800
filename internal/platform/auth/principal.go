// Package auth turns a Bearer credential into a Principal: which merchant,
// which mode, and which kind of credential is calling. The operation layer
// asks the Principal what it may do; the transports only carry it.
package auth

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

// Kind is a kind of credential (API-DECISIONS §1).
type Kind string

// Credential kinds.
const (
	SecretKey         Kind = "secret"
	PublishableKey    Kind = "publishable"
	OnboardingSession Kind = "onboarding_session"
	CheckoutSession   Kind = "checkout_session"
	// CustomerOnboardingSession is the client secret (onb_sess_…) of a
	// customer's onboarding session: it reads its own session and belongs
	// to no account, so every account operation refuses it.
	CustomerOnboardingSession Kind = "customer_onboarding_session"
	// ChargeIntentSecret is a charge intent's client secret
	// (ci_<id>_secret_<random>): it may read and confirm its own intent.
	ChargeIntentSecret Kind = "charge_intent"
	// Service is the service itself, acting in the background (a job that
	// concludes a verification). No credential is of this kind, so no
	// request can act as it.
	Service Kind = "service"
)

// ServicePrincipal is the service acting for one merchant and mode, the
// caller of background work.
func ServicePrincipal(scope store.Scope) *Principal {
	return &Principal{Kind: Service, Merchant: &Merchant{ID: scope.MerchantID}, Scope: scope}
}

// Principal is the authenticated caller.
type Principal struct {
	Kind         Kind
	Merchant     *Merchant
	Scope        store.Scope
	CredentialID uuid.UUID
	// AccountID and SessionID are set for session secrets, which are scoped
	// to one account (a charge intent's secret: to its intent, SessionID,
	// and AccountID may be zero).
	AccountID uuid.UUID
	SessionID uuid.UUID

	// secret is the session secret the request presented (empty for an
	// API key): set on the request's own copy of the principal, never
	// cached, so a bootstrap can answer the secret it was called with.
	secret string

	// cache is the credential cache the principal was authenticated
	// through (nil without one): a change the request makes to credentials
	// drops them from it at once.
	cache *CredentialCache
}

type principalKey struct{}

// PresentedSecret is the session secret (onb_sess_, chk_sess_, ci_) the
// caller authenticated with, or "" for an API key.
func (p *Principal) PresentedSecret() string { return p.secret }

// WithPrincipal attaches p to ctx.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// FromContext returns the caller, or nil when the request is anonymous.
func FromContext(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}

// Require returns the caller when its credential is one of kinds. An
// anonymous request is 401; a credential of another kind is 403.
func Require(ctx context.Context, kinds ...Kind) (*Principal, error) {
	p := FromContext(ctx)
	if p == nil {
		return nil, apierr.Unauthorized(apierr.CodeAuthenticationNeeded,
			"No credential provided: send 'Authorization: Bearer <key>'")
	}
	for _, k := range kinds {
		if p.Kind == k {
			return p, nil
		}
	}
	return nil, apierr.Forbidden("A " + string(p.Kind) + " credential may not perform this operation")
}

// SeesAccount reports whether the caller may see the account with id at
// all. Session secrets see only their own account; anything else is
// answered as missing, so the scope does not leak existence.
func (p *Principal) SeesAccount(id uuid.UUID) bool {
	switch p.Kind {
	case OnboardingSession, CheckoutSession:
		return p.AccountID == id
	case ChargeIntentSecret, CustomerOnboardingSession:
		return false
	default:
		return true
	}
}

// SeesMerchantInternals reports whether responses may carry the
// merchant-internal fields (metadata, payout method, profile).
func (p *Principal) SeesMerchantInternals() bool {
	return p.Kind == SecretKey
}

// ModeName is "production" or "sandbox".
func ModeName(livemode bool) string {
	if livemode {
		return "production"
	}
	return "sandbox"
}
