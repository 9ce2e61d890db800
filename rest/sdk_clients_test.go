package rest_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// The real service's server samples create a subscription, GET its
// charge intent with the secret key and hand the intent's client_secret to
// the page: a secret key reads an intent's live client secret on GET and
// in the list, the same secret the create answered and the one that works
// as a credential. A publishable key never reads one, another merchant
// reads nothing, and an expired secret is no longer shown.
func TestSecretKeyReadsAnIntentsClientSecret(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newIntentPayer(t, f.sk, "4242424242424242")
	ci := createIntent(t, f.sk, p.intent(1000, map[string]any{"confirm": false}))
	secret := ci["client_secret"].(string)
	require.Regexp(t, `^ci_`+id(ci)+`_secret_[0-9A-Za-z]{40}$`, secret)

	got := f.sk.Get("/v1/charge_intents/" + id(ci))
	require.Equal(t, http.StatusOK, got.Status, string(got.Body))
	require.Equal(t, secret, got.JSON()["client_secret"], "GET answers the secret the create answered")
	list := f.sk.Get("/v1/charge_intents")
	require.Equal(t, http.StatusOK, list.Status, string(list.Body))
	rows := list.JSON()["data"].([]any)
	require.Len(t, rows, 1)
	require.Equal(t, secret, rows[0].(map[string]any)["client_secret"], "and so does the list")
	require.Equal(t, http.StatusOK, f.env.Client(secret).Get("/v1/charge_intents/"+id(ci)).Status, "the secret shown works")

	public := f.pk.Get("/v1/charge_intents/" + id(ci) + "?client_secret=" + url.QueryEscape(secret))
	require.Equal(t, http.StatusOK, public.Status, string(public.Body))
	require.NotContains(t, public.JSON(), "client_secret", "a publishable key already holds it")
	_, other := f.env.NewMerchant(auth.NewMerchant{Name: "Other"})
	requireError(t, f.env.Client(other.Sandbox.Secret).Get("/v1/charge_intents/"+id(ci)), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.live.Get("/v1/charge_intents/"+id(ci)), http.StatusNotFound, "resource_missing", "id")

	// A replayed create issues another secret: reads show the newest.
	body := p.intent(700, map[string]any{"confirm": false})
	first := f.sk.Do(http.MethodPost, "/v1/charge_intents", body, withKey("sample-1"))
	again := f.sk.Do(http.MethodPost, "/v1/charge_intents", body, withKey("sample-1"))
	require.Equal(t, "true", again.Header.Get("Idempotent-Replayed"))
	require.NotEqual(t, first.JSON()["client_secret"], again.JSON()["client_secret"])
	require.Equal(t, again.JSON()["client_secret"], f.sk.Get("/v1/charge_intents/" + id(first.JSON())).JSON()["client_secret"])

	f.env.Clock.Advance(31 * 24 * time.Hour) // past a secret's 30 days
	require.NotContains(t, f.sk.Get("/v1/charge_intents/"+id(ci)).JSON(), "client_secret", "an expired secret is not shown")
}

// bootstrap answers the client_secret it was called with (the Node SDK's
// OnboardingSessionBootstrap requires it), and a secret key's
// get-by-account answers the same secret (derived again from the session,
// docs/decisions.md, "Onboarding sessions"; only its hash is kept).
func TestBootstrapAnswersTheSecretItWasCalledWith(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(testenv.Individual())
	s := f.sk.CreateOnboardingSession(testenv.OnboardingSession(id(acct)))
	holder := f.env.Client(*s.ClientSecret)
	for range 2 { // the second from the credential cache
		b := holder.Get("/v1/onboarding_sessions/bootstrap")
		require.Equal(t, http.StatusOK, b.Status, string(b.Body))
		require.Equal(t, *s.ClientSecret, b.JSON()["client_secret"])
	}
	require.Equal(t, *s.ClientSecret, f.sk.Get("/v1/onboarding_sessions?account_id=" + id(acct)).JSON()["client_secret"])
}

