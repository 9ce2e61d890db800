package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// kyc on a business account asks for what a business can provide: its
// contact details and its roster of owners and controllers, never the
// individual.* fields a business account cannot hold (docs/decisions.md).
func TestBusinessKYCAsksForWhatABusinessCanProvide(t *testing.T) {
	t.Parallel()
	f := setup(t)
	body := testenv.Business().WithCapabilities("kyc").RESTBody()
	delete(body["profile"].(map[string]any)["business"].(map[string]any), "email")
	r := f.sk.Post("/v1/accounts", body)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	kyc := capabilityNamed(t, r.JSON(), "kyc")
	require.Equal(t, []any{"business.email", "business.phone", "beneficial_owners_collected", "terms_of_service"},
		kyc["currently_due"])

	// Providing the contact details leaves the roster (then the run).
	a := r.JSON()
	u := f.sk.Patch("/v1/accounts/"+id(a), map[string]any{"profile": map[string]any{"business": map[string]any{
		"email": "ops@engines.example", "phone": map[string]any{"number": "2001001695", "country_code": "+1"}}}})
	require.Equal(t, http.StatusOK, u.Status, string(u.Body))
	require.Equal(t, []any{"beneficial_owners_collected", "terms_of_service"},
		capabilityNamed(t, u.JSON(), "kyc")["currently_due"])

	// An individual account's kyc is unchanged.
	ind := f.sk.Post("/v1/accounts", testenv.Individual().WithCapabilities("kyc").RESTBody())
	require.Equal(t, http.StatusCreated, ind.Status, string(ind.Body))
	require.Equal(t, []any{"identity_verification", "terms_of_service"}, capabilityNamed(t, ind.JSON(), "kyc")["currently_due"])
}

func capabilityNamed(t *testing.T, account map[string]any, name string) map[string]any {
	t.Helper()
	for _, c := range account["capabilities"].([]any) {
		if c := c.(map[string]any); c["name"] == name {
			return c
		}
	}
	t.Fatalf("account has no %s capability", name)
	return nil
}
