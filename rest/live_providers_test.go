package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// Live mode has none of the providers the sandbox simulates (identity,
// document check, KYC prefill data, location): every endpoint of the area
// that needs one answers 503 provider_not_configured, after the checks
// that do not need it (credential, 404, input), and changes nothing.
func TestLiveModeRefusesWhatNeedsAProvider(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.live.CreateAccount(testenv.Individual().WithCapabilities("kyc", "kyc_prefill", "geo_compliance").
		WithIndividual(func(i *testenv.IndividualSpec) { i.Phone = &testenv.PhoneSpec{Number: "+12001001695"} }))
	before := f.live.Get("/v1/accounts/" + id(acct)).JSON()

	unavailable := func(r *testenv.Response) {
		t.Helper()
		requireError(t, r, http.StatusServiceUnavailable, "provider_not_configured", "")
	}
	unavailable(f.live.Post(runsPath(id(acct)), nil))
	unavailable(f.live.Post(prefillPath(id(acct)), nil))
	unavailable(f.live.Get(geoPath(id(acct))))
	holder := f.live.OnboardingHolder(id(acct))
	unavailable(holder.Post("/v1/idv/session", nil))
	unavailable(holder.Post("/v1/idv/complete", map[string]any{"inquiry_id": "0195a1c0-0000-7000-8000-00000000dead"}))
	// The missing provider is answered before the input is checked.
	unavailable(holder.Post("/v1/idv/complete", map[string]any{}))

	// Nothing was run, recorded or announced.
	require.Empty(t, f.live.Get(runsPath(id(acct))).JSON()["data"])
	after := f.live.Get("/v1/accounts/" + id(acct)).JSON()
	require.Equal(t, before["capabilities"], after["capabilities"])
	require.Equal(t, before["updated"], after["updated"])
	require.Zero(t, countType(listEvents(t, f.live, ""), "account.identity_verification.approved"))
	require.Zero(t, countType(listEvents(t, f.live, ""), "platform.account.prefill.completed"))

	// The sandbox runs the same operations.
	sb := f.sk.CreateAccount(persona("+12001001695", "kyc"))
	require.Equal(t, http.StatusCreated, f.sk.Post(runsPath(id(sb)), nil).Status)
	require.Equal(t, http.StatusOK, f.sk.Get(geoPath(id(sb))).Status)

	// A live key asking for a sandbox account is refused for the missing
	// provider before any look-up, so the answer says nothing of the id.
	unavailable(f.live.Post(runsPath(id(sb)), nil))
	unavailable(f.live.Get(geoPath(id(sb))))
}
