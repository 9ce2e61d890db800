package rest_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestPayoutsAndFundingStayWithinTheirTenant(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := payoutAccount(t, f, "card_receive")
	card := f.sk.CreateAccountCard(id(a), "4242424242424242")
	entry := f.sk.TopUp(5000)
	p := f.sk.CreatePayout(testenv.Payout(id(card), 100))
	s := f.sk.Post("/v1/payout_funding/schedules", map[string]any{"amount": 10, "cadence": "daily",
		"next_run": f.env.Clock.Now().Add(time.Hour).Unix()}).JSON()

	_, otherKeys := f.env.NewMerchant(testAuthMerchant("Other"))
	other := f.env.Client(otherKeys.Sandbox.Secret)
	for _, c := range []*testenv.Client{other, f.live} {
		requireError(t, c.Get("/v1/payouts/"+id(p)), http.StatusNotFound, "resource_missing", "id")
		requireError(t, c.Get("/v1/payout_funding/schedules/"+id(s)), http.StatusNotFound, "resource_missing", "id")
		requireError(t, c.Patch("/v1/payout_funding/schedules/"+id(s), map[string]any{"enabled": false}),
			http.StatusNotFound, "resource_missing", "id")
		requireError(t, c.Get("/v1/payout_funding/entries/"+id(entry)), http.StatusNotFound, "resource_missing", "id")
		require.Empty(t, listOf(t, c, "/v1/payouts"))
		require.Empty(t, listOf(t, c, "/v1/payout_funding/schedules"))
		require.Empty(t, listOf(t, c, "/v1/payout_funding/entries"))
		require.Equal(t, 0.0, c.Get("/v1/merchant_balance").JSON()["dots_balance"])
	}
	// Another merchant's payment method is not a destination: the same
	// validation error as an unknown one, nothing about its existence.
	other.TopUp(5000)
	errs := requireValidation(t, other.Post("/v1/payouts", cardPayout(card, 100)), "payment_method")
	requireProblem(t, errs, "payment_method", "is not a payment method of this merchant and mode")
	// Production has no payout or bank provider.
	for path, body := range map[string]any{"/v1/payouts": cardPayout(card, 100),
		"/v1/payout_funding/top_ups":   map[string]any{"amount": 100},
		"/v1/payout_funding/schedules": map[string]any{"amount": 100, "cadence": "daily"}} {
		requireError(t, f.live.Post(path, body), http.StatusServiceUnavailable, "provider_not_configured", "")
	}
	require.Equal(t, int64(-4900), fundingBooks(t, f)["instant_payout"])
}

func TestPayoutsAndFundingNeedTheSecretKey(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := payoutAccount(t, f, "card_receive")
	card := f.sk.CreateAccountCard(id(a), "4242424242424242")
	f.sk.TopUp(5000)
	s := f.sk.CreateFundingSchedule(testenv.FundingSchedule(10, "daily"))
	holder := f.sk.OnboardingHolder(id(a))
	chk := f.sk.CreateCheckoutSession(testenv.CheckoutSessionSpec{AccountID: id(a), Amount: 100})
	for _, c := range []*testenv.Client{f.pk, holder,
		f.env.Client(*chk.ClientSecret)} {
		requireError(t, c.Post("/v1/payouts", cardPayout(card, 100)), http.StatusForbidden, "forbidden", "")
		requireError(t, c.Post("/v1/payout_funding/top_ups", map[string]any{"amount": 100}), http.StatusForbidden, "forbidden", "")
		requireError(t, c.Post("/v1/payout_funding/schedules", map[string]any{"amount": 1, "cadence": "daily"}),
			http.StatusForbidden, "forbidden", "")
		requireError(t, c.Patch("/v1/payout_funding/schedules/"+id(s), map[string]any{"enabled": false}),
			http.StatusForbidden, "forbidden", "")
		for _, path := range []string{"/v1/payouts", "/v1/payout_funding/schedules", "/v1/payout_funding/entries",
			"/v1/merchant_balance"} {
			requireError(t, c.Get(path), http.StatusForbidden, "forbidden", "")
		}
	}
	requireError(t, f.env.Client("").Get("/v1/merchant_balance"), http.StatusUnauthorized, "authentication_required", "")
	requireError(t, f.env.Client("sk_sandbox_"+strings.Repeat("x", 40)).Post("/v1/payouts", cardPayout(card, 100)),
		http.StatusUnauthorized, "invalid_api_key", "")
	require.Equal(t, int64(-5000), fundingBooks(t, f)["instant_payout"])
}

