package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestTransferInputIsValidatedWhole(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	requireValidation(t, f.sk.Post("/v1/transfers", map[string]any{}), "amount", "account_id", "source_payment_method_id")
	requireValidation(t, f.sk.Post("/v1/transfers", map[string]any{"amount": -5, "account_id": "x",
		"source_payment_method_id": "y", "currency": "dollars", "authorization_mode": "later",
		"promotion_codes": []any{""}, "metadata": map[string]any{strings.Repeat("k", 41): "v"}}),
		"amount", "account_id", "source_payment_method_id", "currency", "authorization_mode", "promotion_codes.0",
		"metadata."+strings.Repeat("k", 41))
	requireValidation(t, f.sk.Post("/v1/transfers", map[string]any{"amount": int64(1e12), "account_id": "x",
		"source_payment_method_id": "y"}), "amount", "account_id", "source_payment_method_id")
	requireError(t, f.sk.Post("/v1/transfers", map[string]any{"amount": "ten"}), http.StatusBadRequest, "parameter_invalid", "amount")
	requireError(t, f.sk.Do(http.MethodPost, "/v1/transfers", []byte("{"), nil), http.StatusBadRequest, "invalid_json", "")
	p := newPayer(t, f.sk, "4242424242424242")
	requireError(t, f.sk.Post("/v1/transfers", map[string]any{"amount": 100, "account_id": id(p.account),
		"destination_payment_method_id": id(p.card), "sonar_session_id": "s"}), http.StatusBadRequest, "parameter_invalid", "sonar_session_id")
	require.Empty(t, listOf(t, f.sk, "/v1/transfers"))
	require.Empty(t, listEvents(t, f.sk, "transfer.created"))
}

func TestTransfersStayWithinTheirTenant(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	tr := f.sk.CreateTransfer(p.charging(1000).WithoutConfirm())

	_, otherKeys := f.env.NewMerchant(testAuthMerchant("Other"))
	other := f.env.Client(otherKeys.Sandbox.Secret)
	other.StandardPricing()
	for _, path := range []string{"/v1/transfers/" + id(tr), "/v2/transfers/" + id(tr)} {
		requireError(t, other.Get(path), http.StatusNotFound, "resource_missing", "id")
		requireError(t, f.live.Get(path), http.StatusNotFound, "resource_missing", "id")
	}
	for _, action := range []string{"confirm", "capture", "cancel"} {
		requireError(t, other.Post("/v1/transfers/"+id(tr)+"/"+action, nil), http.StatusNotFound, "resource_missing", "id")
	}
	requireError(t, other.Patch("/v1/transfers/"+id(tr), map[string]any{"description": "x"}), http.StatusNotFound, "resource_missing", "id")
	require.Empty(t, listOf(t, other, "/v1/transfers"))
	// Another merchant's account and card are not chargeable, nor is
	// another account's card.
	requireValidation(t, other.Post("/v1/transfers", p.charge(1000, nil)), "account_id")
	mine := other.CreateAccount(testenv.Individual())
	requireValidation(t, other.Post("/v1/transfers", merge(p.charge(1000, nil), map[string]any{"account_id": id(mine)})),
		"source_payment_method_id")
	q := newPayer(t, f.sk, "4242424242424242")
	requireValidation(t, f.sk.Post("/v1/transfers", merge(p.charge(1000, nil), map[string]any{"account_id": id(q.account)})),
		"source_payment_method_id")
	// Publishable keys move no money.
	requireError(t, f.pk.Post("/v1/transfers", p.charge(1000, nil)), http.StatusForbidden, "forbidden", "")
	requireError(t, f.pk.Get("/v1/transfers/"+id(tr)), http.StatusForbidden, "forbidden", "")
	requireError(t, f.pk.Post("/v1/transfers/"+id(tr)+"/confirm", nil), http.StatusForbidden, "forbidden", "")
	require.Equal(t, "requires_confirmation", f.sk.Get("/v1/transfers/" + id(tr)).JSON()["status"])
	// Production keys need a processor that does not ship.
	requireError(t, f.live.Post("/v1/transfers", map[string]any{"amount": 100, "account_id": id(p.account),
		"source_payment_method_id": id(p.card)}), http.StatusServiceUnavailable, "provider_not_configured", "")
}

func TestDetachedMethodsAreRefused(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	f.exec(t, "UPDATE payment_methods SET status = 'detached' WHERE id = ?", id(p.card))
	requireValidation(t, f.sk.Post("/v1/transfers", p.charge(1000, nil)), "source_payment_method_id")
	requireValidation(t, f.sk.Post("/v1/transfers", map[string]any{"amount": 100, "account_id": id(p.account),
		"destination_payment_method_id": id(p.card)}), "destination_payment_method_id")
}

func TestTransferWritesRunAFixedNumberOfStatements(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	r := f.sk.Post("/v1/transfers", p.charge(1000, nil))
	require.Equal(t, http.StatusCreated, r.Status)
	// credential, account, card lock, agreement lookup, insert, block
	// list screen, plan, charge, ledger accounts, journal, entries, update,
	// events.
	require.Equal(t, 13, r.Statements, "a confirmed card charge")
	g := f.sk.Get("/v1/transfers/" + id(r.JSON()))
	require.Equal(t, 2, g.Statements, "credential and one read with the payment methods")
	l := f.sk.Get("/v1/transfers?per_page=100")
	require.Equal(t, 2, l.Statements, "credential and one list statement")
}
