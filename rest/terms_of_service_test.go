package rest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

func mintTerms(t *testing.T, c *testenv.Client, body map[string]any) string {
	t.Helper()
	r := c.Post("/v1/terms_of_service", body)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, []string{"object", "token"}, keys(r.JSON()))
	tok := r.JSON()["token"].(string)
	require.Regexp(t, `^tos_[0-9A-Za-z]{32}$`, tok)
	return tok
}

func TestTermsOfServiceTokenAcceptsTheBoundAccount(t *testing.T) {
	t.Parallel()
	f := setup(t, phoneVerified())
	acct := f.sk.CreateAccount(testenv.Individual().WithCapabilities("phone_verification"))
	pv := capByName(acct["capabilities"], "phone_verification")
	require.Equal(t, []any{"terms_of_service"}, pv["currently_due"])

	tok := mintTerms(t, f.sk, map[string]any{"account_id": id(acct)})
	accepted := testenv.Start.Add(-time.Hour).Unix()
	r := f.sk.Patch("/v1/terms_of_service", map[string]any{"token": tok, "accepted_at": accepted,
		"ip_address": "203.0.113.9", "user_agent": "Browser/1.0"})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, map[string]any{"token": tok, "object": "terms_of_service"}, r.JSON())

	a := f.sk.Get("/v1/accounts/" + id(acct)).JSON()
	require.Equal(t, map[string]any{"token": tok, "accepted": true, "accepted_at": time.Unix(accepted, 0).UTC().Format(time.RFC3339),
		"ip_address": "203.0.113.9", "user_agent": "Browser/1.0"}, a["terms_of_service"])
	require.Equal(t, "active", capByName(a["capabilities"], "phone_verification")["status"])
	require.Equal(t, "active", a["status"])
	types := eventTypes(listEvents(t, f.sk, ""), id(acct))
	require.Equal(t, []string{"account.created", "account.activated", "account.updated"}, types)
}

func TestTermsOfServiceTokenNamedByAnAccount(t *testing.T) {
	t.Parallel()
	f := setup(t)
	// Minted and accepted first; the account naming it takes its evidence
	// and binds it.
	tok := mintTerms(t, f.sk, nil)
	r := f.sk.Patch("/v1/terms_of_service", map[string]any{"token": tok, "ip_address": "198.51.100.7", "user_agent": "UA"})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	acct := f.sk.CreateAccount(testenv.Individual().WithTermsOfService(testenv.TermsSpec{Token: tok}))
	terms := acct["terms_of_service"].(map[string]any)
	require.Equal(t, "198.51.100.7", terms["ip_address"])
	require.Equal(t, "UA", terms["user_agent"])
	require.Equal(t, true, terms["accepted"])

	// Bound now: another account cannot take it.
	other := f.sk.CreateAccount(testenv.Individual())
	requireValidation(t, f.sk.Patch("/v1/accounts/"+id(other), map[string]any{"terms_of_service": map[string]any{"token": tok}}),
		"terms_of_service.token")
	requireValidation(t, f.sk.Post("/v1/accounts", testenv.Individual().WithTermsOfService(testenv.TermsSpec{Token: tok}).RESTBody()),
		"terms_of_service.token")

	// Accepting it again re-stamps the bound account's terms.
	r = f.sk.Patch("/v1/terms_of_service", map[string]any{"token": tok, "ip_address": "198.51.100.8"})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	got := f.sk.Get("/v1/accounts/" + id(acct)).JSON()["terms_of_service"].(map[string]any)
	require.Equal(t, "198.51.100.8", got["ip_address"])
	require.Nil(t, got["user_agent"])

	// Tokens of the merchant's own making are taken as given.
	own := f.sk.CreateAccount(testenv.Individual().WithTermsOfService(testenv.TermsSpec{Token: "tos_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6"}))
	require.Equal(t, true, own["terms_of_service"].(map[string]any)["accepted"])
}

func TestTermsOfServiceRefusals(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(testenv.Individual())
	requireValidation(t, f.sk.Patch("/v1/terms_of_service", map[string]any{}), "token")
	requireValidation(t, f.sk.Patch("/v1/terms_of_service", map[string]any{"token": "x", "accepted_at": testenv.Start.Add(time.Hour).Unix(),
		"ip_address": "not-an-ip"}), "accepted_at", "ip_address")
	requireError(t, f.sk.Patch("/v1/terms_of_service", map[string]any{"token": "x", "accepted_at": "2024-01-01"}),
		http.StatusBadRequest, "parameter_invalid", "accepted_at")
	requireError(t, f.sk.Patch("/v1/terms_of_service", map[string]any{"token": "tos_missing"}), http.StatusNotFound, "resource_missing", "token")
	requireError(t, f.sk.Post("/v1/terms_of_service", map[string]any{"account_id": "nope"}), http.StatusNotFound, "resource_missing", "account_id")
	requireError(t, f.pk.Post("/v1/terms_of_service", nil), http.StatusForbidden, "forbidden", "")

	// Tokens are the merchant's and the mode's.
	tok := mintTerms(t, f.sk, map[string]any{"account_id": id(acct)})
	_, k := f.env.NewMerchant(auth.NewMerchant{Name: "B"})
	requireError(t, f.env.Client(k.Sandbox.Secret).Patch("/v1/terms_of_service", map[string]any{"token": tok}),
		http.StatusNotFound, "resource_missing", "token")
	requireError(t, f.live.Patch("/v1/terms_of_service", map[string]any{"token": tok}), http.StatusNotFound, "resource_missing", "token")

	// An onboarding secret mints for its own account and accepts only its
	// account's tokens.
	holder := f.sk.OnboardingHolder(id(acct))
	mine := mintTerms(t, holder, map[string]any{"account_id": "ignored"})
	require.Equal(t, http.StatusOK, holder.Patch("/v1/terms_of_service", map[string]any{"token": mine}).Status)
	require.Equal(t, mine, f.sk.Get("/v1/accounts/" + id(acct)).JSON()["terms_of_service"].(map[string]any)["token"])
	unbound := mintTerms(t, f.sk, nil)
	requireError(t, holder.Patch("/v1/terms_of_service", map[string]any{"token": unbound}), http.StatusNotFound, "resource_missing", "token")
	other := f.sk.CreateAccount(testenv.Individual())
	theirs := mintTerms(t, f.sk, map[string]any{"account_id": id(other)})
	requireError(t, holder.Patch("/v1/terms_of_service", map[string]any{"token": theirs}), http.StatusNotFound, "resource_missing", "token")

	// A disabled account's token cannot be accepted.
	require.Equal(t, http.StatusOK, f.sk.Delete("/v1/accounts/"+id(other)).Status)
	requireError(t, f.sk.Patch("/v1/terms_of_service", map[string]any{"token": theirs}), http.StatusUnprocessableEntity, "invalid_state", "")
}