// The Ruby SDK lists customer identity verifications and reads each one's
// type; the list is the secret key's, the merchant's own, newest first.
func TestCustomerIdentityVerificationsAreListed(t *testing.T) {
	t.Parallel()
	f := setup(t)
	older := f.sk.CreateCustomerIdentityVerification(testenv.CustomerIdentityVerificationSpec{})
	newer := f.sk.CreateCustomerIdentityVerification(testenv.CustomerIdentityVerificationSpec{})
	_, other := f.env.NewMerchant(auth.NewMerchant{Name: "Other"})
	f.env.Client(other.Sandbox.Secret).CreateCustomerIdentityVerification(testenv.CustomerIdentityVerificationSpec{})

	r := f.sk.Get("/v1/customer_identity_verifications?per_page=1")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	page := r.JSON()
	require.Equal(t, true, page["meta"].(map[string]any)["has_more"])
	rows := page["data"].([]any)
	require.Len(t, rows, 1)
	require.Equal(t, id(newer), id(rows[0].(map[string]any)))
	require.Equal(t, "identity_document", rows[0].(map[string]any)["type"])
	all := f.sk.Get("/v1/customer_identity_verifications").JSON()["data"].([]any)
	require.Len(t, all, 2, "another merchant's are not listed")
	require.Equal(t, id(older), id(all[1].(map[string]any)))
	require.Equal(t, "identity_document", f.sk.Get("/v1/customer_identity_verifications/" + id(older)).JSON()["type"])

	requireError(t, f.pk.Get("/v1/customer_identity_verifications"), http.StatusForbidden, "forbidden", "")
	requireError(t, f.sk.Get("/v1/customer_identity_verifications?per_page=huge"), http.StatusBadRequest, "parameter_invalid", "per_page")
}

// Both terms of service answers name their object (the Ruby SDK reads it).
func TestTermsOfServiceAnswersNameTheirObject(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r := f.sk.Post("/v1/terms_of_service", map[string]any{})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, "terms_of_service", r.JSON()["object"])
	token := r.JSON()["token"]
	r = f.sk.Patch("/v1/terms_of_service", map[string]any{"token": token, "ip_address": "203.0.113.9", "user_agent": "sdk"})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, map[string]any{"token": token, "object": "terms_of_service"}, r.JSON())
}

// DELETE of a customer answers the spec's {id, object, deleted} with the
// members the PHP SDK builds its customer from; a GET of the deleted
// customer stays the spec's subset.
func TestDeletedCustomerAnswersWhatTheSDKsBuildFrom(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c := f.sk.CreateCustomer(testenv.CustomerSpec{Name: "Gone", Email: "gone@example.com"})
	r := f.sk.Delete("/v1/customers/" + id(c))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, []string{"created", "deleted", "email", "id", "livemode", "name", "object", "updated"}, keys(r.JSON()))
	assert.Equal(t, "Gone", r.JSON()["name"])
	assert.Equal(t, "gone@example.com", r.JSON()["email"])
	assert.Equal(t, true, r.JSON()["deleted"])
	require.Equal(t, []string{"created", "deleted", "id", "livemode", "object", "updated"}, keys(f.sk.Get("/v1/customers/"+id(c)).JSON()))
	requireError(t, f.live.Delete("/v1/customers/"+id(c)), http.StatusNotFound, "resource_missing", "id")
}

// A postal code arrives as a string or, as the official subscription
// sample sends it, as a JSON number of digits, kept as text; any other
// number or type is 400 on the member, and nothing is created.
func TestPostalCodeMayBeAJSONNumber(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cu := f.sk.CreateCustomer(testenv.Customer())
	card := func(postal any) map[string]any {
		return map[string]any{"type": "card", "card_number": "4242424242424242", "exp_month": 12, "exp_year": 2030,
			"cvc": "123", "customer": id(cu), "billing": map[string]any{"line_1": "45 Winding Hill Rd", "city": "Halifax",
				"country": "US", "state": "PA", "postal_code": postal}}
	}
	r := f.sk.Post("/v1/payment_methods", card(17032))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, "17032", r.JSON()["billing"].(map[string]any)["postal_code"])
	r = f.sk.Post("/v1/customers", map[string]any{"email": "n@example.com", "billing_address": map[string]any{"postal_code": 75929}})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, "75929", r.JSON()["billing_address"].(map[string]any)["postal_code"])

	before := len(f.sk.Get("/v1/customers/" + id(cu) + "/payment_methods").JSON()["data"].([]any))
	for _, bad := range []string{`-1`, `1.5`, `1e5`, `true`, `[1]`, `{}`, `123456789012345678901`} {
		raw := `{"type":"card","card_number":"4242424242424242","exp_month":12,"exp_year":2030,"cvc":"123","customer":"` +
			id(cu) + `","billing":{"city":"Halifax","postal_code":` + bad + `}}`
		requireError(t, f.sk.Do(http.MethodPost, "/v1/payment_methods", []byte(raw), nil), http.StatusBadRequest,
			"parameter_invalid", "billing.postal_code")
	}
	requireError(t, f.sk.Do(http.MethodPost, "/v1/payment_methods", []byte(`{"type":"card","billing":{"city":5,"postal_code":17032}}`), nil),
		http.StatusBadRequest, "parameter_invalid", "billing.city")
	require.Len(t, f.sk.Get("/v1/customers/" + id(cu) + "/payment_methods").JSON()["data"].([]any), before, "nothing was created")
}
