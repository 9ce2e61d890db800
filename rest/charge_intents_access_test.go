package rest_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// A publishable key reads and confirms an intent with its client_secret
// (in the query of a read, in the body of a confirm), and sees it without
// customer, account, metadata, revenue_split and order.
func TestPublishableKeyUsesAnIntentWithItsClientSecret(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newIntentPayer(t, f.sk, "4242424242424242")
	ci := createIntent(t, f.sk, p.intent(1000, map[string]any{"confirm": false, "metadata": map[string]any{"internal": "x"}}))
	secret := ci["client_secret"].(string)
	other := createIntent(t, f.sk, p.intent(500, map[string]any{"confirm": false}))

	requireError(t, f.pk.Get("/v1/charge_intents/"+id(ci)), http.StatusForbidden, "forbidden", "")
	requireError(t, f.pk.Post("/v1/charge_intents/"+id(ci)+"/confirm", nil), http.StatusForbidden, "forbidden", "")
	for _, wrong := range []string{other["client_secret"].(string), "ci_" + id(ci) + "_secret_nope", "garbage"} {
		requireError(t, f.pk.Get("/v1/charge_intents/"+id(ci)+"?client_secret="+url.QueryEscape(wrong)),
			http.StatusNotFound, "resource_missing", "id")
		requireError(t, f.pk.Post("/v1/charge_intents/"+id(ci)+"/confirm", map[string]any{"client_secret": wrong}),
			http.StatusNotFound, "resource_missing", "id")
	}
	requireError(t, f.pk.Get("/v1/charge_intents/"+id(other)+"?client_secret="+url.QueryEscape(secret)),
		http.StatusNotFound, "resource_missing", "id")

	r := f.pk.Get("/v1/charge_intents/" + id(ci) + "?client_secret=" + url.QueryEscape(secret))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, publicIntentKeys, keys(r.JSON()))
	require.Equal(t, id(p.customer), r.JSON()["customer_id"], "customer_id remains")
	require.NotContains(t, string(r.Body), `"internal"`)

	body := map[string]any{"client_secret": secret, "use_frame_sdk": true}
	r = f.pk.Do(http.MethodPost, "/v1/charge_intents/"+id(ci)+"/confirm", body, withKey("browser-1"))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "succeeded", r.JSON()["status"])
	require.Equal(t, sorted(append([]string{"latest_charge"}, publicIntentKeys...)...), keys(r.JSON()),
		"a succeeded intent carries its charge")
	again := f.pk.Do(http.MethodPost, "/v1/charge_intents/"+id(ci)+"/confirm", body, withKey("browser-1"))
	require.Equal(t, "true", again.Header.Get("Idempotent-Replayed"))
	require.JSONEq(t, string(r.Body), string(again.Body), "a replay leaves the same members out")

	// Everything else is the secret key's.
	for _, op := range []operation{
		{http.MethodPost, "/v1/charge_intents", p.intent(100, nil)},
		{http.MethodGet, "/v1/charge_intents", nil},
		{http.MethodPatch, "/v1/charge_intents/" + id(ci), map[string]any{"description": "x", "client_secret": secret}},
		{http.MethodPost, "/v1/charge_intents/" + id(ci) + "/capture", map[string]any{"client_secret": secret}},
		{http.MethodPost, "/v1/charge_intents/" + id(ci) + "/cancel", map[string]any{"client_secret": secret}},
		{http.MethodPost, "/v1/charge_intents/" + id(ci) + "/void_remaining", nil},
		{http.MethodPost, "/v1/test_helpers/charge_intents/" + id(ci) + "/complete_3d_secure", nil},
	} {
		requireError(t, f.pk.Do(op.method, op.path, op.body, nil), http.StatusForbidden, "forbidden", "")
	}
}

