package rest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// The browser flow of spec doc 2 §4.8: create with {source:
// {payment_method_id}}, confirm false and an Idempotency-Key (replayed:
// one transfer), then confirm with no body.
func TestCheckoutBrowserFlow(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	created := f.sk.Post("/v1/checkout_sessions", testenv.CheckoutSession(id(p.account), 2500).RESTBody())
	require.Equal(t, http.StatusCreated, created.Status, string(created.Body))
	s := created.JSON()
	chk := f.env.Client(s["client_secret"].(string))
	require.Equal(t, sorted("id", "object", "account_id", "client_secret", "expires_at", "amount", "authorization_mode",
		"created", "livemode"), keys(s))
	require.Equal(t, "checkout_session", s["object"])
	require.Regexp(t, `^chk_sess_`, s["client_secret"])
	require.Equal(t, num(s["created"])+1800, num(s["expires_at"]))
	require.Equal(t, map[string]any{"value": float64(2500), "currency": "USD"}, s["amount"])

	body := map[string]any{"source": map[string]any{"payment_method_id": id(p.card)}, "confirm": false}
	first := chk.Do(http.MethodPost, "/v1/transfers", body, withKey("browser-1"))
	require.Equal(t, http.StatusCreated, first.Status, string(first.Body))
	again := chk.Do(http.MethodPost, "/v1/transfers", body, withKey("browser-1"))
	require.JSONEq(t, string(first.Body), string(again.Body))
	tr := first.JSON()
	require.Equal(t, "requires_confirmation", tr["status"])
	require.Equal(t, int64(2500), num(tr["amount"]))
	require.Len(t, listOf(t, f.sk, "/v1/transfers"), 1, "a replayed browser create makes one transfer")

	r := chk.Post("/v1/transfers/"+id(tr)+"/confirm", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "succeeded", r.JSON()["status"])
	require.Equal(t, "succeeded", chk.Get("/v2/transfers/" + id(tr)).JSON()["status"])

	// The amount is locked; the account and the plan are the session's.
	requireValidation(t, chk.Post("/v1/transfers", merge(body, map[string]any{"amount": 2499})), "amount")
	requireValidation(t, chk.Post("/v1/transfers", map[string]any{"confirm": false}), "source.payment_method_id")
	other := newPayer(t, f.sk, "4242424242424242")
	requireValidation(t, chk.Post("/v1/transfers", map[string]any{"source": map[string]any{"payment_method_id": id(other.card)}}),
		"source_payment_method_id")
	// The secret cannot reach anything else.
	requireError(t, chk.Get("/v1/transfers"), http.StatusForbidden, "forbidden", "")
	requireError(t, chk.Post("/v1/transfers/"+id(tr)+"/cancel", nil), http.StatusForbidden, "forbidden", "")
	requireError(t, chk.Post("/v1/checkout_sessions", map[string]any{}), http.StatusForbidden, "forbidden", "")
	foreign := f.sk.CreateTransfer(other.charging(1000).WithoutConfirm())
	requireError(t, chk.Post("/v1/transfers/"+id(foreign)+"/confirm", nil), http.StatusNotFound, "resource_missing", "id")
	requireError(t, chk.Get("/v1/transfers/"+id(foreign)), http.StatusNotFound, "resource_missing", "id")
	requireBooksHold(t, f)

	// Thirty minutes on, the secret no longer works.
	f.env.Clock.Advance(31 * time.Minute)
	requireError(t, chk.Get("/v2/transfers/"+id(tr)), http.StatusUnauthorized, "invalid_client_secret", "")
}

// Under a checkout secret a decline arrives as an error (402, the decline
// code, details.transfer_id), and it is recorded.
func TestCheckoutDeclineIsAnErrorAndRecorded(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4000000000009995")
	session := f.sk.CreateCheckoutSession(testenv.CheckoutSession(id(p.account), 1200))
	chk := f.env.Client(*session.ClientSecret)
	tr := chk.Post("/v1/transfers", map[string]any{"source": map[string]any{"payment_method_id": id(p.card)}, "confirm": false})
	require.Equal(t, http.StatusCreated, tr.Status, string(tr.Body))
	e := requireError(t, chk.Post("/v1/transfers/"+id(tr.JSON())+"/confirm", nil), http.StatusPaymentRequired, "insufficient_funds", "")
	require.Equal(t, map[string]any{"transfer_id": id(tr.JSON())}, e["details"])
	got := f.sk.Get("/v1/transfers/" + id(tr.JSON())).JSON()
	require.Equal(t, "failed", got["status"])
	require.Equal(t, "insufficient_funds", got["failure_code"])
	require.Len(t, listEvents(t, f.sk, "transfer.failed"), 1)
}

func TestCheckoutSessionValidation(t *testing.T) {
	t.Parallel()
	f := setup(t)
	requireValidation(t, f.sk.Post("/v1/checkout_sessions", map[string]any{"amount": map[string]any{"value": 0, "currency": "dollars"},
		"authorization_mode": "later"}), "account_id", "amount.value", "amount.currency", "authorization_mode")
	requireValidation(t, f.sk.Post("/v1/checkout_sessions", map[string]any{"account_id": "0190a000-0000-7000-8000-000000000000",
		"amount": map[string]any{"value": 100}}), "account_id")
	requireError(t, f.pk.Post("/v1/checkout_sessions", map[string]any{}), http.StatusForbidden, "forbidden", "")
}