func TestHostilePayoutAndFundingBodies(t *testing.T) {
	t.Parallel()
	f := setup(t)
	for _, path := range []string{"/v1/payouts", "/v1/payout_funding/top_ups", "/v1/payout_funding/schedules"} {
		requireError(t, f.sk.Do(http.MethodPost, path, []byte("{"), nil), http.StatusBadRequest, "invalid_json", "")
		requireError(t, f.sk.Do(http.MethodPost, path, []byte(`{"amount": 1} {}`), nil), http.StatusBadRequest, "invalid_json", "")
		requireError(t, f.sk.Do(http.MethodPost, path, []byte("[1,2]"), nil), http.StatusBadRequest, "invalid_json", "")
		requireError(t, f.sk.Post(path, map[string]any{"amount": 1.5}), http.StatusBadRequest, "parameter_invalid", "amount")
		requireError(t, f.sk.Post(path, map[string]any{"amount": "1e400"}), http.StatusBadRequest, "parameter_invalid", "amount")
		huge := `{"amount": 1, "pad": "` + strings.Repeat("x", 2<<20) + `"}`
		requireError(t, f.sk.Do(http.MethodPost, path, []byte(huge), nil), http.StatusBadRequest, "invalid_json", "")
		r := f.sk.Post(path, map[string]any{"amount": int64(1) << 62, "currency": "USD", "cadence": "daily",
			"payment_method": "00000000-0000-0000-0000-000000000000"})
		errs := requireError(t, r, http.StatusUnprocessableEntity, "validation_errors", r.JSON()["param"].(string))
		require.Contains(t, errorDetails(errs)["errors"], "amount")
	}
	requireValidation(t, f.sk.Post("/v1/payout_funding/top_ups", map[string]any{"amount": 1, "idempotency_key": "a\x00b"}),
		"idempotency_key")
	requireValidation(t, f.sk.Post("/v1/payouts", map[string]any{"amount": 1, "currency": "USD", "payment_method": "1",
		"metadata": map[string]any{strings.Repeat("k", 41): "v"}}), "payment_method", "metadata."+strings.Repeat("k", 41))
	requireError(t, f.sk.Get("/v1/payout_funding/entries?schedule=%00"), http.StatusBadRequest, "parameter_invalid", "schedule")
	require.Empty(t, listOf(t, f.sk, "/v1/payouts"))
	require.Empty(t, listOf(t, f.sk, "/v1/payout_funding/entries"))
	require.Empty(t, listEvents(t, f.sk, ""))
}

func TestPayoutWritesRunAFixedNumberOfStatements(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := payoutAccount(t, f, "card_receive")
	card := f.sk.CreateAccountCard(id(a), "4242424242424242")
	f.sk.PayoutPricing("deduct")
	r := f.sk.Post("/v1/payout_funding/top_ups", map[string]any{"amount": 100000})
	require.Equal(t, http.StatusCreated, r.Status)
	// credential, entry, ledger accounts, journal, entries, events
	require.Equal(t, 6, r.Statements, "top-up")
	for range 3 {
		r = f.sk.Post("/v1/payouts", cardPayout(card, 100))
		require.Equal(t, http.StatusCreated, r.Status)
		// credential, payment method, capabilities, balance account,
		// balance lock, agreements, payout, ledger accounts, journal,
		// entries, events
		require.Equal(t, 11, r.Statements, "payout")
	}
	r = f.sk.Get("/v1/merchant_balance")
	require.Equal(t, 2, r.Statements, "balance: credential, one read")
	r = f.sk.Get("/v1/payouts")
	require.Equal(t, 2, r.Statements, "list: credential, one read")
}
