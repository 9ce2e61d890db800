package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
)

// The error body every official client can read (API-DECISIONS §2): the
// same sentence in error (the Ruby SDK), message (Node) and
// error_details.message (the mobile SDKs and the CLI), never the bare
// reason phrase; field problems in error_details.errors and again in
// error_details.data.errors (the CLI), beside a rule's own data.
func TestErrorBodyCarriesTheSentenceWhereEveryClientReadsIt(t *testing.T) {
	t.Parallel()
	f := setup(t)

	t.Run("validation", func(t *testing.T) {
		r := f.sk.Post("/v1/accounts", `{"terms_of_service":{"accepted_at":"yesterday","ip_address":"not-an-ip"}}`)
		e := requireError(t, r, http.StatusUnprocessableEntity, "validation_errors", "")
		msg := e["message"].(string)
		require.Contains(t, msg, "Validation failed: ")
		require.NotEqual(t, http.StatusText(http.StatusUnprocessableEntity), e["error"])
		require.Equal(t, msg, e["error"])
		d := errorDetails(e)
		require.Equal(t, msg, d["message"])
		errs := d["errors"].(map[string]any)
		require.Contains(t, errs, "type")
		require.Contains(t, errs, "terms_of_service.ip_address")
		require.Equal(t, map[string]any{"errors": errs}, d["data"])
	})

	t.Run("a rule with data", func(t *testing.T) {
		_, keys := f.env.NewMerchant(auth.NewMerchant{Name: "Payments only", Products: []string{"payments"}})
		r := f.env.Client(keys.Sandbox.Secret).Post("/v1/accounts",
			`{"type":"individual","profile":{"individual":{"name":{"first_name":"Ada","last_name":"Lovelace"}}},"capabilities":["kyc"]}`)
		e := requireError(t, r, http.StatusUnprocessableEntity, "capability_not_provisionable", "capabilities")
		require.Equal(t, e["message"], e["error"])
		require.Equal(t, map[string]any{"capability": "kyc", "required_product": "identity"}, errorDetails(e)["data"],
			"a rule's data has no errors member: it has no field problems")
		require.NotContains(t, errorDetails(e), "errors")
	})

	t.Run("not found, unauthenticated, forbidden", func(t *testing.T) {
		for _, tc := range []struct {
			r      func() map[string]any
			status int
		}{
			{func() map[string]any {
				return requireError(t, f.sk.Get("/v1/accounts/019bc1bd-cc81-7110-98c4-e1208c31193a"), 404, "resource_missing", "id")
			}, 404},
			{func() map[string]any {
				return requireError(t, f.env.Client("").Get("/v1/accounts"), 401, "authentication_required", "")
			}, 401},
			{func() map[string]any { return requireError(t, f.pk.Get("/v1/accounts"), 403, "forbidden", "") }, 403},
		} {
			e := tc.r()
			require.NotEqual(t, http.StatusText(tc.status), e["error"])
			require.Equal(t, e["message"], e["error"])
			require.Equal(t, e["message"], errorDetails(e)["message"])
		}
	})
}
