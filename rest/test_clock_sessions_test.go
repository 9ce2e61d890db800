package rest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// clockedAccount creates an account bound to clock from spec.
func clockedAccount(t *testing.T, f *fixture, spec testenv.AccountSpec, clock string) map[string]any {
	t.Helper()
	r := f.sk.Post("/v1/accounts", merge(spec.RESTBody(), map[string]any{"test_clock": clock}))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	return r.JSON()
}

// A checkout session of an account on a test clock lives on the clock's
// time: it expires 30 minutes after the clock's frozen_time at create,
// when the clock passes that, whatever the server's clock says; a session
// of an account on no clock keeps the server's time.
func TestCheckoutSessionOnTestClock(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	clock := id(f.sk.CreateTestClock(testenv.TestClock(jan10)))
	acct := clockedAccount(t, f, testenv.Individual(), clock)
	card := f.sk.CreateAccountCard(id(acct), "4242424242424242")

	r := f.sk.Post("/v1/checkout_sessions", testenv.CheckoutSession(id(acct), 2500).RESTBody())
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	s := r.JSON()
	require.Equal(t, jan10.Unix(), num(s["created"]))
	require.Equal(t, jan10.Add(30*time.Minute).Unix(), num(s["expires_at"]))
	chk := f.env.Client(s["client_secret"].(string))

	unbound := newPayer(t, f.sk, "4242424242424242")
	r = f.sk.Post("/v1/checkout_sessions", testenv.CheckoutSession(id(unbound.account), 1000).RESTBody())
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	plain := r.JSON()
	require.Equal(t, testenv.Start.Add(30*time.Minute).Unix(), num(plain["expires_at"]), "on the server's time")
	plainChk := f.env.Client(plain["client_secret"].(string))

	// The server's clock does not end a session on a test clock.
	f.env.Clock.Advance(31 * time.Minute)
	created := chk.Post("/v1/transfers", map[string]any{"source": map[string]any{"payment_method_id": id(card)}, "confirm": false})
	require.Equal(t, http.StatusCreated, created.Status, string(created.Body))
	tr := created.JSON()
	require.Equal(t, http.StatusOK, chk.Get("/v2/transfers/"+id(tr)).Status)
	requireError(t, plainChk.Post("/v1/transfers", map[string]any{"source": map[string]any{"payment_method_id": id(unbound.card)}}),
		http.StatusUnauthorized, "invalid_client_secret", "")

	// Not before the clock reaches expires_at.
	f.sk.AdvanceTestClock(clock, jan10.Add(29*time.Minute))
	require.Equal(t, http.StatusOK, chk.Get("/v2/transfers/"+id(tr)).Status)
	f.sk.AdvanceTestClock(clock, jan10.Add(31*time.Minute))
	requireError(t, chk.Get("/v2/transfers/"+id(tr)), http.StatusUnauthorized, "invalid_client_secret", "")
	requireError(t, chk.Post("/v1/transfers", map[string]any{"source": map[string]any{"payment_method_id": id(card)}}),
		http.StatusUnauthorized, "invalid_client_secret", "")

	// A new session after the advance starts from the clock's time.
	r = f.sk.Post("/v1/checkout_sessions", testenv.CheckoutSession(id(acct), 2500).RESTBody())
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, jan10.Add(61*time.Minute).Unix(), num(r.JSON()["expires_at"]))
	again := f.env.Client(r.JSON()["client_secret"].(string)).
		Post("/v1/transfers", map[string]any{"source": map[string]any{"payment_method_id": id(card)}, "confirm": false})
	require.Equal(t, http.StatusCreated, again.Status, string(again.Body))
}

// An onboarding session of an account on a test clock lives on the
// clock's time: created at the clock's frozen_time, it and its secret
// expire when the clock passes expires_at, not with the server's clock; a
// session of an account on no clock keeps the server's time.
func TestOnboardingSessionOnTestClock(t *testing.T) {
	t.Parallel()
	f := setup(t)
	clock := id(f.sk.CreateTestClock(testenv.TestClock(jan10)))
	acct := clockedAccount(t, f, testenv.Individual().WithCapabilities("idv"), clock)
	plainAcct := f.sk.CreateAccount(testenv.Individual().WithCapabilities("idv"))

	open := func(account map[string]any) (map[string]any, *testenv.Client) {
		t.Helper()
		r := f.sk.Post("/v1/onboarding_sessions", map[string]any{"account_id": id(account)})
		require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
		return r.JSON(), f.env.Client(r.JSON()["client_secret"].(string))
	}
	live := func(account map[string]any, holder *testenv.Client) {
		t.Helper()
		b := holder.Get("/v1/onboarding_sessions/bootstrap")
		require.Equal(t, http.StatusOK, b.Status, string(b.Body))
		got := f.sk.Get("/v1/onboarding_sessions?account_id=" + id(account))
		require.Equal(t, http.StatusOK, got.Status, string(got.Body))
	}
	expired := func(account map[string]any, holder *testenv.Client) {
		t.Helper()
		requireError(t, holder.Get("/v1/onboarding_sessions/bootstrap"), http.StatusUnauthorized, "invalid_client_secret", "")
		requireError(t, f.sk.Get("/v1/onboarding_sessions?account_id="+id(account)), http.StatusNotFound, "resource_missing", "account_id")
	}

	s, holder := open(acct)
	require.Equal(t, jan10.Add(30*time.Minute).Unix(), num(s["expires_at"]))
	plain, plainHolder := open(plainAcct)
	require.Equal(t, testenv.Start.Add(30*time.Minute).Unix(), num(plain["expires_at"]))
	live(acct, holder)
	live(plainAcct, plainHolder)

	f.env.Clock.Advance(31 * time.Minute)
	live(acct, holder)
	expired(plainAcct, plainHolder)

	f.sk.AdvanceTestClock(clock, jan10.Add(29*time.Minute))
	live(acct, holder)
	f.sk.AdvanceTestClock(clock, jan10.Add(31*time.Minute))
	expired(acct, holder)

	// A new session starts from the clock's time.
	s, holder = open(acct)
	require.Equal(t, jan10.Add(61*time.Minute).Unix(), num(s["expires_at"]))
	live(acct, holder)
}