// The client secret itself, sent as the Bearer credential (as the official
// Node SDK does), reads and confirms its own intent and nothing else.
func TestClientSecretReachesItsOwnIntentOnly(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newIntentPayer(t, f.sk, "4242424242424242")
	acct := f.sk.CreateAccount(testenv.Individual())
	ci := createIntent(t, f.sk, p.intent(1000, map[string]any{"confirm": false}))
	other := createIntent(t, f.sk, p.intent(500, map[string]any{"confirm": false}))
	c := f.env.Client(ci["client_secret"].(string))

	r := c.Get("/v1/charge_intents/" + id(ci))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, publicIntentKeys, keys(r.JSON()))
	requireError(t, c.Get("/v1/charge_intents/"+id(other)), http.StatusNotFound, "resource_missing", "id")
	requireError(t, c.Post("/v1/charge_intents/"+id(other)+"/confirm", nil), http.StatusNotFound, "resource_missing", "id")
	require.Equal(t, "requires_confirmation", f.sk.Get("/v1/charge_intents/" + id(other)).JSON()["status"])
	for _, op := range []operation{
		{http.MethodPost, "/v1/charge_intents", p.intent(100, nil)},
		{http.MethodGet, "/v1/charge_intents", nil},
		{http.MethodPatch, "/v1/charge_intents/" + id(ci), map[string]any{"description": "x"}},
		{http.MethodPost, "/v1/charge_intents/" + id(ci) + "/capture", nil},
		{http.MethodPost, "/v1/charge_intents/" + id(ci) + "/cancel", nil},
		{http.MethodPost, "/v1/charge_intents/" + id(ci) + "/void_remaining", nil},
		{http.MethodGet, "/v1/accounts/" + id(acct), nil},
		{http.MethodGet, "/v1/customers/" + id(p.customer), nil},
		{http.MethodPost, "/v1/payment_methods", testenv.CardBody("", "4242424242424242")},
		{http.MethodGet, "/v1/transfers", nil},
		{http.MethodGet, "/v1/charges/" + id(ci), nil},
	} {
		requireError(t, c.Do(op.method, op.path, op.body, nil), http.StatusForbidden, "forbidden", "")
	}
	r = c.Post("/v1/charge_intents/"+id(ci)+"/confirm", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "succeeded", r.JSON()["status"])
	require.Equal(t, sorted(append([]string{"latest_charge"}, publicIntentKeys...)...), keys(r.JSON()),
		"a succeeded intent carries its charge")
	r = c.Get("/v1/charge_intents/" + id(ci))
	require.Equal(t, "succeeded", r.JSON()["status"], "the browser polls the final status")

	// Another merchant's secret sees none of this merchant's intents; a
	// secret that is not one (forged, tampered) is 401.
	_, k := f.env.NewMerchant(testAuthMerchant("B"))
	theirs := f.env.Client(k.Sandbox.Secret)
	theirs.StandardPricing()
	q := newIntentPayer(t, theirs, "4242424242424242")
	theirSecret := createIntent(t, theirs, q.intent(100, map[string]any{"confirm": false}))["client_secret"].(string)
	requireError(t, f.env.Client(theirSecret).Get("/v1/charge_intents/"+id(ci)), http.StatusNotFound, "resource_missing", "id")
	tampered := strings.TrimSuffix(ci["client_secret"].(string), "A") + "B"
	for _, bad := range []string{"ci_" + id(ci) + "_secret_x", tampered + "x"} {
		requireError(t, f.env.Client(bad).Get("/v1/charge_intents/"+id(ci)), http.StatusUnauthorized, "invalid_client_secret", "")
	}
}

// A replayed create answers the same intent with a newly issued secret:
// no client secret is kept in clear, not even for replays. Both work.
func TestReplayedCreateIssuesAWorkingSecret(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newIntentPayer(t, f.sk, "4242424242424242")
	body := p.intent(1000, map[string]any{"confirm": false})
	first := f.sk.Do(http.MethodPost, "/v1/charge_intents", body, withKey("ci-1"))
	require.Equal(t, http.StatusCreated, first.Status, string(first.Body))
	again := f.sk.Do(http.MethodPost, "/v1/charge_intents", body, withKey("ci-1"))
	require.Equal(t, http.StatusCreated, again.Status, string(again.Body))
	require.Equal(t, "true", again.Header.Get("Idempotent-Replayed"))
	a, b := first.JSON(), again.JSON()
	require.Equal(t, id(a), id(b))
	require.NotEqual(t, a["client_secret"], b["client_secret"])
	delete(a, "client_secret")
	delete(b, "client_secret")
	require.Equal(t, a, b)
	for _, s := range []any{first.JSON()["client_secret"], again.JSON()["client_secret"]} {
		require.Equal(t, http.StatusOK, f.env.Client(s.(string)).Get("/v1/charge_intents/"+id(a)).Status)
	}
	require.Len(t, listOf(t, f.sk, "/v1/charge_intents"), 1)
}

// A browser holding an intent's secret may pay with a card it created (no
// one's) or one of the intent's payer, never with someone else's saved
// card: only the secret key lets a payment method name the payer.
func TestClientSecretCannotChargeSomeoneElsesCard(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	victim := newIntentPayer(t, f.sk, "4242424242424242")
	ci := createIntent(t, f.sk, map[string]any{"amount": 1000, "currency": "usd"})
	require.Nil(t, ci["customer_id"])
	browser := f.env.Client(ci["client_secret"].(string))
	errs := requireValidation(t, browser.Post("/v1/charge_intents/"+id(ci)+"/confirm",
		map[string]any{"payment_method": id(victim.card)}), "payment_method")
	requireProblem(t, errs, "payment_method", "belongs to someone who is not the charge intent's payer")
	errs = requireValidation(t, f.pk.Post("/v1/charge_intents/"+id(ci)+"/confirm",
		map[string]any{"payment_method": id(victim.card), "client_secret": ci["client_secret"]}), "payment_method")
	requireProblem(t, errs, "payment_method", "belongs to someone who is not the charge intent's payer")

	r := f.pk.Post("/v1/payment_methods", testenv.CardBody("", "5555555555554444"))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	r = browser.Post("/v1/charge_intents/"+id(ci)+"/confirm", map[string]any{"payment_method": id(r.JSON())})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "succeeded", r.JSON()["status"])
	require.Nil(t, r.JSON()["customer_id"])
}
