package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
)

// The client configuration the SDK reads: fixed sandbox values for a
// publishable or secret key, 503 provider_not_configured in production.
func TestClientConfiguration(t *testing.T) {
	t.Parallel()
	f := setup(t)
	merchant := f.env.Merchant.ID.String()
	want := map[string]map[string]any{
		"/v1/config/evervault": {"app_id": "app_sandbox", "team_id": "team_sandbox"},
		"/v1/config/sift":      {"account_id": "sift_sandbox", "beacon_key": "beacon_sandbox"},
		"/v1/client/wallet/google_pay": {"identifier": merchant, "environment": "TEST", "processor": "sandbox",
			"processor_key": "gpay_sandbox_" + merchant},
	}
	for path, body := range want {
		for _, c := range []struct {
			name string
			get  func(string) map[string]any
		}{
			{"publishable", func(p string) map[string]any {
				r := f.pk.Get(p)
				require.Equal(t, http.StatusOK, r.Status, string(r.Body))
				return r.JSON()
			}},
			{"secret", func(p string) map[string]any {
				r := f.sk.Get(p)
				require.Equal(t, http.StatusOK, r.Status, string(r.Body))
				return r.JSON()
			}},
		} {
			require.Equal(t, body, c.get(path), "%s with the %s key", path, c.name)
		}
		requireError(t, f.live.Get(path), http.StatusServiceUnavailable, "provider_not_configured", "")
	}
	other, keys := f.env.NewMerchant(auth.NewMerchant{Name: "Other Platform"})
	r := f.env.Client(keys.Sandbox.Publishable).Get("/v1/client/wallet/google_pay")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, other.ID.String(), r.JSON()["identifier"], "each merchant has its own identifier")
}
