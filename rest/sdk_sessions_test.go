package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// chargeSessionKeys are the members of a charge session and of a Sonar
// session (the SDK's types, with metadata).
var chargeSessionKeys = sorted("id", "object", "status", "charge_intent_id", "visitor_id", "metadata", "created", "updated",
	"livemode")

// Charge sessions and Sonar sessions: created open, for a charge intent or
// none, closed once by an update, announced by events; production mode has
// no provider.
func TestSDKSessionsAroundAChargeIntent(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	intent := f.sk.CreateChargeIntent(newIntentPayer(t, f.sk, "4242424242424242").intent(1000, nil))
	for _, kind := range []string{"charge_session", "sonar_session"} {
		path := "/v1/" + kind + "s"
		r := f.sk.Post(path, map[string]any{"charge_intent_id": id(intent), "visitor_id": "v_123",
			"metadata": map[string]any{"order": "42"}})
		require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
		s := r.JSON()
		require.Equal(t, chargeSessionKeys, keys(s), kind)
		require.Equal(t, kind, s["object"])
		require.Equal(t, "open", s["status"])
		require.Equal(t, id(intent), s["charge_intent_id"])
		require.Equal(t, map[string]any{"order": "42"}, s["metadata"])
		require.Equal(t, "v_123", s["visitor_id"])
		require.Equal(t, false, s["livemode"])

		got := f.sk.Get(path + "/" + id(s))
		require.Equal(t, http.StatusOK, got.Status, string(got.Body))
		require.Equal(t, s, got.JSON())

		requireValidation(t, f.sk.Patch(path+"/"+id(s), map[string]any{"visitor_id": strings.Repeat("v", 256),
			"status": "completed"}), "visitor_id")
		done := f.sk.Patch(path+"/"+id(s), map[string]any{"status": "completed", "visitor_id": "v_456"})
		require.Equal(t, http.StatusOK, done.Status, string(done.Body))
		require.Equal(t, "completed", done.JSON()["status"])
		require.Equal(t, "v_456", done.JSON()["visitor_id"])
		requireError(t, f.sk.Patch(path+"/"+id(s), map[string]any{"status": "canceled"}),
			http.StatusUnprocessableEntity, "invalid_state", "")
		requireError(t, f.sk.Patch(path+"/"+id(s), map[string]any{"status": "open"}),
			http.StatusUnprocessableEntity, "validation_errors", "status")

		bare := f.sk.Post(path, map[string]any{})
		require.Equal(t, http.StatusCreated, bare.Status, string(bare.Body))
		require.Nil(t, bare.JSON()["charge_intent_id"])
		require.Contains(t, bare.JSON(), "visitor_id", "the Ruby SDK reads it: null, not left out")
		requireError(t, f.sk.Post(path, map[string]any{"charge_intent_id": "0190a000-0000-7000-8000-000000000000"}),
			http.StatusNotFound, "resource_missing", "charge_intent_id")
		requireError(t, f.pk.Post(path, map[string]any{}), http.StatusForbidden, "forbidden", "")
		requireError(t, f.live.Post(path, map[string]any{}), http.StatusServiceUnavailable, "provider_not_configured", "")

		listed := f.sk.Get(path + "?charge_intent_id=" + id(intent))
		require.Equal(t, http.StatusOK, listed.Status, string(listed.Body))
		data := listed.JSON()["data"].([]any)
		require.Len(t, data, 1)
		require.Equal(t, id(s), data[0].(map[string]any)["id"])

		evs := f.sk.Get("/v1/events?type=" + kind + ".updated")
		require.Equal(t, http.StatusOK, evs.Status, string(evs.Body))
		ev := evs.JSON()["data"].([]any)[0].(map[string]any)
		require.Equal(t, "open", ev["data"].(map[string]any)["previous_attributes"].(map[string]any)["status"])
	}
}

// A payment link session: a hosted page at its url, for an amount (USD by
// default) and a customer when given.
func TestPaymentLinkSessions(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cust := f.sk.CreateCustomer(testenv.Customer())
	r := f.sk.Post("/v1/payment_link_sessions", map[string]any{"amount": 2500, "customer_id": id(cust),
		"client_reference_id": "ref_123", "metadata": map[string]any{"order": "7"}})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	s := r.JSON()
	require.Equal(t, sorted("id", "object", "url", "status", "amount", "currency", "customer_id", "client_reference_id",
		"metadata", "created", "updated", "livemode"), keys(s))
	require.Equal(t, "ref_123", s["client_reference_id"])
	require.Equal(t, "payment_link_session", s["object"])
	require.Equal(t, "open", s["status"])
	require.Equal(t, float64(2500), s["amount"])
	require.Equal(t, "usd", s["currency"])
	require.Equal(t, id(cust), s["customer_id"])
	require.Regexp(t, `^https://pay\.frame\.test/link/[A-Za-z0-9]+$`, s["url"])

	got := f.sk.Get("/v1/payment_link_sessions/" + id(s))
	require.Equal(t, http.StatusOK, got.Status, string(got.Body))
	require.Equal(t, s, got.JSON(), "a read shows the url")

	requireValidation(t, f.sk.Post("/v1/payment_link_sessions", map[string]any{"amount": 0,
		"client_reference_id": strings.Repeat("r", 256)}), "amount", "client_reference_id")
	requireError(t, f.sk.Post("/v1/payment_link_sessions", map[string]any{"customer_id": "0190a000-0000-7000-8000-000000000000"}),
		http.StatusNotFound, "resource_missing", "customer_id")
	requireError(t, f.live.Post("/v1/payment_link_sessions", map[string]any{}),
		http.StatusServiceUnavailable, "provider_not_configured", "")
	other := f.env.Client(f.env.Keys.Production.Secret)
	requireError(t, other.Get("/v1/payment_link_sessions/"+id(s)), http.StatusNotFound, "resource_missing", "id")
}
