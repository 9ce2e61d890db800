package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// redactedKeys are the members of a payment method inside a transfer a
// checkout secret reads (spec doc 2 §2.7, §4.8).
var redactedKeys = sorted("id", "object", "type", "status", "livemode", "created", "updated")

// Under a checkout secret every transfer the browser gets back — create,
// replay, confirm, v1 and v2 reads, a challenge — carries its payment
// method redacted; the secret key, and the events, see it whole.
func TestCheckoutSecretSeesPaymentMethodsRedacted(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	session := f.sk.CreateCheckoutSession(testenv.CheckoutSession(id(p.account), 1500))
	chk := f.env.Client(*session.ClientSecret)
	requireRedacted := func(pm any, where string) {
		t.Helper()
		m, ok := pm.(map[string]any)
		require.True(t, ok, where)
		require.Equal(t, redactedKeys, keys(m), where)
		require.Equal(t, id(p.card), m["id"], where)
		require.Equal(t, "payment_method", m["object"], where)
		require.Equal(t, "card", m["type"], where)
		require.Equal(t, "active", m["status"], where)
		require.Equal(t, float64(p.card.Created.Unix()), m["created"], where)
	}

	body := map[string]any{"source": map[string]any{"payment_method_id": id(p.card)}, "confirm": false}
	created := chk.Do(http.MethodPost, "/v1/transfers", body, withKey("redact-1"))
	require.Equal(t, http.StatusCreated, created.Status, string(created.Body))
	tr := created.JSON()
	requireRedacted(tr["source_payment_method"], "create")
	require.Nil(t, tr["destination_payment_method"])
	requireRedacted(chk.Do(http.MethodPost, "/v1/transfers", body, withKey("redact-1")).JSON()["source_payment_method"], "replay")

	confirmed := chk.Post("/v1/transfers/"+id(tr)+"/confirm", nil)
	require.Equal(t, http.StatusOK, confirmed.Status, string(confirmed.Body))
	requireRedacted(confirmed.JSON()["source_payment_method"], "confirm")
	requireRedacted(chk.Get("/v1/transfers/" + id(tr)).JSON()["source_payment_method"], "v1 read")
	v2 := chk.Get("/v2/transfers/" + id(tr)).JSON()
	requireRedacted(v2["source"].(map[string]any)["payment_method"], "v2 read")

	// The secret key sees everything, and so do the events.
	full := f.sk.Get("/v1/transfers/" + id(tr)).JSON()["source_payment_method"].(map[string]any)
	asCreated := jsonString(p.card) // the card as its create answered it
	require.JSONEq(t, asCreated, jsonString(full))
	require.JSONEq(t, asCreated, jsonString(f.sk.Get("/v2/transfers/" + id(tr)).JSON()["source"].(map[string]any)["payment_method"]))
	for _, e := range listEvents(t, f.sk, "") {
		if e.Type == "transfer.created" || e.Type == "transfer.succeeded" {
			pm := e.Data["object"].(map[string]any)["source_payment_method"].(map[string]any)
			require.Contains(t, pm, "card", e.Type)
		}
	}

	// A challenged card: redacted, and next_action still names the card.
	q := newPayer(t, f.sk, "4000000000003220")
	session2 := f.sk.CreateCheckoutSession(testenv.CheckoutSession(id(q.account), 900))
	chk2 := f.env.Client(*session2.ClientSecret)
	r := chk2.Post("/v1/transfers", map[string]any{"source": map[string]any{"payment_method_id": id(q.card)}})
	waiting := chk2.Post("/v1/transfers/"+id(r.JSON())+"/confirm", nil).JSON()
	require.Equal(t, "requires_3d_secure", waiting["status"])
	require.Equal(t, id(q.card), waiting["next_action"].(map[string]any)["use_platform_sdk"].(map[string]any)["source"])
	require.Equal(t, redactedKeys, keys(waiting["source_payment_method"].(map[string]any)))
}
