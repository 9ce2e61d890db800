package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// GET /v1/me answers the caller as the real service's CLI logs in with it:
// its merchant, dev_mode for a sandbox key (false for production, which
// the CLI refuses), the API version; secret keys only. The CLI's update
// check stays unrouted: a 404 makes it skip the check.
func TestMeAnswersTheCaller(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r := f.sk.Get("/v1/me")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, map[string]any{"merchant_id": f.env.Merchant.ID.String(), "merchant_name": "Test Platform",
		"dev_mode": true, "api_version": "v1"}, r.JSON())
	credential := f.sk.Get("/v1/accounts/not-an-id").Statements
	require.Equal(t, credential, r.Statements, "nothing beyond the credential, verified with its merchant")

	r = f.live.Get("/v1/me")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, false, r.JSON()["dev_mode"])

	requireError(t, f.pk.Get("/v1/me"), http.StatusForbidden, "forbidden", "")
	requireError(t, f.env.Client("").Get("/v1/me"), http.StatusUnauthorized, "authentication_required", "")
	requireError(t, f.env.Client("sk_sandbox_0000000000000000000000000000000000000000").Get("/v1/me"),
		http.StatusUnauthorized, "invalid_api_key", "")

	requireError(t, f.sk.Get("/v1/cli/latest_version"), http.StatusNotFound, "route_not_found", "")
	requireError(t, f.env.Client("").Get("/v1/cli/latest_version"), http.StatusNotFound, "route_not_found", "")
}
