package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// One account, from creation to every identity capability active, only
// through the API and the sandbox's documented values.
func TestAccountReachesEveryIdentityCapabilityThroughTheAPI(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.env.StartJobs()
	caps := []string{"kyc", "phone_verification", "kyc_prefill", "idv", "age_verification", "address_verification",
		"geo_compliance", "bank_account_verification"}
	acct := f.sk.CreateAccount(testenv.Individual().WithCapabilities(caps...))
	aid := id(acct)
	require.Equal(t, "pending", acct["status"])
	for _, c := range acct["capabilities"].([]any) {
		require.Equal(t, "pending", c.(map[string]any)["status"])
		require.Contains(t, c.(map[string]any)["currently_due"], "terms_of_service")
	}

	// The holder's part, with the onboarding secret.
	holder := f.sk.OnboardingHolder(aid)
	tok := mintTerms(t, holder, nil)
	require.Equal(t, http.StatusOK, holder.Patch("/v1/terms_of_service", map[string]any{"token": tok, "ip_address": "203.0.113.5"}).Status)
	verifyPhone(t, holder, aid)
	inquiry := holder.Post("/v1/idv/session", nil).JSON()["inquiry_id"]
	require.Equal(t, true, holder.Post("/v1/idv/complete", map[string]any{"inquiry_id": inquiry}).JSON()["verified"])
	lt := holder.Get("/v1/accounts/" + aid + "/plaid_link_token").JSON()["link_token"]
	r := holder.Post("/v1/bank_accounts", map[string]any{"processor": "sandbox", "processor_token": lt})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))

	// The merchant's part, with the secret key.
	run := f.sk.Post(runsPath(aid), nil)
	require.Equal(t, http.StatusCreated, run.Status, string(run.Body))
	require.Equal(t, "approved", awaitRun(t, f, aid, id(run.JSON()))["status"])
	require.Equal(t, http.StatusOK, f.sk.Post(prefillPath(aid), nil).Status)
	require.Equal(t, "clear", f.sk.Get(geoPath(aid)).JSON()["status"])

	a := f.sk.Get("/v1/accounts/" + aid).JSON()
	require.Equal(t, "active", a["status"])
	for _, c := range a["capabilities"].([]any) {
		cm := c.(map[string]any)
		require.Equal(t, "active", cm["status"], cm["name"])
		require.Empty(t, cm["currently_due"], cm["name"])
		require.Empty(t, cm["errors"], cm["name"])
	}
	for _, s := range a["steps"].([]any) {
		require.Equal(t, "completed", s.(map[string]any)["status"], s.(map[string]any)["key"])
	}
	require.Equal(t, len(caps), countType(listEvents(t, f.sk, "capability.activated"), "capability.activated"))
	require.Equal(t, 1, countType(listEvents(t, f.sk, "account.activated"), "account.activated"))
}
