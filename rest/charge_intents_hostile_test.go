package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/httpx"
)

func TestChargeIntentHostileInput(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newIntentPayer(t, f.sk, "4242424242424242")
	requireError(t, f.sk.Do(http.MethodPost, "/v1/charge_intents", []byte("{"), nil), http.StatusBadRequest, "invalid_json", "")
	requireError(t, f.sk.Do(http.MethodPost, "/v1/charge_intents", []byte(`{"amount": 100, "currency": "usd"} []`), nil),
		http.StatusBadRequest, "invalid_json", "")
	requireError(t, f.sk.Post("/v1/charge_intents", map[string]any{"amount": 100, "currency": "usd",
		"payment_method_data": "4242424242424242"}), http.StatusBadRequest, "parameter_invalid", "payment_method_data")
	requireError(t, f.sk.Post("/v1/charge_intents", map[string]any{"amount": 100, "currency": "usd",
		"description": strings.Repeat("x", httpx.MaxBodyBytes)}), http.StatusBadRequest, "invalid_json", "")
	errs := requireValidation(t, f.sk.Post("/v1/charge_intents", map[string]any{"amount": int64(1e12), "currency": "usd",
		"description": strings.Repeat("x", 5001), "reference_id": "a\x00b", "promotion_codes": make([]string, 21),
		"metadata": map[string]any{strings.Repeat("k", 41): "v"}}), "amount", "description", "reference_id",
		"promotion_codes", "metadata."+strings.Repeat("k", 41))
	require.NotEmpty(t, errs)
	requireValidation(t, f.sk.Get("/v1/charge_intents?q="+strings.Repeat("q", 300)), "q")
	require.Empty(t, listOf(t, f.sk, "/v1/charge_intents"))

	// A client secret echoed in a path or a message is redacted.
	ci := createIntent(t, f.sk, p.intent(100, map[string]any{"confirm": false}))
	secret := ci["client_secret"].(string)
	random := secret[strings.LastIndex(secret, "_")+1:]
	r := f.sk.Get("/v1/charge_intents/" + secret)
	requireError(t, r, http.StatusNotFound, "resource_missing", "id")
	require.NotContains(t, string(r.Body), random)
}

func TestChargeIntentRequestsRunAFixedNumberOfStatements(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newIntentPayer(t, f.sk, "4242424242424242")
	r := f.sk.Post("/v1/charge_intents", p.intent(1000, map[string]any{"confirm": false}))
	require.Equal(t, http.StatusCreated, r.Status)
	// credential, customer, card lock, insert, secret, customer and its
	// cards (the event's rendering), events.
	require.Equal(t, 7, r.Statements, "a create")
	ci := r.JSON()
	r = f.sk.Post("/v1/charge_intents/"+id(ci)+"/confirm", nil)
	require.Equal(t, http.StatusOK, r.Status)
	// credential, lock, card lock, agreement lookup, plan, charge, ledger
	// accounts, journal, entries, update, customer, events.
	require.Equal(t, 12, r.Statements, "a confirm that captures")
	require.Equal(t, 4, f.sk.Get("/v1/charge_intents/"+id(ci)).Statements,
		"credential, the intent with its card and charge, its customer, its client secret")
	public := f.pk.Get("/v1/charge_intents/" + id(ci) + "?client_secret=" + ci["client_secret"].(string))
	require.Equal(t, 3, public.Statements, "credential, the secret, the intent")
	browser := f.env.Client(ci["client_secret"].(string)).Get("/v1/charge_intents/" + id(ci))
	require.Equal(t, 2, browser.Statements, "the secret is the credential")
}
