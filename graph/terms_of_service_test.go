package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestTermsAndPrefillThroughGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccountGraphQL(testenv.Individual().WithCapabilities("kyc_prefill"), "id")
	aid := str(acct["id"])

	g := gql(t, f.sk, `mutation($a: ID) { createTermsOfServiceToken(accountId: $a) { token } }`, map[string]any{"a": aid})
	tok := str(obj(g.Data["createTermsOfServiceToken"])["token"])
	g = gql(t, f.sk, `mutation($t: String!) { acceptTermsOfService(input: {token: $t, acceptedAt: 1700000000, ipAddress: "203.0.113.1"}) { token } }`,
		map[string]any{"t": tok})
	require.Equal(t, tok, str(obj(g.Data["acceptTermsOfService"])["token"]))

	f.sk.VerifyPhone(aid)

	g = gql(t, f.sk, `mutation($a: ID!) { confirmKycPrefill(accountId: $a) { termsOfService { token accepted } steps { key status }
		capabilities { name status } } }`, map[string]any{"a": aid})
	a := obj(g.Data["confirmKycPrefill"])
	require.Equal(t, map[string]any{"token": tok, "accepted": true}, a["termsOfService"])
	for _, c := range list(a["capabilities"]) {
		if obj(c)["name"] == "KYC_PREFILL" || obj(c)["name"] == "PHONE_VERIFICATION" {
			require.Equal(t, "ACTIVE", obj(c)["status"], obj(c)["name"])
		}
	}
	_, e := gqlError(t, f.sk, `mutation { acceptTermsOfService(input: {token: "tos_none"}) { token } }`, nil)
	require.Equal(t, "resource_missing", code(e))
}
