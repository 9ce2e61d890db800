package auth

import (
	"context"
	"crypto/sha256"
	"net/http"
	"strings"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

// Authenticator resolves credentials against the stored hashes.
type Authenticator struct {
	DB    *store.DB
	Clock clock.Clock
	// Cache, when set, answers repeated credentials without a statement
	// (cache.go); nil asks the database every time.
	Cache *CredentialCache
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

// Authenticate resolves one credential: from the cache when it holds it,
// else with one statement joining the credential with its merchant.
func (a *Authenticator) Authenticate(ctx context.Context, cred string) (*Principal, error) {
	session := strings.HasPrefix(cred, OnboardingSecretPrefix) || strings.HasPrefix(cred, CheckoutSecretPrefix) ||
		strings.HasPrefix(cred, ChargeIntentSecretPrefix)
	invalid := invalidKey
	var kind Kind
	var livemode bool
	if session {
		invalid = invalidSecret
	} else {
		var ok bool
		if kind, livemode, ok = parseKey(cred); !ok {
			return nil, invalidKey()
		}
	}
	h := sha256.Sum256([]byte(cred))
	now := a.Clock.Now()
	if p, found, valid := a.Cache.lookup(h, now); found {
		if !valid {
			return nil, invalid()
		}
		if session {
			p.secret = cred
		}
		return p, nil
	}
	token := a.Cache.begin()
	var e *cached
	var err error
	if session {
		e, err = a.sessionSecret(ctx, h[:], now)
	} else {
		e, err = a.apiKey(ctx, h[:], kind, livemode, now)
	}
	if err != nil {
		return nil, err
	}
	if e == nil {
		a.Cache.forget(h)
		return nil, invalid()
	}
	e.principal.cache = a.Cache
	if !e.onClock {
		a.Cache.put(token, h, e)
	}
	p := e.principal
	if session {
		p.secret = cred
	}
	return &p, nil
}

// apiKey reads an API key with its merchant; nil when it is unknown or no
// longer valid.
func (a *Authenticator) apiKey(ctx context.Context, hash []byte, kind Kind, livemode bool, now time.Time) (*cached, error) {
	key := new(APIKey)
	err := a.DB.Bun.NewSelect().Model(key).Relation("Merchant").Where("k.hash = ?", hash).Limit(1).Scan(ctx)
	if store.IsNoRows(err) {
		return nil, nil
	}
	if err != nil {
		return nil, apierr.Internal(err)
	}
	if !key.RevokedAt.IsZero() || (!key.ExpiresAt.IsZero() && !now.Before(key.ExpiresAt.Time)) ||
		Kind(key.Kind) != kind || key.Livemode != livemode {
		return nil, nil
	}
	m := key.Merchant
	var expires time.Time
	if !key.ExpiresAt.IsZero() {
		expires = key.ExpiresAt.Time
	}
	return &cached{principal: Principal{Kind: kind, Merchant: m, CredentialID: key.ID,
		Scope: store.Scope{MerchantID: m.ID, Livemode: livemode}}, expires: expires, loaded: now}, nil
}

// sessionSecret reads a session secret with its merchant; nil when it is
// unknown or no longer valid.
//
// The secret of an onboarding or checkout session of an account bound to
// a test clock expires on the clock's time, not the server's: the same
// statement reads the clock's frozen_time (sessionClockTime), and such a
// secret is judged against it. It is not cached, since an advance moves
// the clock without announcing anything to the cache.
func (a *Authenticator) sessionSecret(ctx context.Context, hash []byte, now time.Time) (*cached, error) {
	s := new(SessionSecret)
	err := a.DB.Bun.NewSelect().Model(s).ColumnExpr("?TableColumns").ColumnExpr(sessionClockTime, OnboardingSession, CheckoutSession).
		Relation("Merchant").Where("ss.hash = ?", hash).Limit(1).Scan(ctx)
	if store.IsNoRows(err) {
		return nil, nil
	}
	if err != nil {
		return nil, apierr.Internal(err)
	}
	at := now
	if s.ClockTime != nil {
		at = *s.ClockTime
	}
	if !s.RevokedAt.IsZero() || !at.Before(s.ExpiresAt.Time) {
		return nil, nil
	}
	return &cached{principal: Principal{Kind: Kind(s.Kind), Merchant: s.Merchant, CredentialID: s.ID,
		AccountID: s.AccountID, SessionID: s.SessionID, Scope: store.Scope{MerchantID: s.MerchantID, Livemode: s.Livemode}},
		expires: s.ExpiresAt.Time, loaded: now, onClock: s.ClockTime != nil}, nil
}

// sessionClockTime is the column a session secret is read with: the
// frozen_time of the test clock its account is bound to, for the kinds
// that follow the clock (onboarding and checkout sessions; the
// placeholders), else NULL.
const sessionClockTime = "(SELECT tc.frozen_time FROM accounts AS acc JOIN test_clocks AS tc ON tc.id = acc.test_clock_id " +
	"WHERE acc.merchant_id = ss.merchant_id AND acc.livemode = ss.livemode AND acc.id = ss.account_id " +
	"AND ss.kind IN (?, ?)) AS clock_time"

func invalidKey() error {
	return apierr.Unauthorized(apierr.CodeInvalidAPIKey, "Invalid API key provided")
}

func invalidSecret() error {
	return apierr.Unauthorized(apierr.CodeInvalidClientSecret, "Invalid or expired client secret")
}
