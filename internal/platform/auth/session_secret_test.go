package auth_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv"
)

func newAccount(t *testing.T, c *testenv.Client) string {
	t.Helper()
	r := c.Post("/v1/accounts", map[string]any{"type": "individual", "metadata": map[string]any{"tier": "gold"},
		"profile": map[string]any{"individual": map[string]any{"name": map[string]any{"first_name": "Ada", "last_name": "Lovelace"}}}})
	require.Equal(t, 201, r.Status, string(r.Body))
	return r.JSON()["id"].(string)
}

// issue mints a session secret the way the session endpoints will.
func issue(t *testing.T, env *testenv.Env, kind auth.Kind, accountID string) string {
	t.Helper()
	var secret string
	scope := store.Scope{MerchantID: env.Merchant.ID}
	err := env.DB.Tx(context.Background(), scope, func(ctx context.Context, tx *store.Tenant) error {
		var err error
		now := env.Clock.Now()
		secret, err = auth.IssueSessionSecret(ctx, tx, kind, ids.New(now), uuid.MustParse(accountID), now, 30*time.Minute)
		return err
	})
	require.NoError(t, err)
	return secret
}

func TestOnboardingSecretIsScopedToItsAccount(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	sk := env.Client(env.Keys.Sandbox.Secret)
	own, other := newAccount(t, sk), newAccount(t, sk)
	secret := issue(t, env, auth.OnboardingSession, own)
	require.Contains(t, secret, auth.OnboardingSecretPrefix)
	c := env.Client(secret)

	r := c.Get("/v1/accounts/" + own)
	require.Equal(t, 200, r.Status, string(r.Body))
	body := r.JSON()
	require.Contains(t, body, "profile", "the holder reads its own profile")
	require.NotContains(t, body, "metadata", "metadata is the merchant's")
	require.NotContains(t, body, "payout_payment_method_id")

	r = c.Get("/v1/accounts/" + other)
	require.Equal(t, 404, r.Status, "another account is out of scope and answered as missing")
	require.Equal(t, "resource_missing", r.JSON()["code"])

	r = c.Get("/v1/accounts")
	require.Equal(t, 403, r.Status)
	require.Equal(t, "forbidden", r.JSON()["code"])

	r = c.Patch("/v1/accounts/"+own, map[string]any{"profile": map[string]any{"individual": map[string]any{"email": "ada@example.com"}}})
	require.Equal(t, 200, r.Status, string(r.Body))
	r = c.Patch("/v1/accounts/"+own, map[string]any{"metadata": map[string]any{"tier": "x"}})
	require.Equal(t, 403, r.Status)
}

func TestCheckoutSecretSeesItsAccountRedacted(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	own := newAccount(t, env.Client(env.Keys.Sandbox.Secret))
	c := env.Client(issue(t, env, auth.CheckoutSession, own))
	r := c.Get("/v1/accounts/" + own)
	require.Equal(t, 200, r.Status)
	require.NotContains(t, r.JSON(), "profile")
	require.Equal(t, 403, c.Patch("/v1/accounts/"+own, map[string]any{}).Status)
}

func TestSessionSecretsExpireAndAreReplaced(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	sk := env.Client(env.Keys.Sandbox.Secret)
	own := newAccount(t, sk)

	first := issue(t, env, auth.OnboardingSession, own)
	require.Equal(t, 200, env.Client(first).Get("/v1/accounts/"+own).Status)
	second := issue(t, env, auth.OnboardingSession, own)
	r := env.Client(first).Get("/v1/accounts/" + own)
	require.Equal(t, 401, r.Status, "a new session ends the previous one at once")
	require.Equal(t, "invalid_client_secret", r.JSON()["code"])
	require.Equal(t, 200, env.Client(second).Get("/v1/accounts/"+own).Status)

	env.Clock.Advance(31 * time.Minute)
	require.Equal(t, 401, env.Client(second).Get("/v1/accounts/"+own).Status, "secrets last 30 minutes")
}

func TestDisablingAnAccountEndsItsSessions(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	sk := env.Client(env.Keys.Sandbox.Secret)
	own := newAccount(t, sk)
	secret := issue(t, env, auth.CheckoutSession, own)
	require.Equal(t, 200, sk.Delete("/v1/accounts/"+own).Status)
	require.Equal(t, 401, env.Client(secret).Get("/v1/accounts/"+own).Status)
}

func TestUnknownSessionSecretIsUnauthorized(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	r := env.Client(auth.OnboardingSecretPrefix + "nope").Get("/v1/accounts")
	require.Equal(t, 401, r.Status)
	require.Equal(t, "invalid_client_secret", r.JSON()["code"])
}
