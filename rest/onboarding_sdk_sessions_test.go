package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

var sdkSessionKeys = sorted("id", "object", "account_id", "customer_id", "user_id", "client_secret", "return_url",
	"expires_at", "steps", "url", "livemode", "status", "entry_point", "metadata", "components", "created_at",
	"updated_at", "completed_at")

// The SDK's /v1/onboarding/sessions family serves the onboarding sessions
// of the spec in the SDK's shape: create (the secret once), get, a cursor
// list, ending a session by an update.
func TestOnboardingSDKSessionFamily(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(testenv.Individual().WithCapabilities("idv"))

	r := f.sk.Post("/v1/onboarding/sessions", map[string]any{"account_id": id(acct)})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	first := r.JSON()
	require.Equal(t, sdkSessionKeys, keys(first))
	require.Equal(t, "active", first["status"])
	require.Equal(t, float64(testenv.Start.Unix()), first["created_at"])
	require.Regexp(t, `^onb_sess_`, first["client_secret"])

	got := f.sk.Get("/v1/onboarding/sessions/" + id(first))
	require.Equal(t, http.StatusOK, got.Status, string(got.Body))
	require.Equal(t, first["client_secret"], got.JSON()["client_secret"], "the secret key reads the live secret again")
	require.Equal(t, first["url"], got.JSON()["url"])

	// A second session replaces the first: the list shows both, newest first.
	second := f.sk.Post("/v1/onboarding/sessions", map[string]any{"account_id": id(acct)}).JSON()
	list := f.sk.Get("/v1/onboarding/sessions?account_id=" + id(acct)).JSON()
	require.Equal(t, "list", list["object"])
	require.Equal(t, "/v1/onboarding/sessions", list["url"])
	require.Equal(t, false, list["has_more"])
	data := list["data"].([]any)
	require.Len(t, data, 2)
	require.Equal(t, id(second), id(data[0].(map[string]any)))
	require.Equal(t, second["client_secret"], data[0].(map[string]any)["client_secret"])
	require.Equal(t, "expired", data[1].(map[string]any)["status"])
	require.Nil(t, data[1].(map[string]any)["client_secret"], "an ended session's secret is gone")
	page := f.sk.Get("/v1/onboarding/sessions?limit=1").JSON()
	require.Equal(t, true, page["has_more"])
	rest := f.sk.Get("/v1/onboarding/sessions?limit=1&starting_after=" + id(page["data"].([]any)[0].(map[string]any))).JSON()
	require.Equal(t, id(first), id(rest["data"].([]any)[0].(map[string]any)))
	active := f.sk.Get("/v1/onboarding/sessions?status=active").JSON()["data"].([]any)
	require.Len(t, active, 1)

	// Ending the session: its secret stops working at once.
	holder := f.env.Client(second["client_secret"].(string))
	require.Equal(t, http.StatusOK, holder.Get("/v1/onboarding_sessions/bootstrap").Status)
	r = f.sk.Patch("/v1/onboarding/sessions/"+id(second), map[string]any{"status": "expired"})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "expired", r.JSON()["status"])
	requireError(t, holder.Get("/v1/onboarding_sessions/bootstrap"), http.StatusUnauthorized, "invalid_client_secret", "")
	require.Empty(t, f.sk.Get("/v1/onboarding/sessions?status=active").JSON()["data"])

	// Bad input: every problem at once.
	errs := requireValidation(t, f.sk.Post("/v1/onboarding/sessions", map[string]any{"entry_point": "web",
		"metadata": map[string]any{"k": strings.Repeat("v", 101)}, "components": map[string]any{}, "steps": []string{"bank_account"}}),
		"account_id", "entry_point", "metadata.k", "components", "steps")
	requireProblem(t, errs, "account_id", "is required: send account_id or customer_id")
	requireProblem(t, errs, "entry_point", "must be one of: kyc, checkout, payout")
	requireValidation(t, f.sk.Patch("/v1/onboarding/sessions/"+id(first), map[string]any{"status": "active",
		"steps": map[string]any{"id_verification": map[string]any{"status": "failed"}, "nope": map[string]any{}}}),
		"status", "steps", "steps.id_verification.status")
	requireValidation(t, f.sk.Get("/v1/onboarding/sessions?customer_id=x&status=done&limit=500&starting_after=x"),
		"customer_id", "status", "limit", "starting_after")
	requireError(t, f.sk.Get("/v1/onboarding/sessions/"+id(acct)), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.pk.Get("/v1/onboarding/sessions"), http.StatusForbidden, "forbidden", "")
}

// The payout step records the account's payout method: an active payment
// method of the session's account, while the session is active.
func TestOnboardingSDKSessionPayout(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := newPayer(t, f.sk, testenv.Visa)
	other := newPayer(t, f.sk, testenv.Visa)
	sess := f.sk.CreateSDKOnboardingSession(testenv.OnboardingSession(id(p.account)))
	path := "/v1/onboarding/sessions/" + id(sess) + "/payout"

	requireValidation(t, f.sk.Post(path, map[string]any{}), "payout_method_id")
	requireValidation(t, f.sk.Post(path, map[string]any{"payout_method_id": id(other.card)}), "payout_method_id")
	r := f.sk.Post(path, map[string]any{"payout_method_id": id(p.card)})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, id(sess), id(r.JSON()))
	require.Equal(t, id(p.card), f.sk.Get("/v1/accounts/" + id(p.account)).JSON()["payout_payment_method_id"])
	require.Contains(t, eventTypes(listEvents(t, f.sk, ""), id(p.account)), "account.updated")

	f.sk.Patch("/v1/onboarding/sessions/"+id(sess), map[string]any{"status": "expired"})
	requireError(t, f.sk.Post(path, map[string]any{"payout_method_id": id(p.card)}),
		http.StatusUnprocessableEntity, "invalid_state", "")
}
