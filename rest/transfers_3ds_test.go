package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestThreeDSecureChallengeResolves(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	cases := []struct {
		number, mode, status, code string
		captured                   int64
	}{
		{"4000000000003220", "automatic", "succeeded", "", 1000},
		{"4000000000003220", "manual", "requires_capture", "", 0},
		{"4000008400001629", "automatic", "failed", "authentication_required", 0},
	}
	for _, c := range cases {
		p := newPayer(t, f.sk, c.number)
		tr := f.sk.CreateTransfer(p.charging(1000).WithAuthorizationMode(c.mode))
		require.Equal(t, "requires_3d_secure", string(tr.Status))
		v2 := f.sk.Get("/v2/transfers/" + id(tr)).JSON()
		require.Equal(t, "requires_3d_secure", v2["status"])
		require.Equal(t, id(p.card), v2["next_action"].(map[string]any)["use_platform_sdk"].(map[string]any)["source"])

		r := f.sk.Post("/v1/test_helpers/transfers/"+id(tr)+"/complete_3d_secure", nil)
		require.Equal(t, http.StatusOK, r.Status, string(r.Body))
		done := r.JSON()
		require.Equal(t, c.status, done["status"], c.number)
		require.Nil(t, done["next_action"])
		require.Equal(t, c.captured, num(done["amount_captured"]))
		if c.code != "" {
			require.Equal(t, c.code, done["failure_code"])
			require.Equal(t, "authentication_failed", done["failure_reason"])
		}
		v2 = f.sk.Get("/v2/transfers/" + id(tr)).JSON()
		require.Equal(t, c.status, v2["status"], "the poll shows the final status")
		requireError(t, f.sk.Post("/v1/test_helpers/transfers/"+id(tr)+"/complete_3d_secure", nil),
			http.StatusUnprocessableEntity, "invalid_state", "")
	}
	// A transfer waiting for the challenge can be canceled instead.
	p := newPayer(t, f.sk, "4000000000003220")
	tr := f.sk.CreateTransfer(p.charging(1000))
	r := f.sk.Post("/v1/transfers/"+id(tr)+"/cancel", nil)
	require.Equal(t, "canceled", r.JSON()["status"])
	requireError(t, f.pk.Post("/v1/test_helpers/transfers/"+id(tr)+"/complete_3d_secure", nil), http.StatusForbidden, "forbidden", "")
	books := requireBooksHold(t, f)
	require.Equal(t, int64(1000), books["card_clearing"], "only the completed automatic challenge moved money")
}
